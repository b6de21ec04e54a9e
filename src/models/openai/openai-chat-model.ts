import type OpenAI from "openai";
import type { ChatCompletionChunk, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import type { Content } from "../../content/content.js";
import type { FunctionDeclaration } from "../function-declaration.js";
import type { LlmRequest } from "../llm-request.js";
import type { LlmResponse, UsageMetadata } from "../llm-response.js";
import type { GenerateContentOptions, Model } from "../model.js";
import { modelResponse, partialText } from "../model-response.js";
import { providerFunctionCall } from "../provider-function-call.js";
import { withRetries } from "../retry-policy.js";
import { compileOpenAISchema } from "../schema/compile-openai-schema.js";
import { providerErrorFromSdk } from "../sdk-error.js";
import { createOpenAIClient, openAIProviderName, openAIStrict } from "./openai-client.js";
import { openAIConfig } from "./openai-config.js";
import { refuseGeminiBuiltInTools } from "../gemini-built-in-tools.js";
import type { OpenAIModelOptions } from "./openai-model-options.js";

/**
 * A model behind OpenAI's Chat Completions API, which is also what Ollama,
 * vLLM, llama.cpp's server and LM Studio speak (give `baseURL`).
 *
 * @example
 * ```ts
 * const model = new OpenAIChatModel({ model: "qwen3", baseURL: "http://127.0.0.1:11434/v1" });
 * const agent = new LlmAgent({ name: "assistant", model, instruction: "Be brief." });
 * ```
 */
export class OpenAIChatModel implements Model {
  readonly name: string;
  readonly #client: OpenAI;
  readonly #options: OpenAIModelOptions;

  constructor(options: OpenAIModelOptions) {
    this.name = options.model;
    this.#options = options;
    this.#client = createOpenAIClient(options);
  }

  generateContent(request: LlmRequest, options: GenerateContentOptions): AsyncIterable<LlmResponse> {
    const provider = openAIProviderName(this.#options);
    return withRetries({
      provider: provider,
      retry: this.#options.retry,
      abortSignal: options.abortSignal,
      attempt: () => this.#attempt(request, options),
      toError: (error, attempts) => providerErrorFromSdk(error, provider, attempts),
    });
  }

  async *#attempt(request: LlmRequest, options: GenerateContentOptions): AsyncGenerator<LlmResponse> {
    refuseGeminiBuiltInTools(request, openAIProviderName(this.#options), this.name);
    const tools = request.functionDeclarations.map((declaration) => chatTool(declaration, openAIStrict(this.#options)));
    const body: ChatCompletionCreateParamsNonStreaming = {
      ...(openAIConfig(request.config, "chat", { compatibleServer: Boolean(this.#options.baseURL) }) as object),
      model: this.name,
      messages: chatMessages(request),
      ...(tools.length > 0 ? { tools } : {}),
    };
    const requestOptions = { signal: options.abortSignal ?? null };
    if (!options.stream) {
      const completion = await this.#client.chat.completions.create(body, requestOptions);
      const choice = completion.choices[0];
      const calls = (choice?.message.tool_calls ?? []).flatMap((call) => (call.type === "function" ? [{ id: call.id, name: call.function.name, args: call.function.arguments }] : []));
      yield modelResponse({
        thought: reasoningOf(choice?.message),
        text: choice?.message.content ?? "",
        functionCalls: calls.map((call) => providerFunctionCall(request, call)),
        finishReason: finishReason(choice?.finish_reason),
        usage: usageOf(completion.usage),
      });
      return;
    }
    const stream = await this.#client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, requestOptions);
    let text = "";
    let thought = "";
    let reason: string | undefined;
    let usage: ChatCompletionChunk["usage"];
    const calls: { id: string; name: string; args: string }[] = [];
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices[0];
      if (!choice) continue;
      const reasoning = reasoningOf(choice.delta);
      if (reasoning) {
        thought += reasoning;
        yield partialText(reasoning, true);
      }
      if (choice.delta.content) {
        text += choice.delta.content;
        yield partialText(choice.delta.content);
      }
      for (const delta of choice.delta.tool_calls ?? []) {
        const call = (calls[delta.index] ??= { id: "", name: "", args: "" });
        if (delta.id) call.id = delta.id;
        if (delta.function?.name) call.name += delta.function.name;
        if (delta.function?.arguments) call.args += delta.function.arguments;
      }
      if (choice.finish_reason) reason = choice.finish_reason;
    }
    yield modelResponse({
      thought,
      text,
      functionCalls: calls.filter(Boolean).map((call) => providerFunctionCall(request, call)),
      finishReason: finishReason(reason),
      usage: usageOf(usage),
    });
  }
}

const compiledTools = new WeakMap<object, Map<boolean, ChatCompletionTool>>();

function chatTool(declaration: FunctionDeclaration, strict: boolean): ChatCompletionTool {
  const key = declaration.parameters ?? declaration;
  let byStrictness = compiledTools.get(key);
  const cached = byStrictness?.get(strict);
  if (cached && cached.type === "function" && cached.function.name === declaration.name && cached.function.description === declaration.description) return cached;
  const compiled = compileOpenAISchema(declaration.parameters, { strict });
  const tool: ChatCompletionTool = {
    type: "function",
    function: { name: declaration.name, description: declaration.description, parameters: compiled.schema, ...(strict ? { strict: compiled.strict } : {}) },
  };
  if (!byStrictness) compiledTools.set(key, (byStrictness = new Map()));
  byStrictness.set(strict, tool);
  return tool;
}

/** The conversation as Chat Completions messages: tool results follow the assistant turn that asked for them. */
export function chatMessages(request: LlmRequest): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.systemInstruction) messages.push({ role: "system", content: request.systemInstruction });
  for (const content of request.contents) messages.push(...contentToMessages(content));
  return messages;
}

function contentToMessages(content: Content): ChatCompletionMessageParam[] {
  const parts = content.parts ?? [];
  const text = parts
    .filter((part) => part.text !== undefined && !part.thought)
    .map((part) => part.text)
    .join("");
  if (content.role === "model") {
    const toolCalls = parts.flatMap((part) =>
      part.functionCall ? [{ id: part.functionCall.id ?? "", type: "function" as const, function: { name: part.functionCall.name ?? "", arguments: JSON.stringify(part.functionCall.args ?? {}) } }] : [],
    );
    if (!text && toolCalls.length === 0) return [];
    return [{ role: "assistant", content: text || null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) }];
  }
  const messages: ChatCompletionMessageParam[] = parts.flatMap((part) =>
    part.functionResponse ? [{ role: "tool" as const, tool_call_id: part.functionResponse.id ?? "", content: JSON.stringify(part.functionResponse.response ?? {}) }] : [],
  );
  const images = parts.flatMap((part) => (part.inlineData?.mimeType?.startsWith("image/") ? [{ type: "image_url" as const, image_url: { url: `data:${part.inlineData.mimeType};base64,${part.inlineData.data}` } }] : []));
  if (images.length > 0) messages.push({ role: "user", content: [...(text ? [{ type: "text" as const, text }] : []), ...images] });
  else if (text) messages.push({ role: "user", content: text });
  return messages;
}

/**
 * The model's reasoning, which OpenAI-compatible servers add to messages and
 * deltas outside OpenAI's schema: vLLM and llama.cpp as `reasoning_content`,
 * Ollama and others as `reasoning`. It becomes a thought part.
 */
function reasoningOf(message: object | undefined): string {
  const fields = message as { reasoning_content?: unknown; reasoning?: unknown } | undefined;
  const value = fields?.reasoning_content ?? fields?.reasoning;
  return typeof value === "string" ? value : "";
}

/** OpenAI's finish reason in Gemini's names, which toolsmith events use. */
export function finishReason(reason: string | null | undefined): string | undefined {
  if (!reason) return undefined;
  return { stop: "STOP", tool_calls: "STOP", function_call: "STOP", length: "MAX_TOKENS", content_filter: "SAFETY" }[reason] ?? reason.toUpperCase();
}

function usageOf(usage: ChatCompletionChunk["usage"] | undefined): UsageMetadata | undefined {
  if (!usage) return undefined;
  return {
    promptTokenCount: usage.prompt_tokens,
    candidatesTokenCount: usage.completion_tokens,
    totalTokenCount: usage.total_tokens,
    ...(usage.completion_tokens_details?.reasoning_tokens ? { thoughtsTokenCount: usage.completion_tokens_details.reasoning_tokens } : {}),
    ...(usage.prompt_tokens_details?.cached_tokens ? { cachedContentTokenCount: usage.prompt_tokens_details.cached_tokens } : {}),
  };
}
