import type { EventActions } from "../events/event-actions.js";
import type { Event } from "../events/event.js";

/**
 * The metadata keys ADK writes on A2A messages, parts and task events (`adk_…`), read and written with the same
 * names so a toolsmith agent and an ADK agent understand each other's metadata.
 */
export const A2A_METADATA_KEYS = {
  appName: "adk_app_name",
  userId: "adk_user_id",
  sessionId: "adk_session_id",
  invocationId: "adk_invocation_id",
  author: "adk_author",
  branch: "adk_branch",
  dataPartType: "adk_type",
  partial: "adk_partial",
  escalate: "adk_escalate",
  transferToAgent: "adk_transfer_to_agent",
  isLongRunning: "adk_is_long_running",
  thought: "adk_thought",
  errorCode: "adk_error_code",
  errorMessage: "adk_error_message",
  citationMetadata: "adk_citation_metadata",
  groundingMetadata: "adk_grounding_metadata",
  usageMetadata: "adk_usage_metadata",
  customMetadata: "adk_custom_metadata",
  videoMetadata: "adk_video_metadata",
} as const;

/** The keys a remote agent's events carry in their `customMetadata`: the A2A task and context they belong to. */
export const EVENT_A2A_KEYS = {
  taskId: "a2a:task_id",
  contextId: "a2a:context_id",
} as const;

/** Where a session is, as A2A metadata. */
export interface SessionAddress {
  appName: string;
  userId: string;
  sessionId: string;
}

/** A session's address as ADK's metadata keys. */
export function sessionMetadata({ appName, userId, sessionId }: SessionAddress): Record<string, unknown> {
  return { [A2A_METADATA_KEYS.appName]: appName, [A2A_METADATA_KEYS.userId]: userId, [A2A_METADATA_KEYS.sessionId]: sessionId };
}

/** The two actions ADK sends a peer: whether the agent escalated and where it transferred. */
export function actionsMetadata(actions: Partial<EventActions> | undefined): Record<string, unknown> {
  return { [A2A_METADATA_KEYS.escalate]: actions?.escalate, [A2A_METADATA_KEYS.transferToAgent]: actions?.transferToAgent };
}

/** What ADK puts on the A2A event made from an event: its actions, the session, and the event's own fields. */
export function eventMetadata(event: Event, session: SessionAddress): Record<string, unknown> {
  return {
    ...actionsMetadata(event.actions),
    ...sessionMetadata(session),
    [A2A_METADATA_KEYS.invocationId]: event.invocationId,
    [A2A_METADATA_KEYS.author]: event.author,
    [A2A_METADATA_KEYS.branch]: event.branch,
    [A2A_METADATA_KEYS.errorCode]: event.errorCode,
    [A2A_METADATA_KEYS.errorMessage]: event.errorMessage,
    [A2A_METADATA_KEYS.citationMetadata]: event.citationMetadata,
    [A2A_METADATA_KEYS.groundingMetadata]: event.groundingMetadata,
    [A2A_METADATA_KEYS.usageMetadata]: event.usageMetadata,
    [A2A_METADATA_KEYS.customMetadata]: event.customMetadata,
    [A2A_METADATA_KEYS.partial]: event.partial,
    [A2A_METADATA_KEYS.isLongRunning]: (event.longRunningToolIds ?? []).length > 0,
  };
}
