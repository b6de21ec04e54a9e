import { setMaxListeners } from "node:events";

/**
 * A run's (or a tool call's) cancellation: an `AbortSignal` for tools and SDKs, and a cheap way for the loop
 * itself to hear of the abort. In Node, adding a listener to an `AbortSignal` costs about 10 µs and
 * `AbortSignal.any` about 45 µs (measured on this project's machine, Node 20), more than the rest of a model turn;
 * a run used to pay both on every turn. Here the loop registers plain callbacks, called when {@link abort} runs,
 * and only a caller's own signal gets a real listener.
 */
export class RunCancellation {
  readonly #controller = new AbortController();
  #callbacks: Array<(reason: unknown) => void> | undefined;
  #unfollow: (() => void) | undefined;
  #manyListeners = false;

  /** A cancellation that aborts when `parent` does (when given); it can also be aborted on its own. */
  constructor(parent?: AbortSignal) {
    (this.#controller.signal as LinkedSignal)[CANCELLATION] = this;
    if (parent) this.#follow(parent);
  }

  /** The signal tools and SDKs watch. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#controller.signal.aborted;
  }

  /**
   * Lets any number of listeners on the signal go without Node's listener-leak warning (past its default of ten):
   * a run's parallel calls each may listen (each spawned process, each fetch), which is no leak. Called when a
   * batch of parallel calls starts, not for every run: it costs about as much as making the signal.
   */
  allowManyListeners(): void {
    if (this.#manyListeners) return;
    this.#manyListeners = true;
    setMaxListeners(0, this.#controller.signal);
  }

  /** Aborts the signal and calls every registered callback once, with `reason`. Later calls do nothing. */
  abort(reason: unknown): void {
    if (this.#controller.signal.aborted) return;
    this.#controller.abort(reason);
    this.#unfollow?.();
    const callbacks = this.#callbacks;
    this.#callbacks = undefined;
    if (callbacks) for (const callback of callbacks) callback(reason);
  }

  /** Calls `callback` once when this is aborted (at once when it already is). Returns what unregisters it. */
  onAbort(callback: (reason: unknown) => void): () => void {
    if (this.#controller.signal.aborted) {
      callback(this.#controller.signal.reason);
      return () => undefined;
    }
    (this.#callbacks ??= []).push(callback);
    return () => {
      const index = this.#callbacks?.indexOf(callback) ?? -1;
      if (index >= 0) this.#callbacks!.splice(index, 1);
    };
  }

  /** Stops following the parent signal (the run ended), so a long-lived caller's signal does not keep this alive. */
  release(): void {
    this.#unfollow?.();
    this.#unfollow = undefined;
  }

  #follow(parent: AbortSignal): void {
    this.#unfollow = onSignalAbort(parent, (reason) => this.abort(reason));
  }
}

/**
 * Where a signal made by a {@link RunCancellation} names it: a symbol-keyed property on the signal (not shown by
 * `inspect`, JSON or `Object.keys`). A `WeakMap` from signal to cancellation did the same at twice the cost: each
 * entry is an ephemeron the collector must trace, about 1 µs per run on this project's machine.
 */
const CANCELLATION = Symbol("toolsmith.runCancellation");
type LinkedSignal = AbortSignal & { [CANCELLATION]?: RunCancellation };

/** The {@link RunCancellation} behind a signal, when it came from one. */
export function cancellationOf(signal: AbortSignal): RunCancellation | undefined {
  return (signal as LinkedSignal)[CANCELLATION];
}

/**
 * Calls `callback` once when `signal` aborts (at once when it already has): through its {@link RunCancellation}
 * when it has one, else a listener. Returns what unregisters it, when it was registered.
 */
export function onSignalAbort(signal: AbortSignal, callback: (reason: unknown) => void): (() => void) | undefined {
  const cancellation = cancellationOf(signal);
  if (cancellation) return cancellation.onAbort(callback);
  if (signal.aborted) {
    callback(signal.reason);
    return undefined;
  }
  const listener = () => callback(signal.reason);
  signal.addEventListener("abort", listener, { once: true });
  return () => signal.removeEventListener("abort", listener);
}
