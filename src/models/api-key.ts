import { ConfigurationError } from "../errors/toolsmith-error.js";

/**
 * The API key given in the options, else the first of the environment
 * variables that is set; a clear error naming the variable otherwise.
 */
export function requireApiKey(options: { apiKey: string | undefined; variables: readonly string[]; provider: string }): string {
  if (options.apiKey) return options.apiKey;
  for (const variable of options.variables) {
    const value = process.env[variable];
    if (value) return value;
  }
  const names = options.variables.join(" or ");
  throw new ConfigurationError(
    "MISSING_API_KEY",
    `No API key for ${options.provider}. Set the environment variable ${names}, or pass apiKey to the model's options.`,
  );
}
