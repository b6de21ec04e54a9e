import type { Message, Part as A2APart, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from "@a2a-js/sdk";
import { newId } from "../events/new-id.js";

/** What an A2A stream carries: a message, a task, or an update of a task's status or artifact. */
export type A2AStreamEventData = Message | Task | TaskStatusUpdateEvent | TaskArtifactUpdateEvent;

export const isMessage = (event: unknown): event is Message => (event as { kind?: unknown } | undefined)?.kind === "message";
export const isTask = (event: unknown): event is Task => (event as { kind?: unknown } | undefined)?.kind === "task";
export const isStatusUpdate = (event: unknown): event is TaskStatusUpdateEvent => (event as { kind?: unknown } | undefined)?.kind === "status-update";
export const isArtifactUpdate = (event: unknown): event is TaskArtifactUpdateEvent => (event as { kind?: unknown } | undefined)?.kind === "artifact-update";

/** The metadata of an A2A event: an artifact update's is its artifact's, as ADK reads it. */
export function metadataOf(event: A2AStreamEventData): Record<string, unknown> {
  if (isArtifactUpdate(event)) return event.artifact?.metadata ?? {};
  return (event as { metadata?: Record<string, unknown> }).metadata ?? {};
}

/** The state of a task or of a status update; undefined for anything else. */
export function stateOf(event: A2AStreamEventData): string | undefined {
  return isTask(event) || isStatusUpdate(event) ? event.status?.state : undefined;
}

const TERMINAL_STATES = new Set(["completed", "failed", "canceled", "rejected"]);
export const isTerminalState = (state: string | undefined) => state !== undefined && TERMINAL_STATES.has(state);

/** A failed task's message: the text of its status message's first part, as ADK reads it. */
export function failureText(event: Task | TaskStatusUpdateEvent): string | undefined {
  const first = event.status?.message?.parts?.[0];
  return first?.kind === "text" ? first.text : undefined;
}

interface TaskAddress {
  taskId: string;
  contextId: string;
  metadata?: Record<string, unknown>;
}

const now = () => new Date().toISOString();

/** A new task, submitted, with the user's message as its history. */
export function submittedTask({ taskId, contextId, message, metadata }: TaskAddress & { message: Message }): Task {
  return { kind: "task", id: taskId, contextId, history: [message], status: { state: "submitted", timestamp: now() }, metadata };
}

/** The task is being worked on. */
export function workingUpdate({ taskId, contextId, metadata }: TaskAddress): TaskStatusUpdateEvent {
  return { kind: "status-update", taskId, contextId, final: false, status: { state: "working", timestamp: now() }, metadata };
}

/** The task is done. */
export function completedUpdate({ taskId, contextId, metadata }: TaskAddress): TaskStatusUpdateEvent {
  return { kind: "status-update", taskId, contextId, final: true, status: { state: "completed", timestamp: now() }, metadata };
}

/** The task failed, with `message` as its status message's text. */
export function failedUpdate({ taskId, contextId, metadata, message }: TaskAddress & { message: string }): TaskStatusUpdateEvent {
  return statusWithMessage("failed", { taskId, contextId, metadata }, [{ kind: "text", text: message }]);
}

/** The task waits for the client: `parts` are the calls it waits on (and, for a refused answer, why). */
export function inputRequiredUpdate({ taskId, contextId, metadata, parts }: TaskAddress & { parts: A2APart[] }): TaskStatusUpdateEvent {
  return statusWithMessage("input-required", { taskId, contextId, metadata }, parts);
}

/** The task was cancelled, with `message` saying what that stopped. */
export function canceledUpdate({ taskId, contextId, metadata, message }: TaskAddress & { message: string }): TaskStatusUpdateEvent {
  return statusWithMessage("canceled", { taskId, contextId, metadata }, [{ kind: "text", text: message }]);
}

function statusWithMessage(state: "failed" | "input-required" | "canceled", { taskId, contextId, metadata }: TaskAddress, parts: A2APart[]): TaskStatusUpdateEvent {
  const message: Message = { kind: "message", messageId: newId(), role: "agent", taskId, contextId, parts };
  return { kind: "status-update", taskId, contextId, final: true, status: { state, message, timestamp: now() }, metadata };
}

/** An artifact update carrying an event's parts. */
export function artifactUpdate({ taskId, contextId, artifactId, parts, metadata, append, lastChunk }: TaskAddress & { artifactId: string; parts: A2APart[]; append?: boolean; lastChunk?: boolean }): TaskArtifactUpdateEvent {
  return { kind: "artifact-update", taskId, contextId, append, lastChunk, artifact: { artifactId, parts }, metadata };
}
