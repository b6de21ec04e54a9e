import type { Event } from "../events/event.js";
import type { AuthConfig } from "../events/event-actions.js";
import { REQUEST_INPUT_FUNCTION_CALL_NAME } from "../tools/request-input-tool.js";
import { REQUEST_CONFIRMATION, REQUEST_CREDENTIAL } from "./client-requests.js";
import { answersQuestion } from "./input-answers.js";
import { pauseReasonOf } from "./paused-call.js";

/** What an event asks of a person: an answer (`adk_request_input`), a credential, or a confirmation. */
export type UserInputKind = "input" | "credential" | "confirmation";

/** One question an event puts to the person, in ADK's one shape for every kind, for a client to show and answer. */
export interface UserInputRequest {
  kind: UserInputKind;
  /** The id to answer: the asking call's id (the answer is a `functionResponse` with this id and the call's name). */
  interruptId: string;
  /** The asking call's name (`adk_request_input`, `adk_request_credential`, `adk_request_confirmation`). */
  functionCallName: string;
  author?: string;
  /** What to show the person: the question, or a confirmation's hint. */
  message?: string;
  payload?: unknown;
  /** The shape of the answer an input request expects, when the model gave one. */
  responseSchema?: unknown;
  /** For a confirmation: the tool waiting for it. */
  toolName?: string;
  /** For a credential: what is asked for. */
  authConfig?: AuthConfig;
}

/**
 * ADK's reading of what one event asks of a person (ADK 2's `getUserInputRequests`): its input, credential and
 * confirmation requests, in order. An event that asks nothing gives an empty list.
 */
export function getUserInputRequests(event: Event): UserInputRequest[] {
  const requests: UserInputRequest[] = [];
  for (const part of event.content?.parts ?? []) {
    const call = part.functionCall;
    if (!call?.name) continue;
    const args = argumentsOf(call.name, call.args);
    const interruptId = call.id ?? text(args.interruptId) ?? text(args.functionCallId);
    if (!interruptId) continue;
    const base = { interruptId, functionCallName: call.name, author: event.author };
    if (call.name === REQUEST_INPUT_FUNCTION_CALL_NAME) {
      requests.push({ ...base, kind: "input", message: text(args.message), payload: args.payload ?? undefined, responseSchema: args.response_schema ?? undefined });
    } else if (call.name === REQUEST_CREDENTIAL) {
      requests.push({ ...base, kind: "credential", message: text(args.message), authConfig: (args.authConfig as AuthConfig | undefined) ?? undefined });
    } else if (call.name === REQUEST_CONFIRMATION) {
      const confirmation = args.toolConfirmation as { hint?: unknown; payload?: unknown } | undefined;
      const original = args.originalFunctionCall as { name?: unknown } | undefined;
      // The hint is the message, so a client shows every kind alike.
      const hint = typeof confirmation?.hint === "string" && confirmation.hint.trim() ? confirmation.hint : undefined;
      requests.push({ ...base, kind: "confirmation", message: hint, payload: confirmation?.payload ?? undefined, toolName: text(original?.name) });
    }
  }
  return requests;
}

/** Whether an event asks anything of a person (ADK 2's `requiresUserInput`). */
export function requiresUserInput(event: Event): boolean {
  return getUserInputRequests(event).length > 0;
}

/** The ids an event waits on as questions to the person: its `longRunningToolIds` when it asks something, else none. */
export function questionIdsOf(event: Event): readonly string[] {
  return event.longRunningToolIds?.length && requiresUserInput(event) ? event.longRunningToolIds : [];
}

/**
 * What a session's events ask of a person and no event has answered yet, each once, in the order asked (ADK 2's
 * `getPendingUserInputRequests`): what a client shows when it opens a session that waits. The paused placeholder
 * toolsmith gives a waiting call (`{status: "paused"}`) is not an answer, nor is an answer that misses its
 * question's `response_schema`, which toolsmith refuses (ADK counts it).
 */
export function getPendingUserInputRequests(events: readonly Event[]): UserInputRequest[] {
  const answered = new Set<string>();
  const questions = new Map<string, Record<string, unknown> | undefined>();
  for (const event of events) {
    for (const part of event.content?.parts ?? []) {
      const call = part.functionCall;
      if (call?.id && call.name === REQUEST_INPUT_FUNCTION_CALL_NAME) questions.set(call.id, call.args);
      const response = part.functionResponse;
      if (!response?.id) continue;
      // An answer its question's schema refused leaves the question waiting (toolsmith refuses it so).
      if (questions.has(response.id) ? answersQuestion(response.id, questions.get(response.id), response) : !pauseReasonOf(response.response)) answered.add(response.id);
      else answered.delete(response.id);
    }
  }
  const pending: UserInputRequest[] = [];
  for (const event of events) {
    for (const request of getUserInputRequests(event)) {
      if (answered.has(request.interruptId)) continue;
      answered.add(request.interruptId);
      pending.push(request);
    }
  }
  return pending;
}

/** A call's arguments as an object; a credential request's keys in camelCase, as ADK reads them (`function_call_id` too). */
function argumentsOf(name: string, args: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!args) return {};
  return name === REQUEST_CREDENTIAL ? (camelCaseKeys(args) as Record<string, unknown>) : args;
}

function camelCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelCaseKeys);
  if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const converted: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) converted[key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase())] = camelCaseKeys(inner);
  return converted;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
