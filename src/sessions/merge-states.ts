import { APP_PREFIX, USER_PREFIX } from "./state-prefixes.js";

/**
 * One state from a session's three stores, as ADK's `mergeStates` builds it: a deep copy of the session's own
 * state, then each key of `appState` as `app:<key>` and each key of `userState` as `user:<key>` (these win over a
 * session key of the same name). The app's and the user's states are given without their prefixes, as ADK's
 * stores keep them; toolsmith's own stores keep the prefixes on the keys and need no merge of this kind.
 *
 * @example
 * ```ts
 * import { mergeStates } from "toolsmith";
 *
 * mergeStates({ theme: "dark" }, { name: "Ada" }, { step: 2 }); // { step: 2, "app:theme": "dark", "user:name": "Ada" }
 * ```
 */
export function mergeStates(appState: Record<string, unknown> = {}, userState: Record<string, unknown> = {}, sessionState: Record<string, unknown> = {}): Record<string, unknown> {
  // State values are JSON, which structuredClone copies as ADK's cloneDeep does.
  const merged = structuredClone(sessionState);
  for (const [key, value] of Object.entries(appState)) merged[APP_PREFIX + key] = value;
  for (const [key, value] of Object.entries(userState)) merged[USER_PREFIX + key] = value;
  return merged;
}
