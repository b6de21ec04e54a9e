import type { Event } from "../events/event.js";
import { withoutTempKeys } from "./state-prefixes.js";

/**
 * Takes the `temp:` keys out of an event's state delta, as ADK's `trimTempDeltaState` does before a session
 * service keeps the event: the delta is replaced by a copy without them, and the same event is returned. An event
 * without actions or a delta is returned as it is. (toolsmith's session services leave `temp:` keys out themselves.)
 *
 * @example
 * ```ts
 * import { createEvent, trimTempDeltaState } from "toolsmith";
 *
 * const event = trimTempDeltaState(createEvent({ actions: { stateDelta: { "temp:draft": "…", topic: "tides" } } }));
 * event.actions.stateDelta; // { topic: "tides" }
 * ```
 */
export function trimTempDeltaState(event: Event): Event {
  const delta = (event.actions as Event["actions"] | undefined)?.stateDelta;
  if (!delta) return event;
  event.actions.stateDelta = trimTempState(delta);
  return event;
}

/**
 * A copy of a state without its `temp:` keys, as ADK's `trimTempState` makes it: an object without a prototype,
 * so a `__proto__` key (which `JSON.parse` makes an own key) is copied as a key and cannot re-parent the copy.
 */
export function trimTempState(state: Record<string, unknown>): Record<string, unknown> {
  return withoutTempKeys(state, Object.create(null) as Record<string, unknown>);
}
