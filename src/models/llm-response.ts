import type { Content } from "../content/content.js";

/** Token counts reported by the model, named as Gemini names them. */
export interface UsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
}

/** One response from a model, or one chunk of a streamed response when `partial` is set. */
export interface LlmResponse {
  content?: Content;
  /** A streamed chunk; the complete response follows it. Partial events are never stored. */
  partial?: boolean;
  turnComplete?: boolean;
  finishReason?: string;
  usageMetadata?: UsageMetadata;
  /** Set when the call failed; `errorMessage` says why. */
  errorCode?: string;
  errorMessage?: string;
  customMetadata?: Record<string, unknown>;
}
