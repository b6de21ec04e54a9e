import { hasKeys } from "../events/event-actions.js";
import { assertJsonValue, assertStateKey } from "./json-value.js";

/** Reading the session state, without changing it. */
export interface ReadonlyState {
  get<T = unknown>(key: string, defaultValue?: T): T | undefined;
  has(key: string): boolean;
  toRecord(): Record<string, unknown>;
}

/**
 * The session state as a tool or callback sees it: reads come from the pending
 * changes first, then from the session; writes go to the pending changes only,
 * which the runner records as the event's `stateDelta` and the session service
 * applies when it stores the event.
 *
 * Key prefixes choose the scope: `app:` is shared by every session of the app,
 * `user:` by every session of the user, `temp:` lasts for the current
 * invocation and is never stored; other keys belong to the session.
 */
export class State implements ReadonlyState {
  readonly #value: Readonly<Record<string, unknown>>;
  readonly #delta: Record<string, unknown>;
  /**
   * The session's state as stored, as ADK's `State.value` (and what `console.log(state)` shows). Unlike
   * ADK, `set` does not write here: the session's state changes only when the event carrying `delta` is
   * stored, so a run that fails leaves it as it was.
   */
  readonly value: Readonly<Record<string, unknown>>;
  /** The changes written through this view, not yet stored, as ADK's `State.delta`. Write with `set`. */
  readonly delta: Readonly<Record<string, unknown>>;

  /** Both records default to new empty ones, as in ADK (`new State()`). */
  constructor(value: Readonly<Record<string, unknown>> = {}, delta: Record<string, unknown> = {}) {
    this.#value = value;
    this.#delta = delta;
    this.value = value;
    this.delta = delta;
  }

  /** The value of a key, or `defaultValue` when it is not set. */
  get<T = unknown>(key: string, defaultValue?: T): T | undefined {
    // Own keys only: `toString` or `constructor` is no key of the state, whatever objects inherit.
    if (Object.hasOwn(this.#delta, key)) return this.#delta[key] as T;
    if (Object.hasOwn(this.#value, key)) return this.#value[key] as T;
    return defaultValue;
  }

  /**
   * Sets a key. The value must be JSON (checked now, so a bad value fails the
   * tool that wrote it rather than the store later).
   */
  set(key: string, value: unknown): void {
    assertStateKey(key);
    assertJsonValue(key, value);
    this.#delta[key] = value;
  }

  /** Sets several keys at once, as ADK's `State.update`; each value is checked as `set` checks it. */
  update(delta: Readonly<Record<string, unknown>>): void {
    for (const [key, value] of Object.entries(delta)) this.set(key, value);
  }

  /** Whether the key is set, in the session or in the pending changes. */
  has(key: string): boolean {
    return Object.hasOwn(this.#delta, key) || Object.hasOwn(this.#value, key);
  }

  /** Whether anything was written through this view. */
  hasDelta(): boolean {
    return hasKeys(this.#delta);
  }

  /** A plain copy of the state with the pending changes applied. */
  toRecord(): Record<string, unknown> {
    return { ...this.#value, ...this.#delta };
  }
}
