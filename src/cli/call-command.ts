import { allAgents } from "../agents/agent.js";
import { ConfigurationError, SessionNotFoundError } from "../errors/toolsmith-error.js";
import { runSingleToolCall } from "../llm-agent/run-single-tool-call.js";
import { isLlmAgent, toolsOf } from "../server/describe-tools.js";
import { openServices } from "../server/open-services.js";
import type { CliIo } from "./cli-io.js";
import { EXIT, UsageError } from "./exit-codes.js";
import { loadAgent } from "./load-agent.js";
import { terminalSafe } from "./terminal-text.js";

/** Options of {@link callCommand}. */
export interface CallCommandOptions {
  io: CliIo;
  agentPath?: string;
  toolName?: string;
  argsJson?: string;
  userId: string;
  sessionId?: string;
  sessionServiceUri?: string;
  artifactServiceUri?: string;
  memoryServiceUri?: string;
  credentialServiceUri?: string;
  json: boolean;
}

/** `toolsmith call <agent> <tool> '<json args>'`: runs one tool on a real session and prints its result, state delta and artifacts. */
export async function callCommand(options: CallCommandOptions): Promise<number> {
  if (!options.agentPath || !options.toolName) throw new UsageError(`toolsmith call needs an agent and a tool, such as: toolsmith call examples/shop lookup_order '{"orderId": "A-17"}'`);
  const args = parseArgs(options.argsJson ?? "{}");
  const { appName, agent: root } = await loadAgent(options.agentPath);
  const services = await openServices(options);
  const key = { appName, userId: options.userId };
  const session = options.sessionId
    ? await services.sessionService.getSession({ ...key, sessionId: options.sessionId })
    : await services.sessionService.createSession(key);
  if (!session) throw new SessionNotFoundError({ ...key, sessionId: options.sessionId! });

  const agents = allAgents(root).filter(isLlmAgent);
  let agent = undefined;
  for (const candidate of agents) if ((await toolsOf(candidate, session)).some((tool) => tool.name === options.toolName)) (agent ??= candidate);
  if (!agent) {
    const names = (await Promise.all(agents.map((candidate) => toolsOf(candidate, session)))).flat().map((tool) => tool.name);
    throw new ConfigurationError("UNKNOWN_TOOL", `${root.name} has no tool "${options.toolName}". Its tools: ${names.join(", ") || "none"}.`);
  }
  const result = await runSingleToolCall({ agent, session, ...services, toolName: options.toolName, args, abortSignal: options.io.interrupt });
  const artifacts = await Promise.all(
    Object.entries(result.artifactDelta).map(async ([filename, version]) => {
      const part = await services.artifactService.loadArtifact({ ...key, sessionId: session.id, filename, version });
      const kind = part?.inlineData ? `${part.inlineData.mimeType}, ${Buffer.from(part.inlineData.data ?? "", "base64").length} bytes` : `text, ${part?.text?.length ?? 0} characters`;
      return { filename, version, kind };
    }),
  );
  const out = options.io.stdout;
  if (options.json) out.write(`${JSON.stringify({ sessionId: session.id, response: result.response, stateDelta: result.stateDelta, artifacts }, null, 2)}\n`);
  else {
    // What the tool answered is printed for people, terminal-safe; --json prints it as data.
    out.write(terminalSafe(`result: ${JSON.stringify(result.response, null, 2)}\n`));
    out.write(terminalSafe(`state delta: ${JSON.stringify(result.stateDelta)}\n`));
    out.write(terminalSafe(`artifacts: ${artifacts.map((artifact) => `${artifact.filename} (version ${artifact.version}, ${artifact.kind})`).join("; ") || "none"}\n`));
    out.write(`session: ${session.id}\n`);
  }
  return result.response.status === "error" ? EXIT.TOOL_OR_RUN_ERROR : EXIT.OK;
}

function parseArgs(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`The tool arguments are not valid JSON (${(error as Error).message}). Quote them for the shell: '{"orderId": "A-17"}'.`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new UsageError(`The tool arguments must be a JSON object, like '{"orderId": "A-17"}'.`);
  return value as Record<string, unknown>;
}
