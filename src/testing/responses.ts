import type { Content, FunctionCall } from "../content/content.js";
import type { LlmResponse } from "../models/llm-response.js";

/** A model response that says `text`. */
export function textResponse(text: string): LlmResponse {
  return { content: { role: "model", parts: [{ text }] } };
}

/** A model response that calls the given tools, in order (ids are assigned by the runner when absent). */
export function functionCallsResponse(...calls: FunctionCall[]): LlmResponse {
  return { content: { role: "model", parts: calls.map((functionCall) => ({ functionCall })) } };
}

/** A user message with one text part. */
export function userMessage(text: string): Content {
  return { role: "user", parts: [{ text }] };
}

/** Every item of an async iterable, in order. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}
