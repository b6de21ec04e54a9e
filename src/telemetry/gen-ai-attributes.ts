import type { Attributes } from "@opentelemetry/api";
import type { Content, Part } from "../content/content.js";
import type { LlmRequest } from "../models/llm-request.js";
import type { LlmResponse } from "../models/llm-response.js";

/**
 * Attribute names of OpenTelemetry's semantic conventions for generative AI
 * (https://opentelemetry.io/docs/specs/semconv/gen-ai/), plus the
 * `gcp.vertex.agent.*` ids ADK puts on its spans, which ADK's dev UI reads.
 */
export const GenAi = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  requestModel: "gen_ai.request.model",
  responseModel: "gen_ai.response.model",
  requestTemperature: "gen_ai.request.temperature",
  requestTopP: "gen_ai.request.top_p",
  requestMaxTokens: "gen_ai.request.max_tokens",
  finishReasons: "gen_ai.response.finish_reasons",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  cachedInputTokens: "gen_ai.usage.cache_read.input_tokens",
  reasoningTokens: "gen_ai.usage.reasoning.output_tokens",
  agentName: "gen_ai.agent.name",
  agentDescription: "gen_ai.agent.description",
  conversationId: "gen_ai.conversation.id",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolDescription: "gen_ai.tool.description",
  toolType: "gen_ai.tool.type",
  toolArguments: "gen_ai.tool.call.arguments",
  toolResult: "gen_ai.tool.call.result",
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
  systemInstructions: "gen_ai.system_instructions",
  invocationId: "gcp.vertex.agent.invocation_id",
  eventId: "gcp.vertex.agent.event_id",
  sessionId: "gcp.vertex.agent.session_id",
} as const;

/**
 * The semantic conventions' operation for a model call: Gemini's API is
 * `generate_content`; the chat APIs of OpenAI, Anthropic and the servers that
 * speak OpenAI's format are `chat`.
 */
export function modelOperation(provider: string): "generate_content" | "chat" {
  return provider.startsWith("gcp.") ? "generate_content" : "chat";
}

/** What a model call's span says before the call: the model, provider, settings, and (when captured) the messages. */
export function modelCallAttributes(request: LlmRequest, model: { name: string; provider?: string }, captureContent: boolean): Attributes {
  const provider = model.provider ?? "unknown";
  const attributes: Attributes = {
    [GenAi.operationName]: modelOperation(provider),
    [GenAi.providerName]: provider,
    [GenAi.requestModel]: request.model ?? model.name,
  };
  const { temperature, topP, maxOutputTokens } = request.config ?? {};
  if (temperature !== undefined) attributes[GenAi.requestTemperature] = temperature;
  if (topP !== undefined) attributes[GenAi.requestTopP] = topP;
  if (maxOutputTokens !== undefined) attributes[GenAi.requestMaxTokens] = maxOutputTokens;
  if (captureContent) {
    attributes[GenAi.inputMessages] = JSON.stringify(request.contents.map(toMessage));
    if (request.systemInstruction) attributes[GenAi.systemInstructions] = JSON.stringify([{ type: "text", content: request.systemInstruction }]);
  }
  return attributes;
}

/** What a model call's span says after it: usage, finish reason, and (when captured) the answer. */
export function modelResponseAttributes(response: LlmResponse, captureContent: boolean): Attributes {
  const attributes: Attributes = {};
  const usage = response.usageMetadata;
  if (usage?.promptTokenCount !== undefined) attributes[GenAi.inputTokens] = usage.promptTokenCount;
  if (usage?.candidatesTokenCount !== undefined) attributes[GenAi.outputTokens] = usage.candidatesTokenCount;
  if (usage?.cachedContentTokenCount !== undefined) attributes[GenAi.cachedInputTokens] = usage.cachedContentTokenCount;
  if (usage?.thoughtsTokenCount !== undefined) attributes[GenAi.reasoningTokens] = usage.thoughtsTokenCount;
  if (response.finishReason) attributes[GenAi.finishReasons] = [response.finishReason.toLowerCase()];
  if (captureContent && response.content) attributes[GenAi.outputMessages] = JSON.stringify([toMessage(response.content)]);
  return attributes;
}

/**
 * A message in the conventions' JSON form: `role` (`assistant` for a model
 * turn) and typed parts. Inline data is named by its type, never copied.
 */
export function toMessage(content: Content): Record<string, unknown> {
  const role = content.role === "model" ? "assistant" : (content.role ?? "user");
  return { role, parts: (content.parts ?? []).map(toMessagePart) };
}

function toMessagePart(part: Part): Record<string, unknown> {
  if (part.functionCall) return { type: "tool_call", id: part.functionCall.id, name: part.functionCall.name, arguments: part.functionCall.args ?? {} };
  if (part.functionResponse) return { type: "tool_call_response", id: part.functionResponse.id, response: part.functionResponse.response };
  if (part.inlineData) return { type: "blob", mime_type: part.inlineData.mimeType };
  if (part.fileData) return { type: "uri", uri: part.fileData.fileUri, mime_type: part.fileData.mimeType };
  if (part.thought) return { type: "reasoning", content: part.text ?? "" };
  return { type: "text", content: part.text ?? "" };
}

/** A value as span text: JSON, or a note when it cannot be written as JSON. */
export function spanJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    return "<not serializable>";
  }
}
