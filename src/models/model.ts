import type { LlmRequest } from "./llm-request.js";
import type { LlmResponse } from "./llm-response.js";
import type { BaseLlmConnection } from "./live-connection.js";

/** Options for one model call. */
export interface GenerateContentOptions {
  /** Yield partial responses as they arrive, then the complete one. */
  stream: boolean;
  /** Aborts the call, including the HTTP request underneath. */
  abortSignal?: AbortSignal;
}

/**
 * A language model. Adapters for Gemini, OpenAI and Anthropic implement it, and
 * so does `ScriptedModel` from `toolsmith/testing`.
 *
 * A call yields zero or more responses with `partial: true` (streaming only)
 * followed by exactly one complete response.
 */
export interface Model {
  /** The model's name, such as `gemini-2.5-flash`. */
  readonly name: string;
  /**
   * Who serves it, as OpenTelemetry's `gen_ai.provider.name` names providers
   * (`gcp.gemini`, `openai`, `anthropic`, …); spans and metrics of its calls
   * carry it. Optional: a model without one is traced as `unknown`.
   */
  readonly provider?: string;
  generateContent(request: LlmRequest, options: GenerateContentOptions): AsyncIterable<LlmResponse>;
  /**
   * Opens a live (bidirectional) connection for the request's system instruction, tools and
   * `liveConnectConfig`, for `Runner.runLive`. Optional: a model without it cannot run live, and a live run
   * ends with an error event saying so.
   */
  connect?(request: LlmRequest): Promise<BaseLlmConnection>;
}
