/**
 * A stand-in model for the examples served by `toolsmith web examples`, so
 * they work with no model credentials: each call asks `decide` for the answer
 * and plays it through a one-step ScriptedModel (an array of chunks streams).
 * Replace it with a model name such as "gemini-2.5-flash" to use a real model.
 */
import type { GenerateContentOptions, LlmRequest, LlmResponse, Model } from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";

export function ruleModel(name: string, decide: (request: LlmRequest) => LlmResponse | LlmResponse[], options: { chunkDelayMs?: number } = {}): Model {
  const delay = options.chunkDelayMs ?? 25;
  return {
    name,
    async *generateContent(request: LlmRequest, generateOptions: GenerateContentOptions) {
      for await (const response of new ScriptedModel([decide(request)], { name }).generateContent(request, generateOptions)) {
        // Streamed chunks come at a reading pace, as a real model's would, so a client shows them one by one.
        if (response.partial) await new Promise((resolve) => setTimeout(resolve, delay));
        yield response;
      }
    },
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
