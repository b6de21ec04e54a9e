import type { LlmResponse } from "../models/llm-response.js";
import { newId } from "./new-id.js";
import { createEventActions, type EventActions } from "./event-actions.js";
import { getFunctionCalls, getFunctionResponses } from "../content/content.js";

/**
 * One entry of a session's history: a user message, a model response, the
 * responses of a batch of tool calls, or an error. Events are plain objects and
 * serialise to the same JSON as `@google/adk`'s; treat them as immutable.
 */
export interface Event extends LlmResponse {
  id: string;
  /** Every event of one `runner.runAsync` call shares this id. */
  invocationId: string;
  /** `user`, or the name of the agent that produced the event. */
  author: string;
  actions: EventActions;
  /** Ids of the function calls in this event that are long-running and still pending. */
  longRunningToolIds?: string[];
  /** Dotted path of agents (`root.child`) that isolates parallel branches' histories. */
  branch?: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
}

/** The fields of an event that may be given when creating one; the rest get defaults. */
export type EventInit = Omit<Partial<Event>, "actions"> & { author: string; invocationId: string; actions?: Partial<EventActions> };

/** Creates an event with a fresh id and the current time. */
export function createEvent(init: EventInit): Event {
  return {
    ...init,
    id: init.id ?? newId(),
    timestamp: init.timestamp ?? Date.now(),
    actions: createEventActions(init.actions),
  };
}

/**
 * Whether an event is the last one a user needs to see for a turn: a complete
 * model answer with no tool calls, a tool response the model is not asked to
 * summarise, a pause for a long-running call, or an error.
 */
export function isFinalResponse(event: Event): boolean {
  // A compaction record (`isCompacted`, see compacted-event.ts) is bookkeeping, not an answer.
  if ((event as { isCompacted?: boolean }).isCompacted === true) return false;
  if (event.actions.skipSummarization || (event.longRunningToolIds?.length ?? 0) > 0) return true;
  if (event.errorCode) return true;
  return (
    getFunctionCalls(event.content).length === 0 &&
    getFunctionResponses(event.content).length === 0 &&
    !event.partial
  );
}
