import { SharedStateConflictError } from "../errors/toolsmith-error.js";
import { hasKeys } from "../events/event-actions.js";
import type { Session } from "./session.js";
import type { ScopedStateDelta } from "./state-prefixes.js";

/** The app's and the user's shared state as stored now, read inside the append's transaction. */
export interface StoredSharedState {
  app: Readonly<Record<string, unknown>>;
  user: Readonly<Record<string, unknown>>;
}

/**
 * The rule every session service applies to `app:` and `user:` keys: an append may write a shared key only
 * if its stored value is still the one the session holds in `session.state` (the value read with the session,
 * or written by this session's own earlier append). A session reads shared state once and computes new values
 * from it (read, add one, write), so a write over a value that changed since would silently drop the other
 * session's update; it is refused instead, with nothing stored. Values are compared, not versions, so a key
 * another session rewrote with the same value is no conflict (what this session computed from is still true),
 * and a key nobody changed can always be written. A key absent when read conflicts once another session sets it.
 *
 * Throws {@link SharedStateConflictError} naming the changed keys. Call it inside the append's transaction,
 * after the session's own stale check and before anything is written, with the shared rows locked.
 */
export function assertNoSharedStateConflict(session: Session, delta: ScopedStateDelta, stored: StoredSharedState): void {
  const keys = [...changedKeys(session.state, delta.app, stored.app), ...changedKeys(session.state, delta.user, stored.user)];
  if (keys.length > 0) throw new SharedStateConflictError({ sessionId: session.id, keys: keys.sort() });
}

/** Whether a delta writes any `app:` or `user:` key, so the append must read (and lock) the shared rows. */
export function writesSharedState(delta: ScopedStateDelta): boolean {
  return hasKeys(delta.app) || hasKeys(delta.user);
}

function changedKeys(asRead: Readonly<Record<string, unknown>>, written: Readonly<Record<string, unknown>>, stored: Readonly<Record<string, unknown>>): string[] {
  const changed: string[] = [];
  for (const key in written) {
    const readHad = Object.hasOwn(asRead, key);
    const storeHas = Object.hasOwn(stored, key);
    if (readHad !== storeHas || (readHad && !jsonEqual(asRead[key], stored[key]))) changed.push(key);
  }
  return changed;
}

/**
 * Equality of two JSON values: objects key by key in any order (PostgreSQL's jsonb reorders keys), arrays
 * item by item. Values here were checked as JSON before they were stored.
 */
function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false;
    return left.every((item, index) => jsonEqual(item, right[index]));
  }
  if (Array.isArray(right)) return false;
  const leftKeys = Object.keys(left);
  if (leftKeys.length !== Object.keys(right).length) return false;
  return leftKeys.every((key) => Object.hasOwn(right, key) && jsonEqual((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]));
}
