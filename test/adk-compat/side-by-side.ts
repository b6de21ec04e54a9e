/**
 * Runs one program on `@google/adk` 2.0 and on toolsmith, each with a scripted
 * model registered under the same name, and gives both records in one
 * normalised shape, so a test can compare what ADK does with what toolsmith
 * does by running both, not from memory.
 */
import * as adk from "@google/adk";
import * as toolsmith from "../../src/index.js";

/** Either framework's exports, as a program written once for both sees them. */
// Programs are written against ADK's names; both modules export them (toolsmith by design).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Framework = any;

/** What a side-by-side run records. */
export interface RunRecord {
  /** Events the runner yielded (partial ones left out), normalised. */
  events: NormalisedEvent[];
  /** Each model request: system instruction, contents (ids removed) and declared tool names. */
  requests: { systemInstruction: string; contents: unknown[]; tools: string[] }[];
  /** What the program returned. */
  output: unknown;
}

export interface NormalisedEvent {
  author: string;
  content?: unknown;
  stateDelta?: Record<string, unknown>;
  waiting?: number;
  transferToAgent?: string;
  escalate?: boolean;
  errorCode?: string;
}

/** A script of model responses (genai-shaped), shared by both frameworks' scripted models. */
export type ModelScript = Array<{ content: { role: string; parts: unknown[] } } | ((request: unknown) => { content: { role: string; parts: unknown[] } })>;

let counter = 0;

/** Runs `program` on the framework, with `script` answering every model call named `model`. */
export async function runOn(framework: "adk" | "toolsmith", script: ModelScript, program: (f: Framework, model: string) => Promise<{ runner: unknown; events: unknown[]; output?: unknown }>): Promise<RunRecord> {
  const f: Framework = framework === "adk" ? adk : toolsmith;
  const model = `scripted-${framework}-${++counter}`;
  const queue = [...script];
  const requests: RunRecord["requests"] = [];
  class ScriptedLlm extends f.BaseLlm {
    static readonly supportedModels = [model];
    async *generateContentAsync(request: { contents: unknown[]; config?: { systemInstruction?: unknown; tools?: Array<{ functionDeclarations?: Array<{ name: string }> }> }; functionDeclarations?: Array<{ name: string }>; systemInstruction?: string }) {
      const declarations = request.functionDeclarations ?? request.config?.tools?.flatMap((tool) => tool.functionDeclarations ?? []) ?? [];
      requests.push({ systemInstruction: String(request.config?.systemInstruction ?? ""), contents: withoutIds(structuredClone(request.contents)), tools: declarations.map((declaration) => declaration.name) });
      const next = queue.shift();
      if (!next) throw new Error(`The script for ${framework} ran out at request ${requests.length}.`);
      yield typeof next === "function" ? next(request) : structuredClone(next);
    }
    async connect(): Promise<never> {
      throw new Error("not live");
    }
  }
  f.LLMRegistry.register(ScriptedLlm);
  const { events, output } = await program(f, model);
  return { events: (events as Array<Record<string, unknown>>).filter((event) => !event.partial).map(normaliseEvent), requests, output };
}

/** Runs the program on both frameworks. */
export async function runOnBoth(script: ModelScript, program: Parameters<typeof runOn>[2]): Promise<{ adk: RunRecord; toolsmith: RunRecord }> {
  return { adk: await runOn("adk", script, program), toolsmith: await runOn("toolsmith", script, program) };
}

function normaliseEvent(event: Record<string, unknown>): NormalisedEvent {
  const actions = (event.actions ?? {}) as Record<string, unknown>;
  const normalised: NormalisedEvent = { author: String(event.author) };
  if (event.content) normalised.content = withoutIds(structuredClone(event.content));
  const delta = actions.stateDelta as Record<string, unknown> | undefined;
  if (delta && Object.keys(delta).length > 0) normalised.stateDelta = delta;
  const waiting = (event.longRunningToolIds as unknown[] | undefined)?.length;
  if (waiting) normalised.waiting = waiting;
  if (actions.transferToAgent) normalised.transferToAgent = String(actions.transferToAgent);
  if (actions.escalate) normalised.escalate = true;
  if (event.errorCode) normalised.errorCode = String(event.errorCode);
  return normalised;
}

/** Function-call ids are random in both frameworks (and ADK removes them from requests): compared without them. */
export function withoutIds<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutIds) as T;
  if (value && typeof value === "object") {
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) if (!(key === "id" && typeof inner === "string")) copy[key] = withoutIds(inner);
    return copy as T;
  }
  return value;
}

/**
 * One turn of a program on either framework: an in-memory runner over the agent (with the plugins given),
 * a new session, the user's message; the runner, the events it yielded and the session as stored after.
 */
export async function runTurn(f: Framework, agent: unknown, message: string, options: { plugins?: unknown[] } = {}) {
  const runner = new f.InMemoryRunner({ agent, appName: "app", ...(options.plugins ? { plugins: options.plugins } : {}) });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events = await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: message }] } }));
  const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
  return { runner, events, session: stored };
}

/** Drains a runner's run into a list. */
export async function drain(run: AsyncIterable<unknown>): Promise<unknown[]> {
  const events: unknown[] = [];
  for await (const event of run) events.push(event);
  return events;
}

/** A scripted model answer with text. */
export const text = (value: string) => ({ content: { role: "model", parts: [{ text: value }] } });

/** A scripted model answer calling one tool. */
export const call = (name: string, args: Record<string, unknown> = {}) => ({ content: { role: "model", parts: [{ functionCall: { name, args } }] } });
