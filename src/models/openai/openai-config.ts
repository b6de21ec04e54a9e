import type { GenerateContentConfig } from "../llm-request.js";

// systemInstruction is sent as the system message (or `instructions`), never as a body field.
const NAMED = new Set(["temperature", "topP", "topK", "maxOutputTokens", "stopSequences", "candidateCount", "seed", "systemInstruction"]);

/**
 * Generation settings in OpenAI's names. `topK` and `candidateCount` have no
 * counterpart and are left out; keys toolsmith does not name go through as they are.
 * Compatible servers get `max_tokens`, which they all read, rather than OpenAI's newer `max_completion_tokens`.
 */
export function openAIConfig(config: GenerateContentConfig, api: "chat" | "responses", options: { compatibleServer?: boolean } = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (config.temperature !== undefined) body.temperature = config.temperature;
  if (config.topP !== undefined) body.top_p = config.topP;
  if (config.maxOutputTokens !== undefined) {
    body[api === "responses" ? "max_output_tokens" : options.compatibleServer ? "max_tokens" : "max_completion_tokens"] = config.maxOutputTokens;
  }
  if (api === "chat" && config.stopSequences !== undefined) body.stop = config.stopSequences;
  if (api === "chat" && config.seed !== undefined) body.seed = config.seed;
  for (const [key, value] of Object.entries(config)) if (!NAMED.has(key) && value !== undefined) body[key] = value;
  return body;
}
