/**
 * ADK's `AsyncQueue`: a queue one producer pushes into and one consumer reads with `for await`, so values made
 * in callbacks can be read as a stream. Values are kept until read; {@link close} ends the stream once they are,
 * and {@link fail} makes the read after them throw. Both are final: a later `push` is ignored, and the first
 * `fail` wins over any later `close` or `fail`.
 *
 * @example
 * ```ts
 * import { AsyncQueue } from "toolsmith";
 *
 * const queue = new AsyncQueue<string>();
 * setTimeout(() => { queue.push("a"); queue.push("b"); queue.close(); }, 10);
 * for await (const value of queue) console.log(value); // "a", then "b"
 * ```
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  readonly #queue: T[] = [];
  readonly #waiting: Array<{ resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void }> = [];
  #closed = false;
  #failure: { error: unknown } | undefined;

  /** Whether the queue was closed or failed. */
  get isClosed(): boolean {
    return this.#closed;
  }

  /** How many values wait to be read. */
  get size(): number {
    return this.#queue.length;
  }

  /** Hands `value` to a waiting reader, or keeps it for the next read; does nothing once the queue is closed or failed. */
  push(value: T): void {
    if (this.#closed) return;
    const reader = this.#waiting.shift();
    if (reader) reader.resolve({ value, done: false });
    else this.#queue.push(value);
  }

  /**
   * Ends the stream with `error`: the values already pushed are read first, then the next read rejects with it.
   * The first failure wins, and the queue is closed.
   */
  fail(error: unknown): void {
    if (this.#failure) return;
    this.#failure = { error };
    this.#closed = true;
    while (this.#waiting.length > 0) this.#waiting.shift()!.reject(error);
  }

  /**
   * The older name of {@link fail}, kept as ADK keeps it.
   *
   * @deprecated Use {@link fail}.
   */
  error(error: unknown): void {
    this.fail(error);
  }

  /** Ends the stream: a waiting reader, and every read after the kept values, gets `done`. Calling it again does nothing. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    while (this.#waiting.length > 0) this.#waiting.shift()!.resolve({ value: undefined, done: true });
  }

  /** The reader: kept values first, then the failure or the end, else a wait for the next push. */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.#queue.length > 0) return Promise.resolve({ value: this.#queue.shift()!, done: false });
        if (this.#failure) return Promise.reject(this.#failure.error);
        if (this.#closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
      },
    };
  }
}
