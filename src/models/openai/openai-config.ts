import type { GenerateContentConfig } from "../llm-request.js";

// systemInstruction is sent as the system message (or `instructions`), never as a body field.
const NAMED = new Set(["temperature", "topP", "topK", "maxOutputTokens", "stopSequences", "candidateCount", "seed", "systemInstruction", "responseMimeType", "responseJsonSchema"]);

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
  // A structured answer (outputSchema): OpenAI's JSON schema format, or JSON mode when only JSON was asked for.
  const format = config.responseJsonSchema
    ? { type: "json_schema", name: "response", schema: config.responseJsonSchema }
    : config.responseMimeType === "application/json"
      ? { type: "json_object" }
      : undefined;
  if (format && api === "responses") body.text = { format };
  if (format && api === "chat") body.response_format = format.type === "json_schema" ? { type: "json_schema", json_schema: { name: "response", schema: config.responseJsonSchema } } : format;
  for (const [key, value] of Object.entries(config)) if (!NAMED.has(key) && value !== undefined) body[key] = value;
  return body;
}
