import { ConfigurationError } from "../errors/toolsmith-error.js";
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

/** The model for a name like `"gemini-2.5-flash"` or `"openai/gpt-4.1"`. */
export async function resolveModel(name: string): Promise<Model> {
  for (const registration of registrations) if (registration.pattern.test(name)) return registration.factory(name);
  throw new ConfigurationError(
    "UNKNOWN_MODEL",
    `No model provider recognises "${name}". Pass a Model instance, or register a provider with registerModelProvider(pattern, factory).`,
  );
}
