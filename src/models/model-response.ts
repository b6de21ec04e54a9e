import type { FunctionCall, Part } from "../content/content.js";
import type { LlmResponse, UsageMetadata } from "./llm-response.js";

/** The complete response an adapter yields last: thoughts, text, then function calls. */
export function modelResponse(options: { thought?: string; text: string; functionCalls: FunctionCall[]; finishReason?: string; usage?: UsageMetadata }): LlmResponse {
  const parts: Part[] = [];
  if (options.thought) parts.push({ text: options.thought, thought: true });
  if (options.text) parts.push({ text: options.text });
  for (const call of options.functionCalls) parts.push({ functionCall: call });
  return {
    content: { role: "model", parts },
    turnComplete: true,
    ...(options.finishReason ? { finishReason: options.finishReason } : {}),
    ...(options.usage ? { usageMetadata: options.usage } : {}),
  };
}

/** One streamed piece of text, yielded before the complete response. */
export function partialText(text: string, thought = false): LlmResponse {
  return { content: { role: "model", parts: [thought ? { text, thought: true } : { text }] }, partial: true };
}
