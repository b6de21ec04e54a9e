import { ConfigurationError } from "../errors/toolsmith-error.js";
import { BUILTIN_MODEL_PROVIDERS, type EnvironmentAlternative } from "./builtin-model-providers.js";
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

/** What makes the model for a name: a registered provider, or a built-in family (whose needed environment is known). */
export interface ModelProviderMatch {
  create(name: string): Model | Promise<Model>;
  /** Set for the built-in families: one of these environment variables must be set. Unknown for registered providers. */
  requiredEnvironment?: readonly string[];
  /** Another way the environment may set the family up, without any of `requiredEnvironment` (Gemini on Vertex AI). */
  alternative?: EnvironmentAlternative;
}

/** The provider `resolveModel` would use for a name, without making the model; `undefined` when none recognises it. */
export function findModelProvider(name: string): ModelProviderMatch | undefined {
  const registered = registrations.find((registration) => registration.pattern.test(name));
  if (registered) return { create: registered.factory };
  return BUILTIN_MODEL_PROVIDERS.find((provider) => provider.pattern.test(name));
}

/** What to do about a model name no provider recognises. */
export function unknownModelMessage(name: string): string {
  return `No model provider recognises "${name}". Use "gemini-…", "openai/…", "anthropic/…", "ollama/…" or "openai-compatible/…", pass a Model instance, or register a provider with registerModelProvider(pattern, factory).`;
}

/**
 * The model for a name: registered providers first, then the built-in
 * families `gemini-…`, `openai/…`, `anthropic/…`, `ollama/…` and
 * `openai-compatible/…`, whose adapter (and SDK) is imported on first use.
 */
export async function resolveModel(name: string): Promise<Model> {
  const provider = findModelProvider(name);
  if (!provider) throw new ConfigurationError("UNKNOWN_MODEL", unknownModelMessage(name));
  return provider.create(name);
}
