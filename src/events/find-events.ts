import { getFunctionCalls, getFunctionResponses } from "../content/content.js";
import type { Event } from "./event.js";

/**
 * The latest event before `endIndex` (default: all) with a function call of this id, as ADK's
 * `findEventByFunctionCallId`; undefined when none has.
 */
export function findEventByFunctionCallId(events: readonly Event[], functionCallId: string, endIndex = events.length): Event | undefined {
  for (let index = endIndex - 1; index >= 0; index--) {
    if (getFunctionCalls(events[index]).some((call) => call.id === functionCallId)) return events[index];
  }
  return undefined;
}

/**
 * When the last event answers a function call (its first function response has an id), the event that made the
 * call, as ADK's `findMatchingFunctionCall`; undefined otherwise.
 */
export function findMatchingFunctionCall(events: readonly Event[]): Event | undefined {
  const last = events[events.length - 1];
  const id = last ? getFunctionResponses(last)[0]?.id : undefined;
  return id ? findEventByFunctionCallId(events, id, events.length - 1) : undefined;
}

/** {@link findMatchingFunctionCall}, with `null` for none, as ADK's runner names it. */
export function findEventByLastFunctionResponseId(events: readonly Event[]): Event | null {
  return findMatchingFunctionCall(events) ?? null;
}
