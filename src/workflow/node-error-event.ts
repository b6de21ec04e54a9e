import { createEvent, type Event, type EventInit } from "../events/event.js";
import { errorNames } from "./retry.js";

/**
 * ADK's node error event: the event a graph workflow sends when a node fails, marked `isNodeError`, with the
 * failure's type and the attempts the node had (more than 1 after `retryConfig` retries).
 */
export interface NodeErrorEvent extends Event {
  readonly isNodeError: true;
  /** The failure's class name (or its assigned name, for a plain `Error` given one): `RangeError`, `NodeTimeoutError`. */
  errorType: string;
  /** How many attempts the node had when it failed. */
  attemptCount: number;
}

/** What {@link createNodeErrorEvent} takes: an event's fields, the error, and the attempts (default 1). */
export type CreateNodeErrorEventParams = EventInit & { error: unknown; attemptCount?: number };

/** Whether an event is a node's error event (ADK's `isNodeErrorEvent`). */
export function isNodeErrorEvent(event: Event): event is NodeErrorEvent {
  return (event as Partial<NodeErrorEvent>).isNodeError === true;
}

/**
 * A node error event, as ADK's `createNodeErrorEvent` makes it: the event's fields given, `isNodeError`, the
 * error's type, and `errorCode` and `errorMessage` when not given, from the error (its `code`, else
 * `UNKNOWN_ERROR`; its message). toolsmith's workflows make theirs with it (their code and message are
 * toolsmith's: `NODE_FAILED` or the failure's own code, and a message naming the node's path).
 */
export function createNodeErrorEvent(params: CreateNodeErrorEventParams): NodeErrorEvent {
  const { error, attemptCount, ...init } = params;
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return {
    ...createEvent(init),
    isNodeError: true,
    errorType: errorTypeOf(error),
    errorCode: init.errorCode ?? (typeof code === "string" || typeof code === "number" ? String(code) : "UNKNOWN_ERROR"),
    errorMessage: init.errorMessage ?? (error instanceof Error ? error.message : String(error)),
    attemptCount: attemptCount ?? 1,
  };
}

/** The attempts a node had when it failed with `error` (an object), recorded where its retries stop. */
const attemptsAtFailure = new WeakMap<object, number>();

/** Records that a node failed with `error` after `attempts` attempts, for the error event the workflow sends. */
export function recordAttemptsAtFailure(error: unknown, attempts: number): void {
  if (typeof error === "object" && error !== null) attemptsAtFailure.set(error, attempts);
}

/** The attempts recorded for `error`, if any. */
export function attemptsAtFailureOf(error: unknown): number | undefined {
  return typeof error === "object" && error !== null ? attemptsAtFailure.get(error) : undefined;
}

/** ADK's name for an error's type: its class's name, or the name it was given when its class is plain `Error`. */
function errorTypeOf(error: unknown): string {
  const [className, assigned] = errorNames(error);
  return className === "Error" && assigned ? assigned : className!;
}
