import type { FunctionResponse } from "../content/content.js";
import type { LlmRequest } from "../models/llm-request.js";
import type { LlmResponse } from "../models/llm-response.js";

/** The text of the request's last message when the user wrote it, or `undefined` (the last turn was a tool result, or it has no text). */
export function lastUserText(request: LlmRequest): string | undefined {
  const last = request.contents.at(-1);
  if (!last || last.role !== "user") return undefined;
  const text = (last.parts ?? []).map((part) => part.text ?? "").join("");
  return text || undefined;
}

/** The first function response of the request's last message, when the last turn was a tool result. */
export function lastFunctionResponse(request: LlmRequest): (FunctionResponse & { name: string; response: Record<string, unknown> }) | undefined {
  const found = request.contents.at(-1)?.parts?.find((part) => part.functionResponse)?.functionResponse;
  // Name and response are optional in genai's type; toolsmith always sets both, and a script reads them directly.
  return found ? { ...found, name: found.name ?? "", response: found.response ?? {} } : undefined;
}

/** Text as a model would stream it: chunks of a few words, for a {@link FunctionModel} or a `ScriptedModel` step. */
export function streamedText(text: string, options: { wordsPerChunk?: number } = {}): LlmResponse[] {
  const size = Math.max(1, options.wordsPerChunk ?? 3);
  const words = text.split(/(?<= )/);
  const chunks: LlmResponse[] = [];
  for (let index = 0; index < words.length; index += size) chunks.push({ content: { role: "model", parts: [{ text: words.slice(index, index + size).join("") }] } });
  return chunks;
}
