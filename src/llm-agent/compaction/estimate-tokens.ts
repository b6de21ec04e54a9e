import type { Content } from "../../content/content.js";
import type { Event } from "../../events/event.js";
import type { LlmRequest } from "../../models/llm-request.js";

/** Characters per token in the estimate, as ADK's `TokenBasedContextCompactor` counts them. */
export const CHARS_PER_TOKEN = 4;

/**
 * A cheap estimate of the tokens a content costs, for when the model has not
 * reported a count: its texts' characters, and its function calls' and
 * responses' JSON, over four (ADK's estimate). Images and files count nothing.
 */
export function estimateContentTokens(content: Content | undefined): number {
  let characters = 0;
  for (const part of content?.parts ?? []) {
    if (part.text) characters += part.text.length;
    if (part.functionCall) characters += JSON.stringify(part.functionCall).length;
    if (part.functionResponse) characters += JSON.stringify(part.functionResponse).length;
  }
  return Math.ceil(characters / CHARS_PER_TOKEN);
}

/** Estimates by event, kept while the event lives: events are immutable, and every model call asks again. */
const estimates = new WeakMap<Event, number>();

/** {@link estimateContentTokens} of an event's content, computed once per event. */
export function estimateEventTokens(event: Event): number {
  let estimate = estimates.get(event);
  if (estimate === undefined) {
    estimate = estimateContentTokens(event.content);
    estimates.set(event, estimate);
  }
  return estimate;
}

/** The estimate of a whole request: its contents, system instruction and function declarations. */
export function estimateRequestTokens(request: LlmRequest): number {
  let tokens = 0;
  for (const content of request.contents) tokens += estimateContentTokens(content);
  tokens += Math.ceil(request.systemInstruction.length / CHARS_PER_TOKEN);
  if (request.functionDeclarations.length) tokens += Math.ceil(JSON.stringify(request.functionDeclarations).length / CHARS_PER_TOKEN);
  return tokens;
}
