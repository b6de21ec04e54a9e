/**
 * toolsmith/models/anthropic: Claude through Anthropic's official SDK
 * (`@anthropic-ai/sdk`, an optional peer dependency).
 *
 * @module toolsmith/models/anthropic
 */
export { AnthropicModel, type AnthropicModelOptions } from "./anthropic-model.js";
export type { RetryOptions } from "../retry-policy.js";
export { ModelProviderError } from "../model-provider-error.js";
