import type { CodeExecutionResult, ExecutableCode, FunctionCall, FunctionResponse } from "../content/content.js";
import { isFinalResponse, type Event } from "./event.js";
import { hasKeys } from "./event-actions.js";

/** What one structured event is, as ADK 2 names the kinds {@link toStructuredEvents} makes. */
export enum EventType {
  /** The model's reasoning (a thought part). */
  THOUGHT = "thought",
  /** Text for the person. */
  CONTENT = "content",
  /** The model calls a tool. */
  TOOL_CALL = "tool_call",
  /** A tool's result. */
  TOOL_RESULT = "tool_result",
  /** The model asks for code to be run (Gemini's code execution). */
  CALL_CODE = "call_code",
  /** The result of that code. */
  CODE_RESULT = "code_result",
  /** The event is an error event (`errorCode`). */
  ERROR = "error",
  /** A status update (ADK 2 declares it; no event is read as one). */
  ACTIVITY = "activity",
  /** The run asks a person to confirm tool calls. */
  TOOL_CONFIRMATION = "tool_confirmation",
  /** The agent's final response of the turn. */
  FINISHED = "finished",
}

/** The model's reasoning. */
export interface ThoughtEvent {
  type: EventType.THOUGHT;
  content: string;
}
/** Text for the person. */
export interface ContentEvent {
  type: EventType.CONTENT;
  content: string;
}
/** A tool call the model made. */
export interface ToolCallEvent {
  type: EventType.TOOL_CALL;
  call: FunctionCall;
}
/** A tool's result. */
export interface ToolResultEvent {
  type: EventType.TOOL_RESULT;
  result: FunctionResponse;
}
/** Code the model asked to run. */
export interface CallCodeEvent {
  type: EventType.CALL_CODE;
  code: ExecutableCode;
}
/** The result of running it. */
export interface CodeResultEvent {
  type: EventType.CODE_RESULT;
  result: CodeExecutionResult;
}
/** An error event, its message (or code) as an `Error`. */
export interface ErrorEvent {
  type: EventType.ERROR;
  error: Error;
}
/** A status update. */
export interface ActivityEvent {
  type: EventType.ACTIVITY;
  kind: string;
  detail: Record<string, unknown>;
}
/** The confirmations the run asks a person for, by function-call id. */
export interface ToolConfirmationEvent {
  type: EventType.TOOL_CONFIRMATION;
  confirmations: Record<string, unknown>;
}
/** The turn's final response. */
export interface FinishedEvent {
  type: EventType.FINISHED;
  output?: unknown;
}

/** One of the kinds {@link toStructuredEvents} makes. */
export type StructuredEvent =
  | ThoughtEvent
  | ContentEvent
  | ToolCallEvent
  | ToolResultEvent
  | CallCodeEvent
  | CodeResultEvent
  | ErrorEvent
  | ActivityEvent
  | ToolConfirmationEvent
  | FinishedEvent;

/**
 * ADK 2's reading of an event as a list of what it holds, in part order, so an event loop can switch on `type`: an
 * error event is one `ERROR` and nothing else; then each part (a tool call, a tool result, code, its result, a
 * thought or text; empty parts are skipped); then `TOOL_CONFIRMATION` when the event asks for confirmations, and
 * `FINISHED` when it is the turn's final response.
 *
 * @example
 * ```ts
 * for await (const event of runner.runAsync(request)) {
 *   for (const item of toStructuredEvents(event)) if (item.type === EventType.CONTENT) process.stdout.write(item.content);
 * }
 * ```
 */
export function toStructuredEvents(event: Event): StructuredEvent[] {
  if (event.errorCode) return [{ type: EventType.ERROR, error: new Error(event.errorMessage || event.errorCode) }];
  const items: StructuredEvent[] = [];
  for (const part of event.content?.parts ?? []) {
    // Empty calls, results and records are skipped, as ADK skips them.
    if (part.functionCall && hasKeys(part.functionCall)) items.push({ type: EventType.TOOL_CALL, call: part.functionCall });
    else if (part.functionResponse && hasKeys(part.functionResponse)) items.push({ type: EventType.TOOL_RESULT, result: part.functionResponse });
    else if (part.executableCode && hasKeys(part.executableCode)) items.push({ type: EventType.CALL_CODE, code: part.executableCode });
    else if (part.codeExecutionResult && hasKeys(part.codeExecutionResult)) items.push({ type: EventType.CODE_RESULT, result: part.codeExecutionResult });
    else if (part.text) items.push({ type: part.thought ? EventType.THOUGHT : EventType.CONTENT, content: part.text });
  }
  const confirmations = event.actions?.requestedToolConfirmations;
  if (confirmations && hasKeys(confirmations)) items.push({ type: EventType.TOOL_CONFIRMATION, confirmations });
  if (isFinalResponse(event)) items.push({ type: EventType.FINISHED, output: undefined });
  return items;
}

/** Whether any part of the event is the model's reasoning (`thought`), as ADK's `hasThoughts`. */
export function hasThoughts(event: Pick<Event, "content">): boolean {
  return event.content?.parts?.some((part) => part.thought === true) ?? false;
}

/** The event without its thought parts (a copy; the event is left as it is), as ADK's `pruneThoughts`. */
export function pruneThoughts<T extends Pick<Event, "content">>(event: T): T {
  if (!event.content?.parts) return event;
  return { ...event, content: { ...event.content, parts: event.content.parts.filter((part) => part.thought !== true) } };
}
