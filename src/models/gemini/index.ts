/**
 * toolsmith/models/gemini: Gemini through Google's official SDK
 * (`@google/genai`, an optional peer dependency).
 *
 * @module toolsmith/models/gemini
 */
export { GeminiModel, type GeminiModelOptions } from "./gemini-model.js";
export { Gemini, type GeminiParams } from "./gemini.js";
export type { RetryOptions } from "../retry-policy.js";
export { ModelProviderError } from "../model-provider-error.js";
