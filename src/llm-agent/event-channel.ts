import type { Event } from "../events/event.js";

/**
 * Carries events that tools produce while they run (an agent tool's inner
 * events, progress) out to the runner. `emit` resolves once the event was
 * passed on, and so stored, which keeps an inner agent's history in order.
 */
export class EventChannel {
  readonly #queue: Array<{ event: Event; delivered: () => void }> = [];
  #wake?: () => void;
  #closed = false;

  /** Sends an event; resolves when it was delivered (at once if the channel has closed). */
  emit(event: Event): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((delivered) => {
      this.#queue.push({ event, delivered });
      this.#wake?.();
    });
  }

  /**
   * Resolves `true` as soon as an event waits to be taken, `false` when `done` settles first with none emitted.
   * A reader that starts {@link drain} only on `true` waits for work that emits nothing without a generator.
   */
  emitsBefore(done: Promise<unknown>): Promise<boolean> {
    if (this.#queue.length > 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      let settled = false;
      const settle = () => {
        if (settled) return;
        settled = true;
        // Only its own wake-up is taken back: a drain started meanwhile keeps its own.
        if (this.#wake === settle) this.#wake = undefined;
        resolve(this.#queue.length > 0);
      };
      this.#wake = settle;
      done.then(settle, settle);
    });
  }

  /** Yields emitted events until `done` settles and the queue is empty, then closes. */
  async *drain(done: Promise<unknown>): AsyncGenerator<Event, void, undefined> {
    let finished = false;
    const finish = () => {
      finished = true;
      this.#wake?.();
    };
    done.then(finish, finish);
    try {
      for (;;) {
        while (this.#queue.length > 0) {
          const { event, delivered } = this.#queue.shift()!;
          try {
            yield event;
          } finally {
            // Also when the reader stops at this event: the emitter must not wait for ever.
            delivered();
          }
        }
        if (finished) return;
        await new Promise<void>((resolve) => (this.#wake = resolve));
        this.#wake = undefined;
      }
    } finally {
      this.#closed = true;
      for (const { delivered } of this.#queue.splice(0)) delivered();
    }
  }
}

/**
 * Runs `work`, yielding the events it emits as they come (each passed on before its `emit` resolves), and returns
 * what it returns. The generator reads the channel only once something was emitted.
 */
export async function* emittedBy<T>(work: (emit: (event: Event) => Promise<void>) => Promise<T>): AsyncGenerator<Event, T, undefined> {
  const channel = new EventChannel();
  const running = work((event) => channel.emit(event));
  if (await channel.emitsBefore(running)) yield* channel.drain(running);
  return await running;
}
