import { setMaxListeners } from "node:events";

/**
 * A run's (or a tool call's) cancellation: an `AbortSignal` for tools and SDKs, and a cheap way for the loop
 * itself to hear of the abort. In Node, adding a listener to an `AbortSignal` costs about 10 µs and
 * `AbortSignal.any` about 45 µs (measured on this project's machine, Node 20), more than the rest of a model turn;
 * a run used to pay both on every turn. Here code that holds the cancellation (the loop finds the run's in its
 * invocation context) registers plain callbacks, called when {@link abort} runs; a signal whose cancellation is
 * not at hand (a caller's, a parent run's handed to a nested runner) is followed through {@link onSignalAbort}, one
 * real listener for all its followers. The signal carries no link back to this: Node gives every `AbortSignal` a
 * hidden class of its own, so a property added to it made V8 build one more per run (about 0.5 µs).
 *
 * The signal itself is made when first read: making one costs Node 20 about 2.4 µs (it builds an `EventTarget` and
 * swaps its prototype), a third of a whole model turn, and most runs never hand it to anything that reads it (the
 * scripted model, tools that ignore it). Read after the abort, it is made already aborted, with the same reason.
 */
export class RunCancellation {
  #controller: AbortController | undefined;
  // Kept here, not read from the signal: Node gives every AbortSignal a hidden class of its own, so each read of
  // `signal.aborted` in a new run misses V8's inline caches (about 0.15 µs a read on this project's machine).
  #aborted = false;
  #reason: unknown;
  #callbacks: Array<(reason: unknown) => void> | undefined;
  #unfollow: (() => void) | undefined;
  #manyListeners = false;

  /** A cancellation that aborts when `parent` does (when given); it can also be aborted on its own. */
  constructor(parent?: AbortSignal | RunCancellation) {
    if (parent) this.#follow(parent);
  }

  /** The signal tools and SDKs watch: made at the first read, aborted already when this was. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#manyListeners) setMaxListeners(0, this.#controller.signal);
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Whether the signal was made (read at least once). */
  get hasSignal(): boolean {
    return this.#controller !== undefined;
  }

  /** Whether this was aborted (its signal's `aborted`, read without touching the signal). */
  get aborted(): boolean {
    return this.#aborted;
  }

  /**
   * Lets any number of listeners on the signal go without Node's listener-leak warning (past its default of ten):
   * a run's parallel calls each may listen (each spawned process, each fetch), which is no leak. Called when a
   * batch of parallel calls starts, not for every run: it costs about as much as making the signal.
   */
  allowManyListeners(): void {
    if (this.#manyListeners) return;
    this.#manyListeners = true;
    if (this.#controller) setMaxListeners(0, this.#controller.signal);
  }

  /**
   * Aborts the signal and calls every registered callback once, with `reason` (without one, the `AbortError`
   * `DOMException` an `AbortController` gives). Later calls do nothing.
   */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    if (reason === undefined) reason = new DOMException("This operation was aborted", "AbortError");
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#unfollow?.();
    const callbacks = this.#callbacks;
    this.#callbacks = undefined;
    if (callbacks) for (const callback of callbacks) callback(reason);
  }

  /** Calls `callback` once when this is aborted (at once when it already is). Returns what unregisters it. */
  onAbort(callback: (reason: unknown) => void): () => void {
    if (this.#aborted) {
      callback(this.#reason);
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

  #follow(parent: AbortSignal | RunCancellation): void {
    const abort = (reason: unknown) => this.abort(reason);
    // Told apart by kind, not class: a user's module loaded as CommonJS (tsx, a folder without "type": "module")
    // imports a second copy of toolsmith, whose RunCancellation is another class; AbortSignal is the runtime's own.
    this.#unfollow = parent instanceof AbortSignal ? onSignalAbort(parent, abort) : parent.onAbort(abort);
  }
}

/**
 * Calls `callback` once when `signal` aborts (at once when it already has): for signals whose
 * {@link RunCancellation} is not at hand (a caller's, a parent run's handed to nested runners). The followers of
 * one signal share one listener on it, so any number of them (nested runs fanned out by one tool) stays under
 * Node's listener-leak warning; the listener goes when the last follower does. Returns what unregisters it, when
 * it was registered.
 */
export function onSignalAbort(signal: AbortSignal, callback: (reason: unknown) => void): (() => void) | undefined {
  if (signal.aborted) {
    callback(signal.reason);
    return undefined;
  }
  let following = followers.get(signal);
  if (!following) {
    const callbacks = new Set<(reason: unknown) => void>();
    const listener = () => {
      followers.delete(signal);
      for (const follower of callbacks) follower(signal.reason);
      callbacks.clear();
    };
    following = { callbacks, listener };
    followers.set(signal, following);
    signal.addEventListener("abort", listener, { once: true });
  }
  // A function of its own per registration, so the same callback registered twice is called twice, as listeners were.
  const once = (reason: unknown) => callback(reason);
  const { callbacks, listener } = following;
  callbacks.add(once);
  return () => {
    // Still registered means the entry is still this set's: an abort empties the set, as does the last follower leaving.
    if (!callbacks.delete(once) || callbacks.size > 0) return;
    followers.delete(signal);
    signal.removeEventListener("abort", listener);
  };
}

/** The callbacks following each signal through its one listener; an entry goes with its last follower or its signal. */
const followers = new WeakMap<AbortSignal, { callbacks: Set<(reason: unknown) => void>; listener: () => void }>();

/** Where an object with a lazy `abortSignal` keeps the cancellation behind it. */
const signalSource = Symbol("toolsmith.signalSource");

/** The getter every lazy `abortSignal` shares: one function keeps every holder of a kind on one hidden class. */
function lazyAbortSignal(this: { [signalSource]: RunCancellation }): AbortSignal {
  return this[signalSource].signal;
}

const lazySignalProperty: PropertyDescriptor = { get: lazyAbortSignal, enumerable: true, configurable: true };

/**
 * A model call's options whose enumerable `abortSignal` is `cancellation`'s signal, made only when someone reads
 * it. A copy by spread reads it, so the copy holds the signal itself (and the link to the cancellation, which
 * {@link signalAborted} then asks, with the same answer). Made as one literal and one property definition: a
 * second definition, for the link, doubled the cost of making them (about 0.45 against 0.2 µs).
 */
export function callOptionsWithLazySignal(stream: boolean, cancellation: RunCancellation): { stream: boolean; readonly abortSignal: AbortSignal } {
  const options = { stream, [signalSource]: cancellation };
  Object.defineProperty(options, "abortSignal", lazySignalProperty);
  return options as unknown as { stream: boolean; readonly abortSignal: AbortSignal };
}

/** The cancellation behind `holder`'s `abortSignal` when {@link callOptionsWithLazySignal} gave it, else `undefined`. */
function lazySignalSource(holder: object): RunCancellation | undefined {
  return (holder as { [signalSource]?: RunCancellation })[signalSource];
}

/**
 * Whether `holder.abortSignal` has fired, asked without making a lazy signal: the scripted model and the loop ask
 * this of every call, where reading the signal would make it.
 */
export function signalAborted(holder: { readonly abortSignal?: AbortSignal }): boolean {
  const source = lazySignalSource(holder);
  return source ? source.aborted : holder.abortSignal?.aborted === true;
}
