/**
 * toolsmith/models/openai: OpenAI through its official SDK (`openai`, an
 * optional peer dependency), with the Responses API or Chat Completions, and
 * any OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio) by base URL.
 *
 * @module toolsmith/models/openai
 */
export { OpenAIChatModel } from "./openai-chat-model.js";
export { OpenAIResponsesModel } from "./openai-responses-model.js";
export type { OpenAIModelOptions } from "./openai-model-options.js";
export type { RetryOptions } from "../retry-policy.js";
export { ModelProviderError } from "../model-provider-error.js";
