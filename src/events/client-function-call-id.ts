import { getFunctionCalls, type ContentSource, type FunctionCall } from "../content/content.js";
import { newId } from "./new-id.js";

/** The prefix of the ids toolsmith gives function calls (ADK's `AF_FUNCTION_CALL_ID_PREFIX`); Gemini is not sent them. */
export const AF_FUNCTION_CALL_ID_PREFIX = "adk-";

/**
 * A new id for a function call the model gave none: `adk-` and a random UUID, as ADK makes them. The LLM loop
 * names a model's calls with it, and so does the event that asks the client for a confirmation or a credential.
 *
 * @example
 * ```ts
 * import { generateClientFunctionCallId } from "toolsmith";
 *
 * generateClientFunctionCallId(); // "adk-1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b"
 * ```
 */
export function generateClientFunctionCallId(): string {
  return newId(AF_FUNCTION_CALL_ID_PREFIX);
}

/**
 * Gives each function call of a model's event that has no id (or an empty one) a new one from
 * {@link generateClientFunctionCallId}, in place, as ADK's `populateClientFunctionCallId` does; calls with an id
 * keep it. The LLM loop runs it on every model response before the calls run.
 */
export function populateClientFunctionCallId(modelResponseEvent: ContentSource): void {
  giveCallsIds(getFunctionCalls(modelResponseEvent));
}

/** {@link populateClientFunctionCallId} on calls already read from an event (the LLM loop reads them once). */
export function giveCallsIds(calls: readonly FunctionCall[]): void {
  for (const call of calls) {
    if (!call.id) call.id = generateClientFunctionCallId();
  }
}
