import type { Message, Part as A2APart, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from "@a2a-js/sdk";
import type { Content, Part } from "../content/content.js";
import { createEvent, type Event } from "../events/event.js";
import { isPlainObject } from "../tools/tool-result.js";
import { A2A_METADATA_KEYS } from "./metadata.js";
import { toGenAIPart, toGenAIParts } from "./parts.js";
import { failureText, isArtifactUpdate, isMessage, isStatusUpdate, isTask, isTerminalState, metadataOf, stateOf, type A2AStreamEventData } from "./task-events.js";

/** Where a remote agent's events go: its invocation, its name as their author, and its branch. */
export interface EventOrigin {
  invocationId: string;
  author: string;
  branch: string | undefined;
}

/**
 * An A2A message, task or task update as an event of the agent that called the peer, as ADK converts it; undefined
 * when it carries nothing to keep (a status update without a message, an artifact without parts).
 *
 * The peer controls its metadata, so only what cannot reach into the caller's session or control flow is taken
 * from it: the event's text fields and `escalate`. The author and branch are always the caller's own (a forged
 * `adk_branch` would put the peer's words in a sibling agent's history), and no other action (a transfer, a state
 * or artifact change) is rebuilt from the peer's data, as in ADK.
 */
export function toEvent(a2a: A2AStreamEventData, origin: EventOrigin): Event | undefined {
  if (isMessage(a2a)) return messageEvent(a2a, origin);
  if (isTask(a2a)) return taskEvent(a2a, origin);
  if (isArtifactUpdate(a2a)) return artifactEvent(a2a, origin);
  if (isStatusUpdate(a2a)) return a2a.final ? finalStatusEvent(a2a, origin) : statusEvent(a2a, origin);
  return undefined;
}

function messageEvent(message: Message, origin: EventOrigin): Event {
  const parts = toGenAIParts(message.parts);
  const fromUser = message.role === "user";
  return fromPeer(message, origin, {
    author: fromUser ? "user" : origin.author,
    content: parts.length === 0 ? undefined : content(fromUser ? "user" : "model", parts),
    turnComplete: true,
    partial: false,
  });
}

function artifactEvent(update: TaskArtifactUpdateEvent, origin: EventOrigin): Event | undefined {
  const a2aParts = update.artifact?.parts ?? [];
  if (a2aParts.length === 0) return undefined;
  const partial = Boolean(metadataOf(update)[A2A_METADATA_KEYS.partial]) || Boolean(update.append) || !update.lastChunk;
  return fromPeer(update, origin, { content: content("model", toGenAIParts(a2aParts)), longRunningToolIds: longRunningIds(a2aParts), partial });
}

function finalStatusEvent(update: TaskStatusUpdateEvent, origin: EventOrigin): Event | undefined {
  const a2aParts = update.status?.message?.parts ?? [];
  if (a2aParts.length === 0) return undefined;
  const failed = update.status.state === "failed";
  const parts = toGenAIParts(a2aParts);
  return fromPeer(update, origin, {
    ...(failed ? failure(update) : {}),
    content: failed ? undefined : content("model", parts),
    longRunningToolIds: longRunningIds(a2aParts),
    turnComplete: true,
  });
}

function statusEvent(update: TaskStatusUpdateEvent, origin: EventOrigin): Event | undefined {
  const parts = toGenAIParts(update.status?.message?.parts ?? []);
  if (parts.length === 0) return undefined;
  return fromPeer(update, origin, { content: content("model", parts), turnComplete: false, partial: true });
}

function taskEvent(task: Task, origin: EventOrigin): Event | undefined {
  const parts: Part[] = [];
  const longRunningToolIds: string[] = [];
  for (const artifact of task.artifacts ?? []) {
    parts.push(...toGenAIParts(artifact.parts));
    longRunningToolIds.push(...longRunningIds(artifact.parts ?? []));
  }
  if (task.status?.message) {
    parts.push(...toGenAIParts(task.status.message.parts));
    longRunningToolIds.push(...longRunningIds(task.status.message.parts ?? []));
  }
  const state = stateOf(task);
  const failed = state === "failed";
  if (parts.length === 0 && !failed) return undefined;
  return fromPeer(task, origin, {
    ...(failed ? failure(task) : {}),
    content: failed ? undefined : content("model", parts),
    longRunningToolIds,
    turnComplete: isTerminalState(state) || state === "input-required",
  });
}

/**
 * A failed task as an error: the peer's own code when it sent one (`adk_error_code`), else `A2A_TASK_FAILED`, so
 * the event is an error event every toolsmith reader recognises (ADK's has only the message).
 */
function failure(event: Task | TaskStatusUpdateEvent): Pick<Event, "errorCode" | "errorMessage"> {
  const code = metadataOf(event)[A2A_METADATA_KEYS.errorCode];
  return {
    errorCode: typeof code === "string" && code !== "" ? code : "A2A_TASK_FAILED",
    errorMessage: failureText(event) ?? "The remote agent's task failed without saying why.",
  };
}

/** The event's fields the peer may set through its metadata, then the caller's own (author, branch, invocation). */
function fromPeer(a2a: A2AStreamEventData, origin: EventOrigin, fields: Partial<Event>): Event {
  const metadata = metadataOf(a2a);
  const peer: Partial<Event> = {
    partial: optionalBoolean(metadata[A2A_METADATA_KEYS.partial]),
    errorCode: optionalString(metadata[A2A_METADATA_KEYS.errorCode]),
    errorMessage: optionalString(metadata[A2A_METADATA_KEYS.errorMessage]),
    citationMetadata: optionalRecord(metadata[A2A_METADATA_KEYS.citationMetadata]) as Event["citationMetadata"],
    groundingMetadata: optionalRecord(metadata[A2A_METADATA_KEYS.groundingMetadata]) as Event["groundingMetadata"],
    usageMetadata: optionalRecord(metadata[A2A_METADATA_KEYS.usageMetadata]) as Event["usageMetadata"],
    customMetadata: optionalRecord(metadata[A2A_METADATA_KEYS.customMetadata]),
  };
  const event = createEvent({ ...dropUndefined(peer), invocationId: origin.invocationId, author: origin.author, branch: origin.branch, ...dropUndefined(fields) });
  // The one action a peer may set: that it escalated (ends a loop the caller runs it in).
  if (metadata[A2A_METADATA_KEYS.escalate] === true) event.actions.escalate = true;
  return event;
}

/** The ids of the function calls among `parts` the peer marked long-running: the calls its task waits on. */
function longRunningIds(parts: readonly A2APart[]): string[] {
  const ids: string[] = [];
  for (const part of parts) {
    if (!isPlainObject(part) || !isPlainObject(part.metadata) || !part.metadata[A2A_METADATA_KEYS.isLongRunning]) continue;
    const id = toGenAIPart(part).functionCall?.id;
    if (id) ids.push(id);
  }
  return ids;
}

const content = (role: "user" | "model", parts: Part[]): Content => ({ role, parts });
const optionalString = (value: unknown) => (typeof value === "string" ? value : undefined);
const optionalBoolean = (value: unknown) => (typeof value === "boolean" ? value : undefined);
const optionalRecord = (value: unknown) => (isPlainObject(value) ? value : undefined);

function dropUndefined<T extends object>(fields: T): Partial<T> {
  const kept: Partial<T> = {};
  for (const key in fields) if (fields[key] !== undefined) kept[key] = fields[key];
  return kept;
}
