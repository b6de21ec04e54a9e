import { ConfigurationError } from "../errors/toolsmith-error.js";

/**
 * The environment variables each provider reads its API key from, in order.
 * The adapters read them, and the server's model requirements report them, so
 * the two cannot disagree.
 */
export const API_KEY_VARIABLES = {
  // GOOGLE_GENAI_API_KEY is ADK's name too; it comes last, so a key set under an earlier name keeps winning.
  Gemini: ["GOOGLE_API_KEY", "GEMINI_API_KEY", "GOOGLE_GENAI_API_KEY"],
  OpenAI: ["OPENAI_API_KEY"],
  Anthropic: ["ANTHROPIC_API_KEY"],
} as const satisfies Record<string, readonly string[]>;

/** A provider whose API key comes from the environment. */
export type ApiKeyProvider = keyof typeof API_KEY_VARIABLES;

/**
 * The API key given in the options, else the first of the provider's
 * environment variables that is set; a clear error naming them otherwise.
 */
export function requireApiKey(options: { apiKey: string | undefined; provider: ApiKeyProvider }, environment: NodeJS.ProcessEnv = process.env): string {
  if (options.apiKey) return options.apiKey;
  const variables = API_KEY_VARIABLES[options.provider];
  for (const variable of variables) {
    const value = environment[variable];
    if (value) return value;
  }
  throw new ConfigurationError(
    "MISSING_API_KEY",
    `No API key for ${options.provider}. Set the environment variable ${variables.join(" or ")}, or pass apiKey to the model's options.`,
  );
}
