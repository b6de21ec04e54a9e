import { ConfigurationError } from "../errors/toolsmith-error.js";
import { BUILTIN_MODEL_PROVIDERS } from "./builtin-model-providers.js";
import type { Model } from "./model.js";

/** Makes a model from its name (the part after the provider prefix, when one matched). */
export type ModelFactory = (modelName: string) => Model | Promise<Model>;

interface Registration {
  /** Matches the full model string given to the agent. */
  pattern: RegExp;
  factory: ModelFactory;
}

const registrations: Registration[] = [];

/**
 * Teaches `LlmAgent` a family of model names, such as `/^mycorp\//`. Later
 * registrations win over earlier ones and the built-in providers.
 */
export function registerModelProvider(pattern: RegExp, factory: ModelFactory): void {
  registrations.unshift({ pattern, factory });
}

/**
 * The model for a name: registered providers first, then the built-in
 * families `gemini-…`, `openai/…`, `anthropic/…`, `ollama/…` and
 * `openai-compatible/…`, whose adapter (and SDK) is imported on first use.
 */
export async function resolveModel(name: string): Promise<Model> {
  for (const registration of registrations) if (registration.pattern.test(name)) return registration.factory(name);
  for (const provider of BUILTIN_MODEL_PROVIDERS) if (provider.pattern.test(name)) return provider.create(name);
  throw new ConfigurationError(
    "UNKNOWN_MODEL",
    `No model provider recognises "${name}". Use "gemini-…", "openai/…", "anthropic/…", "ollama/…" or "openai-compatible/…", pass a Model instance, or register a provider with registerModelProvider(pattern, factory).`,
  );
}
