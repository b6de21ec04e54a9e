import type { UsageMetadata } from "./llm-response.js";

/** A provider's token counts, read from its own fields. */
export interface TokenCounts {
  /** All input tokens, cached ones included. */
  input: number;
  /** Input tokens read from a cache. */
  cachedInput?: number;
  /** All output tokens, reasoning included. */
  output: number;
  /** Output tokens spent on reasoning, when the provider counts them apart. */
  reasoning?: number;
}

/**
 * Token counts with one meaning across providers, in Gemini's names: the
 * answer's tokens (`candidatesTokenCount`) leave the reasoning out, as Gemini
 * counts them, so OpenAI's `completion_tokens` are split in two.
 */
export function usageMetadata(counts: TokenCounts): UsageMetadata {
  const reasoning = counts.reasoning ?? 0;
  return {
    promptTokenCount: counts.input,
    candidatesTokenCount: Math.max(0, counts.output - reasoning),
    totalTokenCount: counts.input + counts.output,
    ...(reasoning ? { thoughtsTokenCount: reasoning } : {}),
    ...(counts.cachedInput ? { cachedContentTokenCount: counts.cachedInput } : {}),
  };
}
