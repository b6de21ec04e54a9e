import type { Event } from "../events/event.js";
import type { Session } from "./session.js";
import { hasTempKeys, withoutTempKeys } from "./state-prefixes.js";

/** The event as it is stored: the same object unless it carried `temp:` keys, which are removed. */
export function toStoredEvent(event: Event): Event {
  if (!hasTempKeys(event.actions.stateDelta)) return event;
  return { ...event, actions: { ...event.actions, stateDelta: withoutTempKeys(event.actions.stateDelta) } };
}

/**
 * Applies an appended event to the caller's live copy of the session: the whole
 * delta (including `temp:` keys, which last for the invocation), the event and
 * the update marker.
 */
export function applyEventToLiveSession(session: Session, event: Event, lastUpdateTime: number): void {
  Object.assign(session.state, event.actions.stateDelta);
  session.events.push(event);
  session.lastUpdateTime = lastUpdateTime;
}

/** The next update marker: the event's time, kept strictly increasing so two writes never share one. */
export function nextUpdateTime(previous: number, eventTimestamp: number): number {
  return eventTimestamp > previous ? eventTimestamp : previous + 1;
}

/** The events a `getSession` config asks for. */
export function selectEvents(events: readonly Event[], config?: { numRecentEvents?: number; afterTimestamp?: number }): Event[] {
  let selected = config?.afterTimestamp === undefined ? events.slice() : events.filter((event) => event.timestamp >= config.afterTimestamp!);
  if (config?.numRecentEvents !== undefined) selected = config.numRecentEvents <= 0 ? [] : selected.slice(-config.numRecentEvents);
  return selected;
}
