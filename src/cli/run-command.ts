import { readFileSync } from "node:fs";
import { SessionNotFoundError } from "../errors/toolsmith-error.js";
import type { FunctionCall, Part } from "../content/content.js";
import type { AuthConfig } from "../events/event-actions.js";
import type { Event } from "../events/event.js";
import { branchSafeId, toolCallIdsIn } from "../agents/branch.js";
import { REQUEST_CONFIRMATION, REQUEST_CREDENTIAL } from "../pause/client-requests.js";
import { REQUEST_INPUT_FUNCTION_CALL_NAME } from "../tools/request-input-tool.js";
import { Runner } from "../runner/runner.js";
import { openServices, runnerServices } from "../server/open-services.js";
import type { CliIo } from "./cli-io.js";
import { EXIT, UsageError } from "./exit-codes.js";
import { loadAgent } from "./load-agent.js";
import { terminalSafe } from "./terminal-text.js";
import { ProgressIndicator } from "./progress-indicator.js";
import { trimTrailing } from "../platform/trim-runs.js";

/** Options of {@link runCommand}. */
export interface RunCommandOptions {
  io: CliIo;
  agentPath?: string;
  userId: string;
  /** Continue this session instead of starting one. */
  resume?: string;
  /** A JSON file with a list of lines to type: user messages, and answers when the agent asks. */
  replay?: string;
  stream: boolean;
  sessionServiceUri?: string;
  artifactServiceUri?: string;
  memoryServiceUri?: string;
  credentialServiceUri?: string;
}

/**
 * `toolsmith run <agent>`: a chat in the terminal. Text streams as the model
 * writes it, tool calls and results show as they happen, and confirmations,
 * credentials and long-running results are asked for at the prompt.
 */
export async function runCommand(options: RunCommandOptions): Promise<number> {
  const progress = new ProgressIndicator(options.io.stderr, { output: options.io.stdout });
  const io = clearingProgress(options.io, progress);
  const replayed = options.replay ? readReplay(options.replay) : undefined;
  const { appName, agent, plugins } = await loadAgent(options.agentPath);
  const services = await openServices(options);
  if (services.storageNotice) io.stderr.write(`note: ${services.storageNotice}\n`);
  const runner = new Runner({ appName, agent, plugins, ...runnerServices(services) });
  const key = { appName, userId: options.userId };
  const session = options.resume ? await services.sessionService.getSession({ ...key, sessionId: options.resume }) : await services.sessionService.createSession(key);
  if (!session) throw new SessionNotFoundError({ ...key, sessionId: options.resume! });
  io.stdout.write(`${agent.name} — session ${session.id} (continue it later with --resume ${session.id}). Type /exit to leave.\n`);

  const ask = async (prompt: string): Promise<string | undefined> => {
    if (!replayed) return io.readLine(prompt);
    const line = replayed.shift();
    if (line !== undefined) io.stdout.write(`${prompt}${line}\n`);
    return line;
  };
  let failed = false;
  try {
    for (let line = await ask("you> "); line !== undefined && line.trim() !== "/exit"; line = await ask("you> ")) {
      if (!line.trim()) continue;
      let message: Part[] | undefined = [{ text: line }];
      while (message && !io.interrupt.aborted) {
        const outcome = await runTurn({ runner, io, progress, userId: options.userId, sessionId: session.id, parts: message, stream: options.stream });
        failed ||= outcome.failed;
        message = await answerRequests(outcome.requests, ask, io);
      }
      if (io.interrupt.aborted) return EXIT.INTERRUPTED;
    }
  } finally {
    progress.stop();
    await runner.close();
  }
  return failed ? EXIT.TOOL_OR_RUN_ERROR : EXIT.OK;
}

/**
 * The command's io with the spinner kept out of the way of text: everything
 * on stdout and stderr goes through the indicator, which clears the spinner
 * first and tracks the cursor's line, and a prompt clears it before it shows.
 * All of it is {@link terminalSafe}: what the agent, its tools and their servers
 * say is printed, and the command's own text has no control characters.
 */
function clearingProgress(io: CliIo, progress: ProgressIndicator): CliIo {
  return {
    ...io,
    stdout: { isTTY: io.stdout.isTTY, write: (text: string) => progress.write(terminalSafe(text), io.stdout) },
    stderr: { isTTY: io.stderr.isTTY, write: (text: string) => progress.write(terminalSafe(text), io.stderr) },
    readLine: async (given) => {
      const prompt = terminalSafe(given);
      progress.stop();
      progress.wrote(prompt);
      const line = await io.readLine(prompt);
      // The user's Enter ended the prompt's line.
      if (line !== undefined) progress.wrote("\n");
      return line;
    },
  };
}

interface TurnOutcome {
  /** Calls the run paused on: requests for the client and pending long-running calls. */
  requests: FunctionCall[];
  failed: boolean;
}

async function runTurn(options: { runner: Runner; io: CliIo; progress: ProgressIndicator; userId: string; sessionId: string; parts: Part[]; stream: boolean }): Promise<TurnOutcome> {
  const { io, progress } = options;
  const requests: FunctionCall[] = [];
  let failed = false;
  let streaming = false;
  progress.start("thinking…");
  const events = options.runner.runAsync({
    userId: options.userId,
    sessionId: options.sessionId,
    newMessage: { role: "user", parts: options.parts },
    runConfig: { streamingMode: options.stream ? "sse" : "none" },
    abortSignal: io.interrupt,
  });
  // Calls whose agent or node run as a tool asks the person itself: they go on with the answers, and are not asked.
  const askingInside = new Set<string>();
  for await (const event of events) {
    if (event.longRunningToolIds?.length) for (const id of toolCallIdsIn(event.branch)) askingInside.add(id);
    // No stop here: whatever the event writes clears the spinner first, and an event that writes nothing leaves it turning.
    // Code an agent runs, and its result, are shown as steps (showCalls), not as what the agent says.
    const text = (event.content?.parts ?? []).filter((part) => part.text && !part.thought && !part.executableCode && !part.codeExecutionResult).map((part) => part.text).join("");
    if (event.partial) {
      if (text) io.stdout.write(streaming ? text : `${event.author}: ${text}`);
      streaming ||= text !== "";
    } else {
      if (text) io.stdout.write(streaming ? "\n" : `${event.author}: ${trimTrailing(text, "\n")}\n`);
      streaming = false;
      showCalls(io, event, requests);
      if (event.errorCode) {
        failed = true;
        io.stdout.write(`  error ${event.errorCode}: ${event.errorMessage ?? ""}\n`);
      }
    }
    // Mid-line (a partial answer) this draws nothing, so the next frame cannot erase the streamed text.
    progress.start(hasCalls(event) ? "running tools…" : event.content?.parts?.at(-1)?.executableCode ? "running code…" : "thinking…");
  }
  progress.stop();
  return { requests: requests.filter((call) => !askingInside.has(branchSafeId(call.id ?? ""))), failed };
}

function hasCalls(event: Event): boolean {
  return (event.content?.parts ?? []).some((part) => part.functionCall);
}

function showCalls(io: CliIo, event: Event, requests: FunctionCall[]): void {
  const waiting = new Set(event.longRunningToolIds);
  for (const part of event.content?.parts ?? []) {
    const call = part.functionCall;
    if (call) {
      if (call.name !== REQUEST_CONFIRMATION && call.name !== REQUEST_CREDENTIAL) io.stdout.write(`  → ${call.name}(${short(call.args ?? {})})\n`);
      if (call.id && waiting.has(call.id)) requests.push(call);
    }
    const response = part.functionResponse;
    if (response && response.response?.status !== "paused") io.stdout.write(`  ← ${response.name}: ${short(response.response ?? {})}\n`);
    if (part.executableCode) io.stdout.write(`  → code:\n${indented(part.executableCode.code ?? "")}`);
    const result = part.codeExecutionResult;
    if (result) io.stdout.write(`  ← ${result.outcome === "OUTCOME_OK" ? "output" : "failed"}:\n${indented(result.output ?? part.text ?? "")}`);
  }
}

/** Lines of code or output, indented under the step they belong to, ending with a newline. */
function indented(text: string): string {
  return trimTrailing(text, "\n").split("\n").map((line) => `    ${line}\n`).join("");
}

async function answerRequests(requests: readonly FunctionCall[], ask: (prompt: string) => Promise<string | undefined>, io: CliIo): Promise<Part[] | undefined> {
  const answers: Part[] = [];
  for (const request of requests) {
    const elicitation = request.name === REQUEST_CONFIRMATION ? elicitationOf(request) : undefined;
    if (elicitation) {
      const reply = await answerElicitation(elicitation, ask, io);
      if (reply === undefined) return undefined;
      answers.push({ functionResponse: { id: request.id, name: REQUEST_CONFIRMATION, response: reply } });
    } else if (request.name === REQUEST_CONFIRMATION) {
      const { originalFunctionCall, toolConfirmation } = request.args as { originalFunctionCall: FunctionCall; toolConfirmation: { hint?: string } };
      io.stdout.write(`  ? ${toolConfirmation.hint ?? `Confirm ${originalFunctionCall.name}.`}\n`);
      const reply = (await ask(`approve ${originalFunctionCall.name}(${short(originalFunctionCall.args ?? {})})? [y/N] `))?.trim().toLowerCase();
      if (reply === undefined) return undefined;
      answers.push({ functionResponse: { id: request.id, name: REQUEST_CONFIRMATION, response: { confirmed: reply === "y" || reply === "yes" } } });
    } else if (request.name === REQUEST_CREDENTIAL) {
      const { authConfig } = request.args as { authConfig: AuthConfig };
      const type = authConfig.authScheme.type;
      const url = authConfig.exchangedAuthCredential?.oauth2?.authUri;
      if (url) io.stdout.write(`  ? Sign in at ${url}\n`);
      const reply = await ask(type === "oauth2" ? "paste the URL you were redirected to: " : `${type === "apiKey" ? "API key" : "token"} for ${String(authConfig.authScheme.name ?? type)}: `);
      if (reply === undefined) return undefined;
      answers.push({ functionResponse: { id: request.id, name: REQUEST_CREDENTIAL, response: credentialAnswer(authConfig, reply.trim()) as unknown as Record<string, unknown> } });
    } else if (request.name === REQUEST_INPUT_FUNCTION_CALL_NAME) {
      // A question (a workflow node's, or the model's): its answer is sent as typed, and read as JSON when it is.
      const { message, response_schema: schema } = (request.args ?? {}) as { message?: string | null; response_schema?: unknown };
      io.stdout.write(`  ? ${message ?? "The agent asks for your input."}\n`);
      const reply = await ask(schema ? `answer (JSON, shaped as ${short(schema as Record<string, unknown>)}): ` : "answer: ");
      if (reply === undefined) return undefined;
      answers.push({ functionResponse: { id: request.id, name: REQUEST_INPUT_FUNCTION_CALL_NAME, response: { result: reply } } });
    } else {
      const reply = await ask(`result for the pending ${request.name} call (JSON; empty leaves it pending): `);
      if (reply === undefined || reply.trim() === "") continue;
      let result: unknown;
      try {
        result = JSON.parse(reply);
      } catch {
        result = { result: reply };
      }
      answers.push({ functionResponse: { id: request.id, name: request.name, response: typeof result === "object" && result && !Array.isArray(result) ? (result as Record<string, unknown>) : { result } } });
    }
  }
  return answers.length ? answers : undefined;
}

/** A form field of an MCP server's question. */
interface ElicitationField {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
}

/** An MCP server's question, carried by a confirmation request's payload. */
interface Elicitation {
  hint: string;
  payload: { mcpElicitation: { message: string; requestedSchema: { properties?: Record<string, ElicitationField>; required?: string[] } }; content?: Record<string, unknown> };
}

function elicitationOf(request: FunctionCall): Elicitation | undefined {
  const confirmation = (request.args as { toolConfirmation?: { hint?: string; payload?: Elicitation["payload"] } }).toolConfirmation;
  return confirmation?.payload?.mcpElicitation ? { hint: confirmation.hint ?? confirmation.payload.mcpElicitation.message, payload: confirmation.payload } : undefined;
}

/**
 * Asks an MCP server's question at the prompt: answer, decline or dismiss,
 * then each field of its form (Enter keeps the default or leaves an optional
 * field out). Numbers and yes/no are read as such; the server checks the rest.
 */
async function answerElicitation(elicitation: Elicitation, ask: (prompt: string) => Promise<string | undefined>, io: CliIo): Promise<Record<string, unknown> | undefined> {
  io.stdout.write(`  ? ${elicitation.hint}\n`);
  const choice = (await ask("answer? [y = answer / n = decline / c = dismiss] "))?.trim().toLowerCase();
  if (choice === undefined) return undefined;
  if (choice === "n" || choice === "no") return { confirmed: false };
  if (choice !== "y" && choice !== "yes") return { confirmed: true, payload: { ...elicitation.payload, action: "cancel" } };
  const { properties = {}, required = [] } = elicitation.payload.mcpElicitation.requestedSchema;
  const content: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(properties)) {
    const start = elicitation.payload.content?.[name] ?? field.default;
    const choices = field.enum ? ` (${field.enum.join(" / ")})` : "";
    const typed = await ask(`    ${field.title ?? name}${required.includes(name) ? " *" : ""}${choices}${start === undefined ? "" : ` [${String(start)}]`}: `);
    if (typed === undefined) return undefined;
    const value = typed.trim();
    if (value === "") {
      if (start !== undefined) content[name] = start;
      continue;
    }
    content[name] = field.type === "integer" || field.type === "number" ? Number(value) : field.type === "boolean" ? /^(y|yes|true)$/i.test(value) : value;
  }
  return { confirmed: true, payload: { ...elicitation.payload, content } };
}

/** The auth config sent back with what the user typed: a key, a bearer token, or the OAuth 2 redirect URL. */
export function credentialAnswer(authConfig: AuthConfig, value: string): AuthConfig {
  const type = authConfig.authScheme.type;
  if (type === "oauth2" || type === "openIdConnect") {
    const oauth2 = { ...authConfig.exchangedAuthCredential?.oauth2, authResponseUri: value };
    return { ...authConfig, exchangedAuthCredential: { authType: "oauth2", oauth2 } };
  }
  if (type === "apiKey") return { ...authConfig, exchangedAuthCredential: { authType: "apiKey", apiKey: value } };
  return { ...authConfig, exchangedAuthCredential: { authType: "http", http: { scheme: "bearer", credentials: { token: value } } } };
}

function short(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

function readReplay(path: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new UsageError(`--replay ${path} could not be read as JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed) || !parsed.every((line) => typeof line === "string")) {
    throw new UsageError(`--replay ${path} must hold a JSON list of strings: the user's messages, and answers ("y", a key) where the agent asks.`);
  }
  return [...parsed];
}
