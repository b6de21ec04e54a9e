/**
 * A local stand-in for the Gemini API's Live endpoint (`BidiGenerateContent` over a WebSocket), for tests that run
 * `@google/genai`'s real `live.connect` against a real socket.
 *
 * The message shapes follow Google's documentation, as no real responses could be recorded here (no network):
 * the Live API WebSockets reference (https://ai.google.dev/api/live) and the `google.ai.generativelanguage`
 * v1beta/v1alpha protos it describes (BidiGenerateContentSetup, BidiGenerateContentClientContent,
 * BidiGenerateContentRealtimeInput, BidiGenerateContentToolResponse; BidiGenerateContentServerMessage with
 * setupComplete, serverContent (BidiGenerateContentServerContent: modelTurn, turnComplete, interrupted,
 * generationComplete, groundingMetadata, inputTranscription, outputTranscription), toolCall
 * (BidiGenerateContentToolCall: functionCalls with id, name, args), toolCallCancellation, usageMetadata, goAway
 * (GoAway: timeLeft as a duration) and sessionResumptionUpdate (SessionResumptionUpdate: newHandle, resumable)),
 * as JSON in the proto's camelCase names. The endpoint's path is the one `@google/genai` builds in `Live.connect`
 * (`/ws/google.ai.generativelanguage.<version>.GenerativeService.BidiGenerateContent?key=<key>`). The server sends
 * its JSON in binary frames, as the service does (the SDK reads binary frames for that reason).
 */
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";

/** A message the client sent, as JSON (`setup`, `clientContent`, `realtimeInput` or `toolResponse`). */
export type LiveClientMessage = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A message the server sends (a BidiGenerateContentServerMessage as JSON). */
export type LiveServerMessageJson = Record<string, unknown>;

/** One step of a connection's script: what it waits for, what it sends, and whether the connection ends then. */
export interface LiveScriptStep {
  /**
   * What the step answers: `"setup"` plays it right after `setupComplete`; a function picks the client message;
   * by default, the next message that ends a user turn (see {@link endsTurn}).
   */
  after?: "setup" | ((message: LiveClientMessage) => boolean);
  /** The server messages sent, in order. */
  send?: LiveServerMessageJson[];
  /**
   * Then `"drop"` destroys the socket without a closing handshake (a lost connection), `"garble"` writes a frame no
   * WebSocket may send (the client's socket fails with an error), or a code and reason close it.
   */
  then?: "drop" | "garble" | { code: number; reason: string };
}

/** What the server does on one connection. */
export interface LiveConnectionScript {
  steps?: LiveScriptStep[];
  /** Close the connection with this code and reason instead of answering the setup (Gemini refusing a bad setup). */
  refuseSetup?: { code: number; reason: string };
  /** Never answer the setup (a server that accepts the socket and then says nothing). */
  ignoreSetup?: boolean;
}

/** One connection the server accepted, with everything the client sent on it. */
export interface RecordedLiveConnection {
  /** The request path and query, as the SDK built it. */
  url: string;
  /** The API version in the path (`v1alpha`, `v1beta`). */
  apiVersion: string;
  /** The `key` query parameter. */
  apiKey: string | null;
  headers: Record<string, string | string[] | undefined>;
  /** The setup message's `setup` (BidiGenerateContentSetup). */
  setup: Record<string, any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The client messages after the setup, in order. */
  messages: LiveClientMessage[];
  /** Sends a server message now, outside the script. */
  send(message: LiveServerMessageJson): void;
  /** Resolves once the client has sent this many messages after the setup. */
  waitForMessages(count: number): Promise<void>;
  /** Resolves when the socket has closed, with its code. */
  closed: Promise<{ code: number; reason: string }>;
  /** The script's steps not yet played. */
  readonly remainingSteps: number;
}

/** The running server. */
export interface GeminiLiveServer {
  /** `http://127.0.0.1:<port>`, for `baseURL` or `GOOGLE_GEMINI_BASE_URL` (the SDK turns it into `ws://`). */
  baseUrl: string;
  /** Every connection, in the order they came. */
  connections: RecordedLiveConnection[];
  /** The script for the next connection that has none yet; connections without one answer the setup and wait. */
  enqueue(script: LiveConnectionScript | LiveScriptStep[]): void;
  /** Resolves with the `index`th connection once it has sent its setup. */
  connection(index: number): Promise<RecordedLiveConnection>;
  close(): Promise<void>;
}

const PATH = /^\/+ws\/google\.ai\.generativelanguage\.(v\d+\w*)\.GenerativeService\.BidiGenerateContent$/;

function pathAndQuery(url: string | undefined): { path: string; query: URLSearchParams } {
  const [path = "", query = ""] = (url ?? "").split("?", 2);
  return { path, query: new URLSearchParams(query) };
}

/** Whether a client message ends a user turn: complete client content, a tool response, or realtime text or an activity or audio stream end. */
export function endsTurn(message: LiveClientMessage): boolean {
  if (message.clientContent) return message.clientContent.turnComplete === true;
  if (message.toolResponse) return true;
  const realtime = message.realtimeInput;
  return Boolean(realtime && (realtime.text !== undefined || realtime.activityEnd || realtime.audioStreamEnd));
}

/** Starts the server on a free loopback port. */
export async function startGeminiLiveServer(): Promise<GeminiLiveServer> {
  const scripts: LiveConnectionScript[] = [];
  const connections: RecordedLiveConnection[] = [];
  const setupWaiters = new Map<number, Array<(connection: RecordedLiveConnection) => void>>();
  const sockets = new Set<WebSocket>();
  const server = new WebSocketServer({
    host: "127.0.0.1",
    port: 0,
    verifyClient: ({ req }, done) => {
      const path = pathAndQuery(req.url).path;
      if (PATH.test(path)) done(true);
      else done(false, 404, `No BidiGenerateContent endpoint at ${path}`);
    },
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));

  server.on("connection", (socket, request) => {
    sockets.add(socket);
    // The SDK's URL starts with two slashes (its base URL ends with one), which `new URL` would read as a host.
    const url = pathAndQuery(request.url);
    const script = scripts.shift() ?? {};
    const steps = [...(script.steps ?? [])];
    const messageWaiters: Array<{ count: number; resolve: () => void }> = [];
    let resolveClosed: (value: { code: number; reason: string }) => void = () => {};
    const recorded: RecordedLiveConnection = {
      url: request.url ?? "",
      apiVersion: PATH.exec(url.path)![1]!,
      apiKey: url.query.get("key"),
      headers: request.headers,
      setup: undefined,
      messages: [],
      send: (message) => socket.send(Buffer.from(JSON.stringify(message)), { binary: true }),
      waitForMessages: (count) => (recorded.messages.length >= count ? Promise.resolve() : new Promise((resolve) => messageWaiters.push({ count, resolve }))),
      closed: new Promise((resolve) => {
        resolveClosed = resolve;
      }),
      get remainingSteps() {
        return steps.length;
      },
    };
    socket.on("close", (code, reason) => {
      sockets.delete(socket);
      resolveClosed({ code, reason: reason.toString() });
    });

    /** Plays a step: its messages, then the end it names. */
    const play = (step: LiveScriptStep) => {
      for (const message of step.send ?? []) recorded.send(message);
      if (step.then === "drop") socket.terminate();
      // A final frame of the reserved opcode 0xF, which the client must refuse as a protocol error.
      else if (step.then === "garble") (socket as unknown as { _socket: NodeJS.WritableStream })._socket.write(Buffer.from([0x8f, 0x00]));
      else if (step.then) socket.close(step.then.code, step.then.reason);
    };

    socket.on("message", (data) => {
      const message = JSON.parse(data.toString()) as LiveClientMessage;
      if (recorded.setup === undefined) {
        if (!message.setup) {
          socket.close(1007, "The first message must be a BidiGenerateContentSetup.");
          return;
        }
        recorded.setup = message.setup;
        const index = connections.push(recorded) - 1;
        for (const resolve of setupWaiters.get(index) ?? []) resolve(recorded);
        setupWaiters.delete(index);
        if (script.refuseSetup) {
          socket.close(script.refuseSetup.code, script.refuseSetup.reason);
          return;
        }
        if (script.ignoreSetup) return;
        recorded.send({ setupComplete: {} });
        while (steps[0]?.after === "setup") play(steps.shift()!);
        return;
      }
      recorded.messages.push(message);
      for (const waiter of messageWaiters.filter((entry) => recorded.messages.length >= entry.count)) {
        messageWaiters.splice(messageWaiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const next = steps[0];
      if (!next || next.after === "setup") return;
      if (next.after ? next.after(message) : endsTurn(message)) play(steps.shift()!);
    });
  });

  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    connections,
    enqueue(script) {
      scripts.push(Array.isArray(script) ? { steps: script } : script);
    },
    connection(index) {
      const existing = connections[index];
      if (existing) return Promise.resolve(existing);
      return new Promise((resolve) => setupWaiters.set(index, [...(setupWaiters.get(index) ?? []), resolve]));
    },
    close() {
      for (const socket of sockets) socket.terminate();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
