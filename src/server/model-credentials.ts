/** The environment variables model providers read their credentials or address from. */
export const MODEL_CREDENTIAL_VARIABLES = ["GOOGLE_API_KEY", "GEMINI_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OLLAMA_HOST"] as const;

/** Which model credentials are set, and what to do when none is. */
export interface ModelCredentialStatus {
  configured: string[];
  /** Set when none is configured: how to set one. */
  help?: string;
}

/** Reads the environment; never returns the values themselves. */
export function modelCredentialStatus(environment: NodeJS.ProcessEnv = process.env): ModelCredentialStatus {
  const configured = MODEL_CREDENTIAL_VARIABLES.filter((name) => (environment[name] ?? "") !== "");
  if (configured.length) return { configured };
  return {
    configured,
    help:
      "No model credentials are set, so agents that use a named model (such as \"gemini-2.5-flash\") cannot answer. " +
      "Set GOOGLE_API_KEY or GEMINI_API_KEY (Gemini), OPENAI_API_KEY (OpenAI), ANTHROPIC_API_KEY (Anthropic) or OLLAMA_HOST (a local Ollama) " +
      "before starting toolsmith. Agents with their own Model instance, and the tool playground, work without them.",
  };
}
