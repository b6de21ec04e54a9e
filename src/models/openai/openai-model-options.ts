import type OpenAI from "openai";
import type { RetryOptions } from "../retry-policy.js";

/** Options shared by {@link OpenAIChatModel} and {@link OpenAIResponsesModel}. */
export interface OpenAIModelOptions {
  /** The model name as the server knows it: `gpt-4.1`, `qwen3`, … */
  model: string;
  /** Default: the `OPENAI_API_KEY` environment variable (not needed when `baseURL` points at a local server). */
  apiKey?: string;
  /** An OpenAI-compatible server: Ollama (`http://127.0.0.1:11434/v1`), vLLM, llama.cpp, LM Studio. Default: `OPENAI_BASE_URL` or OpenAI. */
  baseURL?: string;
  /**
   * Send tools with `strict: true` where the schema allows it. Default true for
   * OpenAI and false when `baseURL` is set, since local servers often ignore or refuse it.
   */
  strict?: boolean;
  retry?: RetryOptions;
  /** The name used in error messages. Default `OpenAI`, or `OpenAI-compatible server` with a `baseURL`. */
  providerName?: string;
  /** A client you made yourself; `apiKey` and `baseURL` are then ignored. Its own retries are left as you set them. */
  client?: OpenAI;
}
