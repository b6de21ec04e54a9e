import Anthropic from "@anthropic-ai/sdk";
import type { ContentBlockParam, MessageCreateParamsNonStreaming, MessageParam, Tool as AnthropicTool, Usage } from "@anthropic-ai/sdk/resources/messages/messages";
import type { Part } from "../../content/content.js";
import type { FunctionDeclaration } from "../function-declaration.js";
import { requireApiKey } from "../api-key.js";
import type { LlmRequest } from "../llm-request.js";
import type { LlmResponse, UsageMetadata } from "../llm-response.js";
import type { GenerateContentOptions, Model } from "../model.js";
import { partialText } from "../model-response.js";
import { providerFunctionCall } from "../provider-function-call.js";
import { withRetries, type RetryOptions } from "../retry-policy.js";
import { compileAnthropicSchema } from "../schema/compile-anthropic-schema.js";
import { providerErrorFromSdk } from "../sdk-error.js";
import { refuseGeminiBuiltInTools } from "../gemini-built-in-tools.js";

/** Options of {@link AnthropicModel}. */
export interface AnthropicModelOptions {
  /** `claude-sonnet-4-5`, … */
  model: string;
  /** Default: the `ANTHROPIC_API_KEY` environment variable. */
  apiKey?: string;
  /** Default: `ANTHROPIC_BASE_URL` or Anthropic's API. */
  baseURL?: string;
  /** Anthropic requires a limit on output tokens; used when the agent's config sets no `maxOutputTokens`. Default 8192. */
  defaultMaxTokens?: number;
  retry?: RetryOptions;
  /** A client you made yourself; `apiKey` and `baseURL` are then ignored. */
  client?: Anthropic;
}

/**
 * Claude through the Messages API and Anthropic's official SDK. Consecutive
 * turns of one role are merged, since the API requires them to alternate.
 *
 * @example
 * ```ts
 * const model = new AnthropicModel({ model: "claude-sonnet-4-5" }); // reads ANTHROPIC_API_KEY
 * ```
 */
export class AnthropicModel implements Model {
  readonly name: string;
  readonly #client: Anthropic;
  readonly #options: AnthropicModelOptions;

  constructor(options: AnthropicModelOptions) {
    this.name = options.model;
    this.#options = options;
    this.#client =
      options.client ??
      new Anthropic({
        apiKey: requireApiKey({ apiKey: options.apiKey, provider: "Anthropic" }),
        ...(options.baseURL ? { baseURL: options.baseURL } : {}),
        // toolsmith retries itself, the same way for every provider.
        maxRetries: 0,
      });
  }

  generateContent(request: LlmRequest, options: GenerateContentOptions): AsyncIterable<LlmResponse> {
    return withRetries({
      provider: "Anthropic",
      retry: this.#options.retry,
      abortSignal: options.abortSignal,
      attempt: () => this.#attempt(request, options),
      toError: (error, attempts) => providerErrorFromSdk(error, "Anthropic", attempts),
    });
  }

  async *#attempt(request: LlmRequest, options: GenerateContentOptions): AsyncGenerator<LlmResponse> {
    refuseGeminiBuiltInTools(request, "Anthropic", this.name);
    const { maxOutputTokens, temperature, topP, topK, stopSequences, seed: _seed, candidateCount: _count, systemInstruction: _system, responseMimeType: _mime, responseJsonSchema, tools: _builtIn, ...extra } = request.config;
    // Claude has no JSON response mode: a structured answer (outputSchema) is asked for in the system prompt.
    const system = responseJsonSchema
      ? `${request.systemInstruction ? `${request.systemInstruction}\n\n` : ""}Reply with one JSON object only, no other text, matching this JSON Schema: ${JSON.stringify(responseJsonSchema)}`
      : request.systemInstruction;
    const tools = request.functionDeclarations.map(anthropicTool);
    const body: MessageCreateParamsNonStreaming = {
      ...(extra as object),
      model: this.name,
      max_tokens: maxOutputTokens ?? this.#options.defaultMaxTokens ?? 8192,
      messages: anthropicMessages(request),
      ...(system ? { system } : {}),
      ...(tools.length > 0 ? { tools } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(topP !== undefined ? { top_p: topP } : {}),
      ...(topK !== undefined ? { top_k: topK } : {}),
      ...(stopSequences !== undefined ? { stop_sequences: stopSequences } : {}),
    };
    const requestOptions = { signal: options.abortSignal ?? null };
    if (!options.stream) {
      const message = await this.#client.messages.create(body, requestOptions);
      const parts = message.content.flatMap((block): Part[] => {
        if (block.type === "text") return [{ text: block.text }];
        if (block.type === "thinking") return [{ text: block.thinking, thought: true, thoughtSignature: block.signature }];
        if (block.type === "tool_use") return [{ functionCall: providerFunctionCall(request, { id: block.id, name: block.name, args: block.input }) }];
        return [];
      });
      yield complete(parts, message.stop_reason, usageOf(message.usage));
      return;
    }
    const stream = await this.#client.messages.create({ ...body, stream: true }, requestOptions);
    // Blocks by index; tool input arrives as pieces of JSON text.
    const blocks: { kind: "text" | "thinking" | "tool_use"; text: string; signature?: string; id?: string; name?: string }[] = [];
    let usage: Partial<Usage> = {};
    let stopReason: string | null = null;
    for await (const event of stream) {
      switch (event.type) {
        case "message_start":
          usage = { ...event.message.usage };
          break;
        case "content_block_start": {
          const block = event.content_block;
          if (block.type === "text") blocks[event.index] = { kind: "text", text: block.text };
          else if (block.type === "thinking") blocks[event.index] = { kind: "thinking", text: block.thinking, signature: block.signature };
          else if (block.type === "tool_use") blocks[event.index] = { kind: "tool_use", text: "", id: block.id, name: block.name };
          break;
        }
        case "content_block_delta": {
          const block = blocks[event.index];
          if (!block) break;
          const delta = event.delta;
          if (delta.type === "text_delta") {
            block.text += delta.text;
            yield partialText(delta.text);
          } else if (delta.type === "thinking_delta") {
            block.text += delta.thinking;
            yield partialText(delta.thinking, true);
          } else if (delta.type === "signature_delta") block.signature = (block.signature ?? "") + delta.signature;
          else if (delta.type === "input_json_delta") block.text += delta.partial_json;
          break;
        }
        case "message_delta":
          stopReason = event.delta.stop_reason;
          usage = { ...usage, ...(definedOnly(event.usage) as Partial<Usage>) };
          break;
      }
    }
    const parts = blocks.filter(Boolean).map((block): Part => {
      if (block.kind === "tool_use") return { functionCall: providerFunctionCall(request, { id: block.id, name: block.name ?? "", args: block.text }) };
      if (block.kind === "thinking") return { text: block.text, thought: true, ...(block.signature ? { thoughtSignature: block.signature } : {}) };
      return { text: block.text };
    });
    yield complete(parts, stopReason, usageOf(usage));
  }
}

function complete(parts: Part[], stopReason: string | null, usage: UsageMetadata | undefined): LlmResponse {
  const merged: Part[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if (part.text !== undefined && !part.thought && last?.text !== undefined && !last.thought) last.text += part.text;
    else if (part.text !== "") merged.push(part);
  }
  return { content: { role: "model", parts: merged }, turnComplete: true, finishReason: finishReason(stopReason), ...(usage ? { usageMetadata: usage } : {}) };
}

const compiledTools = new WeakMap<object, AnthropicTool>();

function anthropicTool(declaration: FunctionDeclaration): AnthropicTool {
  const key = declaration.parameters ?? declaration;
  const cached = compiledTools.get(key);
  if (cached && cached.name === declaration.name && cached.description === declaration.description) return cached;
  const tool: AnthropicTool = { name: declaration.name, description: declaration.description, input_schema: compileAnthropicSchema(declaration.parameters).schema as AnthropicTool["input_schema"] };
  compiledTools.set(key, tool);
  return tool;
}

/** The conversation as alternating user and assistant messages; tool results go back as `tool_result` blocks. */
export function anthropicMessages(request: LlmRequest): MessageParam[] {
  const messages: MessageParam[] = [];
  for (const content of request.contents) {
    const role = content.role === "model" ? "assistant" : "user";
    const blocks = (content.parts ?? []).flatMap((part) => toBlocks(part, role));
    if (blocks.length === 0) continue;
    const last = messages[messages.length - 1];
    if (last && last.role === role) (last.content as ContentBlockParam[]).push(...blocks);
    else messages.push({ role, content: blocks });
  }
  return messages;
}

function toBlocks(part: Part, role: "user" | "assistant"): ContentBlockParam[] {
  if (part.functionCall) return [{ type: "tool_use", id: part.functionCall.id ?? "", name: part.functionCall.name ?? "", input: part.functionCall.args ?? {} }];
  if (part.functionResponse) {
    const response = part.functionResponse.response ?? {};
    return [{ type: "tool_result", tool_use_id: part.functionResponse.id ?? "", content: JSON.stringify(response), ...(response.status === "error" ? { is_error: true } : {}) }];
  }
  if (part.text !== undefined && part.thought) {
    // Claude wants its signed thinking back with the tool results; unsigned thoughts are not sent.
    return role === "assistant" && part.thoughtSignature ? [{ type: "thinking", thinking: part.text, signature: part.thoughtSignature }] : [];
  }
  if (part.text) return [{ type: "text", text: part.text }];
  if (part.inlineData?.mimeType?.startsWith("image/")) {
    return [{ type: "image", source: { type: "base64", media_type: part.inlineData.mimeType as "image/png", data: part.inlineData.data ?? "" } }];
  }
  return [];
}

function finishReason(reason: string | null): string | undefined {
  if (!reason) return undefined;
  return { end_turn: "STOP", tool_use: "STOP", stop_sequence: "STOP", max_tokens: "MAX_TOKENS", refusal: "SAFETY" }[reason] ?? reason.toUpperCase();
}

function usageOf(usage: Partial<Usage>): UsageMetadata | undefined {
  if (usage.input_tokens === undefined && usage.output_tokens === undefined) return undefined;
  const cached = usage.cache_read_input_tokens ?? 0;
  const prompt = (usage.input_tokens ?? 0) + cached + (usage.cache_creation_input_tokens ?? 0);
  const output = usage.output_tokens ?? 0;
  return { promptTokenCount: prompt, candidatesTokenCount: output, totalTokenCount: prompt + output, ...(cached ? { cachedContentTokenCount: cached } : {}) };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== null && entry !== undefined)) as Partial<T>;
}

