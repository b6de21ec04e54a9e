/** Keys shared by every session of the app. */
export const APP_PREFIX = "app:";
/** Keys shared by every session of the same user. */
export const USER_PREFIX = "user:";
/** Keys that live for one invocation and are never stored. */
export const TEMP_PREFIX = "temp:";

/** A state delta split by where each key is stored; `temp:` keys are dropped. */
export interface ScopedStateDelta {
  app: Record<string, unknown>;
  user: Record<string, unknown>;
  session: Record<string, unknown>;
}

/** Splits a delta into app, user and session parts, keeping the prefixes on the keys. */
export function splitStateDelta(delta: Record<string, unknown>): ScopedStateDelta {
  const scoped: ScopedStateDelta = { app: {}, user: {}, session: {} };
  for (const [key, value] of Object.entries(delta)) {
    if (key.startsWith(TEMP_PREFIX)) continue;
    if (key.startsWith(APP_PREFIX)) scoped.app[key] = value;
    else if (key.startsWith(USER_PREFIX)) scoped.user[key] = value;
    else scoped.session[key] = value;
  }
  return scoped;
}

/** Whether a delta has any `temp:` key. */
export function hasTempKeys(delta: Record<string, unknown>): boolean {
  for (const key in delta) if (key.startsWith(TEMP_PREFIX)) return true;
  return false;
}

/** The delta without its `temp:` keys, copied into `kept` (a new object unless given). */
export function withoutTempKeys(delta: Record<string, unknown>, kept: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [key, value] of Object.entries(delta)) if (!key.startsWith(TEMP_PREFIX)) kept[key] = value;
  return kept;
}
