import { RunCancellation } from "../../../src/agents/run-cancellation.js";
import { InMemoryArtifactService, InMemoryMemoryService, InMemorySessionService, InvocationContext, LlmAgent, ToolContext, type Tool } from "../../../src/index.js";

/**
 * Calls tools directly with a real ToolContext over an in-memory session, the
 * way the runner does (arguments checked first, state changes applied after),
 * for unit tests of single tools.
 */
export async function toolHarness(options: { branch?: string } = {}) {
  const sessionService = new InMemorySessionService();
  const artifactService = new InMemoryArtifactService();
  const memoryService = new InMemoryMemoryService();
  const session = await sessionService.createSession({ appName: "app", userId: "u" });
  const invocation = new InvocationContext({
    invocationId: "invocation",
    agent: new LlmAgent({ name: "agent" }),
    session,
    sessionService,
    artifactService,
    memoryService,
    // A run's signal, as the runner gives: shared by every call, which may each listen (as a run's batch of
    // parallel calls does, the harness's calls may run at once).
    cancellation: runCancellation(),
    branch: options.branch,
  });
  let calls = 0;
  const context = () => new ToolContext({ invocation, functionCallId: `call-${++calls}` });
  async function call(tool: Tool, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const checked = tool.checkArguments ? tool.checkArguments(args) : { ok: true as const, value: args };
    if (!checked.ok) return { status: "error", invalid: checked.issues };
    const toolContext = context();
    const result = (await tool.run(checked.value, toolContext)) as Record<string, unknown>;
    Object.assign(session.state, toolContext.actions.stateDelta);
    return result;
  }
  return { session, invocation, context, call, artifactService, memoryService, sessionService };
}

/** The tool with this name from a list. */
export function pick(tools: readonly Tool[], name: string): Tool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

/** A run's cancellation, its signal allowing any number of listeners, as when the run starts a batch of parallel calls. */
function runCancellation(): RunCancellation {
  const cancellation = new RunCancellation();
  cancellation.allowManyListeners();
  return cancellation;
}
