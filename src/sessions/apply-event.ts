import type { Event } from "../events/event.js";
import { compactEventActions } from "../events/event-actions.js";
import type { Session } from "./session.js";
import { hasTempKeys, withoutTempKeys } from "./state-prefixes.js";

/**
 * The event as it is stored: `temp:` keys removed from its delta and empty
 * action records shared. The caller's event object is left as it is.
 */
export function toStoredEvent(event: Event): Event {
  const stateDelta = hasTempKeys(event.actions.stateDelta) ? withoutTempKeys(event.actions.stateDelta) : event.actions.stateDelta;
  // The fields every event has in one literal, sized to them (an empty object grown key by key carries a
  // separate, padded property store: about 40 bytes more per stored event); the others follow only when set,
  // since `delete` would turn the object into a slower, larger dictionary.
  const stored: Record<string, unknown> = {
    id: event.id,
    invocationId: event.invocationId,
    author: event.author,
    timestamp: event.timestamp,
    actions: compactEventActions(event.actions, stateDelta),
    content: event.content,
  };
  // Deleting the property added last only steps the object back to its previous shape.
  if (stored.content === undefined) delete stored.content;
  for (const key in event) {
    if (writtenFirst(key)) continue;
    const value = event[key as keyof Event];
    if (value !== undefined) stored[key] = value;
  }
  return stored as unknown as Event;
}

/**
 * Whether `toStoredEvent` wrote this field before copying the rest. Compared name by name: the names `for … in`
 * gives are interned, so each comparison is one pointer check; asking the growing stored object (`key in stored`)
 * cost as much as the rest of the copy, and a `Set` of the names a hash lookup per field.
 */
function writtenFirst(key: string): boolean {
  return key === "id" || key === "invocationId" || key === "author" || key === "timestamp" || key === "actions" || key === "content";
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
