import type { WebSocket } from "ws";
import { LiveRequestQueue } from "../agents/live-request-queue.js";
import type { ApiServerParts } from "./api-env.js";
import { closeReason, LIVE_CLOSE, liveCloseOf, LiveCloseError } from "./live-close.js";
import { readLiveQuery } from "./live-query.js";
import { parseLiveRequestMessage } from "./live-request-message.js";

/** Bytes waiting on a socket past which the run waits for the client to read before it sends more. */
const HIGH_WATER_BYTES = 1024 * 1024;

/** What a {@link LiveSocket} serves: the server's parts, the upgrade request's URL and the bearer token's user. */
export interface LiveSocketOptions {
  parts: ApiServerParts;
  url: URL;
  /** Set in bearer-token mode: the only user the connection may act for. */
  tokenUserId: string | undefined;
}

/**
 * One `/run_live` connection: the query read, the app and session checked, then `runner.runLive` with a queue
 * the client's messages go to, each event sent as a JSON text frame. The run ends when the client sends
 * `{"close": true}` (the socket then closes with 1000), closes the socket (the run is stopped), sends a message
 * that is not a LiveRequest, or the server shuts down (the run is stopped; the client gets an `{ error, code }`
 * frame and the close code). Every event the run produced before it stopped is stored, as in every run.
 */
export class LiveSocket {
  readonly #options: LiveSocketOptions;
  readonly #queue = new LiveRequestQueue();
  readonly #abort = new AbortController();
  #socket: WebSocket | undefined;
  /** Why the server ends the connection early (a refusal, a bad message, a shutdown), once known. */
  #refusal: LiveCloseError | undefined;

  constructor(options: LiveSocketOptions) {
    this.#options = options;
  }

  /** The handshake is done: checks the request and runs. Messages that come meanwhile wait in the queue. */
  open(socket: WebSocket): void {
    this.#socket = socket;
    // #serve settles every failure into a close; should closing itself fail, the socket is cut.
    void this.#serve().catch(() => socket.terminate());
  }

  /** A message from the client, queued for the run; one that is not a LiveRequest ends the connection. */
  receive(data: unknown): void {
    if (this.#abort.signal.aborted) return;
    if (typeof data !== "string") {
      this.#stop(new LiveCloseError(LIVE_CLOSE.UNSUPPORTED_DATA, "INVALID_LIVE_REQUEST", 'A binary message was sent: send each LiveRequest as JSON in a text message, audio and video as base64 in {"blob": {"mime_type", "data"}}.'));
      return;
    }
    let request;
    try {
      request = parseLiveRequestMessage(data);
    } catch (error) {
      this.#stop(liveCloseOf(error));
      return;
    }
    // After the client's own close, the run is ending: what else it sends has no one to hear it.
    if (this.#queue.isClosed) return;
    if (request.close) this.#queue.close();
    else this.#queue.send(request);
  }

  /** The socket closed (the client went, or the server closed it): the run is stopped. */
  closed(): void {
    this.#abort.abort(new Error("The live connection closed."));
    this.#queue.close();
  }

  /** Stops the run for `reason`; the socket closes with it once the run has ended. */
  #stop(reason: LiveCloseError): void {
    this.#refusal ??= reason;
    this.#abort.abort(reason);
    this.#queue.close();
  }

  async #serve(): Promise<void> {
    const { runs } = this.#options.parts;
    let untrack: (() => void) | undefined;
    try {
      const { runner, query } = await this.#prepare();
      if (!this.#abort.signal.aborted) {
        // A shutdown past its grace period stops the run; the client is told why (1001).
        untrack = runs.track((reason) => this.#stop(liveCloseOf(reason)));
        const events = runner.runLive({ userId: query.userId, sessionId: query.sessionId, liveRequestQueue: this.#queue, runConfig: query.runConfig, abortSignal: this.#abort.signal });
        for await (const event of events) await this.#send(JSON.stringify(event));
      }
    } catch (error) {
      this.#refusal ??= liveCloseOf(error);
    } finally {
      untrack?.();
    }
    this.#close();
  }

  /** The runner and query of an acceptable request; a {@link LiveCloseError} saying why not otherwise. */
  async #prepare() {
    const { parts, url, tokenUserId } = this.#options;
    if (parts.runs.draining) throw new LiveCloseError(LIVE_CLOSE.TRY_AGAIN_LATER, "SERVER_DRAINING", "This server is shutting down and takes no new live runs. Connect again: another replica (or this server once restarted) takes it.");
    const query = readLiveQuery(url);
    const runner = await parts.registry.runner(query.appName);
    const { appName, userId, sessionId } = query;
    // Another user's session is not found, as in the other routes: a token cannot probe for sessions.
    const session = tokenUserId === undefined || tokenUserId === userId ? await runner.sessionService.getSession({ appName, userId, sessionId }) : undefined;
    if (!session) {
      const message = `Session not found: app "${appName}" has no session "${sessionId}" of user "${userId}". Create it first (POST /apps/${appName}/users/${userId}/sessions/${sessionId}): /run_live runs in an existing session, as ADK's does.`;
      throw new LiveCloseError(LIVE_CLOSE.SESSION_NOT_FOUND, "SESSION_NOT_FOUND", message, "Session not found");
    }
    return { runner, query };
  }

  /** Sends a frame; waits for the client to read when too much is waiting already. Nothing once the socket closed. */
  #send(text: string): Promise<void> | undefined {
    const socket = this.#socket!;
    if (socket.readyState !== socket.OPEN) return undefined;
    if (socket.bufferedAmount < HIGH_WATER_BYTES) {
      socket.send(text);
      return undefined;
    }
    // Called once the frame is written, or with an error when the socket closes first: either way, go on.
    return new Promise((resolve) => socket.send(text, () => resolve()));
  }

  /** Closes the socket when it is still open: 1000 after a run that ended, else the refusal's frame and code. */
  #close(): void {
    const socket = this.#socket!;
    if (socket.readyState !== socket.OPEN) return;
    const refusal = this.#refusal;
    if (!refusal) {
      socket.close(LIVE_CLOSE.NORMAL, "The live run ended.");
      return;
    }
    socket.send(JSON.stringify({ error: refusal.message, code: refusal.code }));
    socket.close(refusal.closeCode, closeReason(refusal.reason ?? refusal.message));
  }
}
