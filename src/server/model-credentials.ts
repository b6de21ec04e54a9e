import { BUILTIN_MODEL_PROVIDERS } from "../models/builtin-model-providers.js";

/** The environment variables the built-in model families need (API keys, and the address of an OpenAI-compatible server). */
export const MODEL_CREDENTIAL_VARIABLES: readonly string[] = [...new Set(BUILTIN_MODEL_PROVIDERS.flatMap((provider) => provider.requiredEnvironment))];

/** Which model credentials are set (names only). */
export interface ModelCredentialStatus {
  configured: string[];
}

/** Whether an environment variable is set to something; an empty value counts as unset, as the adapters treat it. */
export function isVariableSet(name: string, environment: NodeJS.ProcessEnv = process.env): boolean {
  return (environment[name] ?? "") !== "";
}

/**
 * Reads the environment; never returns the values themselves. Which app needs
 * which of them is {@link modelRequirements}'s answer.
 */
export function modelCredentialStatus(environment: NodeJS.ProcessEnv = process.env): ModelCredentialStatus {
  return { configured: MODEL_CREDENTIAL_VARIABLES.filter((name) => isVariableSet(name, environment)) };
}
