import { ConfigurationError } from "../errors/toolsmith-error.js";
import { API_KEY_VARIABLES } from "./api-key.js";
import { vertexAiConfigured } from "./gemini/gemini-backend.js";
import { loadAdapter } from "./load-adapter.js";
import type { Model } from "./model.js";
import { trimTrailing } from "../platform/trim-runs.js";

/** Ollama's OpenAI-compatible endpoint when `OLLAMA_HOST` is not set. */
export const DEFAULT_OLLAMA_URL = "http://127.0.0.1:11434/v1";

/** Another way than an API key for the environment to set a model family up. */
export interface EnvironmentAlternative {
  isConfigured(environment: NodeJS.ProcessEnv): boolean;
  /** What to set, as a warning tells a person. */
  describe: string;
}

/** A family of model names toolsmith knows without registration. */
export interface BuiltinModelProvider {
  pattern: RegExp;
  /** Environment variables of which one must be set for a model of this family; empty when it needs none. */
  requiredEnvironment: readonly string[];
  /** Another way the environment may set the family up, without any of `requiredEnvironment` (Gemini on Vertex AI). */
  alternative?: EnvironmentAlternative;
  create(name: string): Promise<Model>;
}

/**
 * The built-in families. Each adapter module (and so its SDK) is imported only
 * when a name of its family is used, so the root entry loads no SDK.
 */
export const BUILTIN_MODEL_PROVIDERS: readonly BuiltinModelProvider[] = [
  {
    pattern: /^gemini-/,
    requiredEnvironment: API_KEY_VARIABLES.Gemini,
    // Vertex AI authenticates with Google Cloud's credentials, not a key.
    alternative: { isConfigured: vertexAiConfigured, describe: "or, for Vertex AI, GOOGLE_GENAI_USE_ENTERPRISE=true with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION" },
    create: async (name) => {
      const { GeminiModel } = await loadAdapter({ load: () => import("./gemini/gemini-model.js"), packageName: "@google/genai", modelName: name });
      return new GeminiModel({ model: name });
    },
  },
  {
    pattern: /^openai\//,
    requiredEnvironment: API_KEY_VARIABLES.OpenAI,
    create: async (name) => {
      const { OpenAIResponsesModel } = await loadAdapter({ load: () => import("./openai/openai-responses-model.js"), packageName: "openai", modelName: name });
      return new OpenAIResponsesModel({ model: withoutPrefix(name) });
    },
  },
  {
    pattern: /^anthropic\//,
    requiredEnvironment: API_KEY_VARIABLES.Anthropic,
    create: async (name) => {
      const { AnthropicModel } = await loadAdapter({ load: () => import("./anthropic/anthropic-model.js"), packageName: "@anthropic-ai/sdk", modelName: name });
      return new AnthropicModel({ model: withoutPrefix(name) });
    },
  },
  {
    pattern: /^ollama\//,
    // OLLAMA_HOST is optional: without it the model talks to a local Ollama on its default port.
    requiredEnvironment: [],
    create: async (name) => {
      const { OpenAIChatModel } = await loadAdapter({ load: () => import("./openai/openai-chat-model.js"), packageName: "openai", modelName: name });
      return new OpenAIChatModel({ model: withoutPrefix(name), baseURL: ollamaBaseUrl(process.env.OLLAMA_HOST), providerName: "Ollama" });
    },
  },
  {
    pattern: /^openai-compatible\//,
    requiredEnvironment: ["OPENAI_BASE_URL"],
    create: async (name) => {
      const baseURL = process.env.OPENAI_BASE_URL;
      if (!baseURL) {
        throw new ConfigurationError(
          "MISSING_BASE_URL",
          `Model "${name}" needs the server's address. Set the environment variable OPENAI_BASE_URL (for example http://127.0.0.1:8000/v1 for vLLM), or pass new OpenAIChatModel({ model, baseURL }).`,
        );
      }
      const { OpenAIChatModel } = await loadAdapter({ load: () => import("./openai/openai-chat-model.js"), packageName: "openai", modelName: name });
      return new OpenAIChatModel({ model: withoutPrefix(name), baseURL });
    },
  },
];

/** Ollama's OpenAI-compatible URL from `OLLAMA_HOST` (`host:port` or a URL), or the default. */
export function ollamaBaseUrl(host: string | undefined): string {
  if (!host) return DEFAULT_OLLAMA_URL;
  const url = trimTrailing(/^https?:\/\//.test(host) ? host : `http://${host}`, "/");
  return url.endsWith("/v1") ? url : `${url}/v1`;
}

function withoutPrefix(name: string): string {
  return name.slice(name.indexOf("/") + 1);
}
