/**
 * Helpers for a2a-side-by-side.test.ts: each framework's A2A pieces behind one shape (a "kit"), a scripted model for
 * each, serving an agent with `toA2a` on a free local port, running a client runner, and normalising events so
 * ADK's and toolsmith's can be compared.
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import * as adk from "@google/adk";
import * as adkA2a from "@google/adk/a2a";
import * as toolsmith from "../../src/index.js";
import * as toolsmithA2a from "../../src/a2a/index.js";
import { ScriptedModel } from "../../src/testing/index.js";

/** Either framework's exports: programs are written once, against the names both export. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Any = any;

/** A genai-shaped model response. */
export interface Response {
  content: { role: string; parts: Array<Record<string, unknown>> };
}

/** A scripted turn: a response, chunks to stream (then joined into one complete response), or an error to throw. */
export type Step = Response | Response[] | Error;

/** A scripted model of either framework, and what it was asked. */
export interface Scripted {
  model: unknown;
  calls(): number;
  /** Each request's contents, as the framework gave them. */
  contents(): unknown[][];
}

export type KitName = "adk" | "toolsmith";

/** One framework's pieces. */
export interface Kit {
  name: KitName;
  /** The core module (`@google/adk` or toolsmith's root entry). */
  f: Any;
  /** The A2A module (`@google/adk/a2a` or `toolsmith/a2a`). */
  a2a: Any;
  scripted(steps: Step[]): Scripted;
}

/** The text parts of chunks joined, as a streaming model's complete response. */
function joined(chunks: Response[]): Response {
  return { content: { role: "model", parts: [{ text: chunks.map((chunk) => chunk.content.parts.map((part) => String(part.text ?? "")).join("")).join("") }] } };
}

/** ADK's scripted model: a `BaseLlm` that plays the steps; streamed chunks are `partial: true`, then the joined response. */
class AdkScriptedLlm extends adk.BaseLlm {
  readonly requests: Array<{ contents: unknown[] }> = [];
  constructor(private readonly steps: Step[]) {
    super({ model: "scripted-adk-a2a" });
  }
  override async *generateContentAsync(request: Any, stream?: boolean): AsyncGenerator<Any, void> {
    this.requests.push({ contents: structuredClone(request.contents) });
    const step = this.steps.shift();
    if (step === undefined) throw new Error(`The ADK script ran out at request ${this.requests.length}.`);
    if (step instanceof Error) throw step;
    if (!Array.isArray(step)) {
      yield structuredClone(step);
      return;
    }
    if (stream) for (const chunk of step) yield { ...structuredClone(chunk), partial: true };
    yield joined(step);
  }
  override async connect(): Promise<never> {
    throw new Error("not live");
  }
}

export const ADK: Kit = {
  name: "adk",
  f: adk,
  a2a: adkA2a,
  scripted(steps) {
    const model = new AdkScriptedLlm([...steps]);
    return { model, calls: () => model.requests.length, contents: () => model.requests.map((request) => request.contents) };
  },
};

export const TOOLSMITH: Kit = {
  name: "toolsmith",
  f: toolsmith,
  a2a: toolsmithA2a,
  scripted(steps) {
    // toolsmith's ScriptedModel streams an array step's chunks as partial responses, then their join.
    const model = new ScriptedModel(steps as Any);
    return { model, calls: () => model.requests.length, contents: () => model.requests.map((request) => structuredClone(request.contents)) };
  },
};

export const KITS: readonly Kit[] = [ADK, TOOLSMITH];

/** Every client→server pairing: ADK→ADK, ADK→toolsmith, toolsmith→ADK, toolsmith→toolsmith. */
export const PAIRS: ReadonlyArray<{ client: Kit; server: Kit; label: string }> = KITS.flatMap((client) => KITS.map((server) => ({ client, server, label: `${client.name} client → ${server.name} server` })));

/** An agent served over A2A on a free local port. */
export interface Served {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** The card the server serves, its URLs pointed at the port it really listens on. */
  card: Any;
  /** The card as served (its URLs name the `port` option given to toA2a). */
  servedCard: Any;
  sessionService: Any;
  close(): Promise<void>;
}

/** Servers still open; closed by {@link closeAll}. */
const open = new Set<Served>();

/**
 * Serves `agent` with the kit's `toA2a` (unauthenticated unless `authentication` is given) on a free port. By default
 * toA2a is told port 1 and the card's URLs are rewritten to the port the server listens on; with `ownPort`, a free
 * port is found first and given to toA2a, so the card the server serves names its own address.
 */
export async function serve(kit: Kit, agent: unknown, options: { authentication?: unknown; ownPort?: boolean } = {}): Promise<Served> {
  const sessionService = new kit.f.InMemorySessionService();
  const auth = options.authentication ? { authentication: options.authentication } : { allowUnauthenticated: true };
  const port = options.ownPort ? await closedPort() : 1;
  const app = await kit.a2a.toA2a(agent, { ...auth, host: "127.0.0.1", port, sessionService });
  const server: Server = await new Promise((resolve) => {
    const listening: Server = app.listen(options.ownPort ? port : 0, "127.0.0.1", () => resolve(listening));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const servedCard: Any = await (await fetch(`${base}/${kit.a2a.AGENT_CARD_PATH}`)).json();
  const card = {
    ...servedCard,
    url: `${base}/jsonrpc`,
    additionalInterfaces: (servedCard.additionalInterfaces as Array<{ url: string; transport: string }>).map((entry) => ({ ...entry, url: entry.url.replace(`http://127.0.0.1:${port}`, base) })),
  };
  const served: Served = {
    base,
    card,
    servedCard,
    sessionService,
    close: () =>
      new Promise<void>((resolve) => {
        open.delete(served);
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
  open.add(served);
  return served;
}

/** Closes every server {@link serve} opened and has not closed. */
export async function closeAll(): Promise<void> {
  await Promise.all([...open].map((served) => served.close()));
}

/** A port nothing listens on (a server opened on it and closed again). */
export async function closedPort(): Promise<number> {
  const { createServer } = await import("node:net");
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A client's runs: the events each `runAsync` yielded, and the session as stored after the last. */
export interface ClientRecord {
  runs: Any[][];
  stored: Any[];
  sessionId: string;
}

/** Runs `agent` (a remote agent, or a tree holding one) in the kit's `Runner` on each message in turn, in one session. */
export async function runClient(kit: Kit, agent: unknown, messages: Array<Record<string, unknown> | ((events: Any[]) => Record<string, unknown>)>): Promise<ClientRecord> {
  const sessionService = new kit.f.InMemorySessionService();
  const runner = new kit.f.Runner({ appName: "client_app", agent, sessionService });
  const session = await sessionService.createSession({ appName: "client_app", userId: "client_user" });
  const runs: Any[][] = [];
  for (const message of messages) {
    const newMessage = typeof message === "function" ? message(runs.flat()) : message;
    const events: Any[] = [];
    for await (const event of runner.runAsync({ userId: "client_user", sessionId: session.id, newMessage })) events.push(event);
    runs.push(events);
  }
  const stored = await sessionService.getSession({ appName: "client_app", userId: "client_user", sessionId: session.id });
  return { runs, stored: stored.events, sessionId: session.id };
}

/**
 * The server's sessions for an A2A context: the executor keeps a context's conversation as session `<contextId>` of
 * user `A2A_USER_<contextId>`; all of that user's sessions, each with its events.
 */
export async function serverSessions(served: Served, appName: string, contextId: string): Promise<Any[]> {
  const userId = `A2A_USER_${contextId}`;
  const { sessions } = await served.sessionService.listSessions({ appName, userId });
  return Promise.all(sessions.map((session: Any) => served.sessionService.getSession({ appName, userId, sessionId: session.id })));
}

/** The A2A context a client's events name (`a2a:context_id`), and checks they name only one. */
export function contextIdOf(events: readonly Any[]): string {
  const ids = new Set(events.map((event) => event.customMetadata?.["a2a:context_id"]).filter((id): id is string => typeof id === "string"));
  if (ids.size !== 1) throw new Error(`Expected the events to name one A2A context, found ${ids.size}: ${[...ids].join(", ")}`);
  return [...ids][0]!;
}

/** An event as compared: ids mapped to their order of appearance, timestamps and invocation ids left out. */
export interface Normalised {
  author: string;
  parts?: unknown[];
  partial?: true;
  error?: true;
  turnComplete?: true;
  a2a?: string[];
  longRunning?: number;
  /** What the A2A peer sent that became the event (`a2a:response`): its kind, and a status's state. */
  response?: string;
}

/** Normalises events, mapping function-call ids to `call-1`, `call-2`, … in the order they first appear. */
export function normalise(events: readonly Any[]): Normalised[] {
  const ids = new Map<string, string>();
  const mapId = (id: unknown) => {
    if (typeof id !== "string") return undefined;
    if (!ids.has(id)) ids.set(id, `call-${ids.size + 1}`);
    return ids.get(id);
  };
  return events.map((event) => {
    const normalised: Normalised = { author: String(event.author) };
    const parts = (event.content?.parts ?? []) as Array<Record<string, Any>>;
    if (parts.length > 0) {
      normalised.parts = parts.map((part) => {
        if (typeof part.text === "string") return part.thought ? { thought: part.text } : { text: part.text };
        if (part.functionCall) return { functionCall: { id: mapId(part.functionCall.id), name: part.functionCall.name, args: part.functionCall.args ?? {} } };
        if (part.functionResponse) return { functionResponse: { id: mapId(part.functionResponse.id), name: part.functionResponse.name, response: part.functionResponse.response } };
        return part;
      });
    }
    if (event.partial) normalised.partial = true;
    if (event.errorMessage) normalised.error = true;
    if (event.turnComplete) normalised.turnComplete = true;
    const a2aKeys = Object.keys(event.customMetadata ?? {}).filter((key) => key.startsWith("a2a:")).sort();
    if (a2aKeys.length > 0) normalised.a2a = a2aKeys;
    const longRunning = (event.longRunningToolIds ?? []).length;
    if (longRunning > 0) normalised.longRunning = longRunning;
    const response = event.customMetadata?.["a2a:response"];
    if (response) normalised.response = [response.kind, response.status?.state].filter(Boolean).join(":");
    return normalised;
  });
}

export { withoutIds } from "./side-by-side.js";

/** A user message with one text part. */
export const userText = (text: string) => ({ role: "user", parts: [{ text }] });

/** A scripted model response that says `text`. */
export const say = (text: string): Response => ({ content: { role: "model", parts: [{ text }] } });

/** A scripted model response that calls one tool. */
export const callTool = (name: string, args: Record<string, unknown> = {}): Response => ({ content: { role: "model", parts: [{ functionCall: { name, args } }] } });

/** Collects what the frameworks log, instead of writing it to standard error. */
export function captureLogs(): { lines: string[]; restore(): void } {
  const lines: string[] = [];
  const write = (level: string) => (...args: unknown[]) => lines.push(`${level} ${args.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(" ")}`);
  const logger = { log: (level: number, ...args: unknown[]) => write(String(level))(...args), debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error"), setLogLevel() {} };
  const previous = { adk: adk.getLogger(), toolsmith: toolsmith.getLogger() };
  adk.setLogger(logger as Any);
  toolsmith.setLogger(logger as Any);
  return {
    lines,
    restore() {
      adk.setLogger(previous.adk);
      toolsmith.setLogger(previous.toolsmith);
    },
  };
}
