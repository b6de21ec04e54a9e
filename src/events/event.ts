import type { LlmResponse } from "../models/llm-response.js";
import { newEventId } from "./new-id.js";
import { createEventActions, hasKeys, type EventActions } from "./event-actions.js";
import { endsWithCodeExecutionResult, getFunctionCalls, getFunctionResponses } from "../content/content.js";

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
  /** In a graph workflow: the output of the node that produced the event (ADK's `Event.output`). */
  output?: unknown;
  /** In a graph workflow: the route(s) the node took, matched against its edges' routes (ADK's `Event.route`). */
  route?: RouteValue | RouteValue[];
  /** In a graph workflow: the node the event came from (ADK's `Event.nodeInfo`). */
  nodeInfo?: NodeInfo;
  /**
   * In a graph workflow: the conversation scope of the node with `isolationScope` that produced the event (ADK's
   * `Event.isolationScope`). Agents outside that scope do not see the event in their history.
   */
  isolationScope?: string;
}

/** A route a workflow node takes, matched against the routes of its outgoing edges (ADK's `RouteValue`). */
export type RouteValue = boolean | number | string;

/** Where an event of a graph workflow came from (ADK's `NodeInfo`). */
export interface NodeInfo {
  /** The dotted path of the node that produced the event: `workflow.node`. */
  path?: string;
  /** The node paths this event's output is the output of: the node's own, then any ancestor that took it as its own. */
  outputFor?: string[];
  /** Set when an agent node's answer is also its output. */
  messageAsOutput?: boolean;
}

/** The fields of an event that may be given when creating one; the rest get defaults. */
export type EventInit = Omit<Partial<Event>, "actions"> & { actions?: Partial<EventActions> };

/**
 * An event made from a response and the actions record it takes over (not copied: the caller made it for this
 * event and hands it on). The loop's own path: one object built, where {@link createEvent} copies the actions.
 */
export function eventFromResponse(response: LlmResponse, init: { id: string; invocationId: string; author: string; branch: string | undefined; actions: EventActions; longRunningToolIds?: string[] }): Event {
  return buildEvent(response, init.id, init.invocationId, init.author, init.branch, init.actions, init.longRunningToolIds, Date.now());
}

/**
 * Creates an event with a fresh id and the current time. As ADK's, everything is optional: `invocationId` and
 * `author` are `""` when left out.
 */
export function createEvent(init: EventInit = {}): Event {
  return buildEvent(init, init.id || newEventId(), init.invocationId ?? "", init.author ?? "", init.branch, createEventActions(init.actions), init.longRunningToolIds, init.timestamp ?? Date.now());
}

/**
 * One literal with every field, whatever the response held: all events share one shape, where spreading
 * responses of varying shapes and adding the event's fields made V8 build a new shape each time (the loop's
 * costliest line). Fields a model adapter added beyond the contract are copied after.
 */
function buildEvent(
  response: LlmResponse,
  id: string,
  invocationId: string,
  author: string,
  branch: string | undefined,
  actions: EventActions,
  longRunningToolIds: string[] | undefined,
  timestamp: number,
): Event {
  const event: Event = {
    content: response.content,
    groundingMetadata: response.groundingMetadata,
    citationMetadata: response.citationMetadata,
    partial: response.partial,
    turnComplete: response.turnComplete,
    finishReason: response.finishReason,
    usageMetadata: response.usageMetadata,
    errorCode: response.errorCode,
    errorMessage: response.errorMessage,
    customMetadata: response.customMetadata,
    id,
    invocationId,
    author,
    branch,
    actions,
    longRunningToolIds,
    timestamp,
  };
  for (const key in response) if (!(key in event)) (event as unknown as Record<string, unknown>)[key] = (response as Record<string, unknown>)[key];
  return event;
}

/** Whether a value has what storing an event needs (an object with `actions`); `createEvent` makes one that has. */
export function isEventShaped(value: unknown): value is Event {
  return typeof value === "object" && value !== null && typeof (value as Event).actions === "object" && (value as Event).actions !== null;
}

/** How a value that is not {@link isEventShaped} reads in a message: `nothing`, `null`, `an object without actions`, `a string`. */
export function describeNonEvent(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  return typeof value === "object" ? "an object without actions" : `a ${typeof value}`;
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
  // As ADK: a response that asks the person for a credential ends the turn.
  const auth = event.actions.requestedAuthConfigs;
  if (auth && hasKeys(auth)) return true;
  if (event.errorCode) return true;
  return (
    getFunctionCalls(event.content).length === 0 &&
    getFunctionResponses(event.content).length === 0 &&
    !event.partial &&
    !endsWithCodeExecutionResult(event)
  );
}
