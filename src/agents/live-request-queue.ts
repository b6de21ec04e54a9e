import type { Blob, Content } from "../content/content.js";
import { ToolsmithError } from "../errors/toolsmith-error.js";

/** One thing sent to a live run's model (ADK's `LiveRequest`): set one field. */
export interface LiveRequest {
  /** A whole turn (text, or function responses), answered when sent. */
  content?: Content;
  /** A piece of audio or a video frame, sent as it is captured. */
  blob?: Blob;
  /** The user starts speaking (when the client detects speech itself). */
  activityStart?: Record<string, never>;
  /** The user stops speaking. */
  activityEnd?: Record<string, never>;
  /** Ends the live run: the connection closes and `runLive` finishes. */
  close?: boolean;
}

/**
 * What a live run's model is sent, in order (ADK's `LiveRequestQueue`): the program sends the user's text, audio
 * and video here while `runner.runLive` streams the model's answers; {@link close} ends the run. A read that
 * waits is released when its signal aborts, so a dropped connection's reader cannot take a request meant for the
 * next connection.
 *
 * @example
 * ```ts
 * const queue = new LiveRequestQueue();
 * queue.sendContent({ role: "user", parts: [{ text: "What is the weather in Paris?" }] });
 * for await (const event of runner.runLive({ userId, sessionId, liveRequestQueue: queue })) {
 *   if (event.turnComplete) queue.close();
 * }
 * ```
 */
export class LiveRequestQueue {
  readonly #queue: LiveRequest[] = [];
  readonly #readers: Array<(request: LiveRequest) => void> = [];
  #closed = false;

  /** Whether {@link close} was called. */
  get isClosed(): boolean {
    return this.#closed;
  }

  /** Queues `request`, or hands it to a waiting read. Refused (`LIVE_QUEUE_CLOSED`) once the queue is closed. */
  send(request: LiveRequest): void {
    if (this.#closed) throw new ToolsmithError("LIVE_QUEUE_CLOSED", "This LiveRequestQueue is closed, so nothing more can be sent to the live run. Make a new queue for a new run.");
    const reader = this.#readers.shift();
    if (reader) reader(request);
    else this.#queue.push(request);
  }

  /**
   * The next request, waiting for one when none is queued; `{ close: true }` once the queue is closed and read
   * out. When `abortSignal` aborts while waiting, the read rejects and gives up its place.
   */
  get(abortSignal?: AbortSignal): Promise<LiveRequest> {
    const queued = this.#queue.shift();
    if (queued) return Promise.resolve(queued);
    if (this.#closed) return Promise.resolve({ close: true });
    if (abortSignal?.aborted) return Promise.reject(aborted());
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const index = this.#readers.indexOf(reader);
        if (index !== -1) this.#readers.splice(index, 1);
        reject(aborted());
      };
      const reader = (request: LiveRequest) => {
        abortSignal?.removeEventListener("abort", onAbort);
        resolve(request);
      };
      this.#readers.push(reader);
      abortSignal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Ends the run: what is queued is still read, then every read gets `{ close: true }`. Closing twice does nothing. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    while (this.#readers.length > 0) this.#readers.shift()!(this.#queue.shift() ?? { close: true });
  }

  /** Sends a whole turn. */
  sendContent(content: Content): void {
    this.send({ content });
  }

  /** Sends a piece of audio or a video frame. */
  sendRealtime(blob: Blob): void {
    this.send({ blob });
  }

  /** Marks where the user starts speaking. */
  sendActivityStart(): void {
    this.send({ activityStart: {} });
  }

  /** Marks where the user stops speaking. */
  sendActivityEnd(): void {
    this.send({ activityEnd: {} });
  }

  /** The requests in order, the last being `{ close: true }`. */
  async *[Symbol.asyncIterator](): AsyncGenerator<LiveRequest, void, undefined> {
    for (;;) {
      const request = await this.get();
      yield request;
      if (request.close) return;
    }
  }
}

function aborted(): ToolsmithError {
  return new ToolsmithError("LIVE_QUEUE_READ_ABORTED", "LiveRequestQueue.get() was aborted: the live connection it read for ended.");
}
