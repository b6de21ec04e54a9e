/**
 * A stand-in model for the examples served by `toolsmith web examples`, so
 * they work with no model credentials: each call asks `decide` for the answer
 * and plays it through a one-step ScriptedModel (an array of chunks streams).
 * Replace it with a model name such as "gemini-2.5-flash" to use a real model.
 */
import type { GenerateContentOptions, LlmRequest, LlmResponse, Model } from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";

export function ruleModel(name: string, decide: (request: LlmRequest) => LlmResponse | LlmResponse[]): Model {
  return {
    name,
    generateContent: (request: LlmRequest, options: GenerateContentOptions) => new ScriptedModel([decide(request)], { name }).generateContent(request, options),
  };
}

/** The text of the last user message, or undefined when the last turn was a tool result. */
export function lastUserText(request: LlmRequest): string | undefined {
  const last = request.contents.at(-1);
  if (!last || last.role !== "user") return undefined;
  const text = (last.parts ?? []).map((part) => part.text ?? "").join("");
  return text || undefined;
}

/** The response of the last tool call, when the last turn was one. */
export function lastToolResult(request: LlmRequest): { name: string; response: Record<string, unknown> } | undefined {
  const parts = request.contents.at(-1)?.parts ?? [];
  return parts.find((part) => part.functionResponse)?.functionResponse;
}

/** Text split into a few streamed chunks. */
export function streamedText(text: string): LlmResponse[] {
  const words = text.split(/(?<= )/);
  const chunks: LlmResponse[] = [];
  for (let index = 0; index < words.length; index += 3) chunks.push({ content: { role: "model", parts: [{ text: words.slice(index, index + 3).join("") }] } });
  return chunks;
}
