import type OpenAI from "openai";
import type { ChatCompletionChunk, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import type { Content, Part } from "../../content/content.js";
import type { FunctionDeclaration } from "../function-declaration.js";
import type { LlmRequest } from "../llm-request.js";
import type { LlmResponse, UsageMetadata } from "../llm-response.js";
import type { GenerateContentOptions, Model } from "../model.js";
import { answerWithRefusal, completeResponse, declinedResponse, partialText } from "../model-response.js";
import { usageMetadata } from "../usage.js";
import { expandParallelWrapper, providerFunctionCall } from "../provider-function-call.js";
import { withRetries } from "../retry-policy.js";
import { compileOpenAISchema } from "../schema/compile-openai-schema.js";
import { providerErrorFromSdk } from "../sdk-error.js";
import { createOpenAIClient, openAIProviderName, openAITelemetryProvider, openAIStrict } from "./openai-client.js";
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
  /** As spans name it: `openai`, or the provider its `baseURL` names (`deepseek`, `mistral_ai`, `ollama`, …). */
  readonly provider: string;
  readonly #client: OpenAI;
  readonly #options: OpenAIModelOptions;

  constructor(options: OpenAIModelOptions) {
    this.name = options.model;
    this.provider = openAITelemetryProvider(options);
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
    const provider = openAIProviderName(this.#options);
    if (!options.stream) {
      const completion = await this.#client.chat.completions.create(body, requestOptions);
      const choice = completion.choices[0];
      const message = choice?.message as (ChatMessageFields & { tool_calls?: WireToolCall[] }) | undefined;
      const content = contentPieces(message?.content);
      const reasoning = reasoningOf(message);
      const calls = (message?.tool_calls ?? []).flatMap((call) => (call.function && (call.type ?? "function") === "function" ? [{ id: call.id ?? "", name: call.function.name ?? "", args: call.function.arguments ?? "" }] : []));
      yield chatResponse(request, provider, {
        thought: reasoning.text + content.thought,
        thoughtField: reasoning.field ?? (content.thought ? "thinking" : undefined),
        text: content.text,
        refusal: typeof message?.refusal === "string" ? message.refusal : "",
        calls,
        annotations: message?.annotations ?? [],
        reason: choice?.finish_reason,
        usage: completion.usage,
      });
      return;
    }
    const stream = await this.#client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, requestOptions);
    let text = "";
    let thought = "";
    let thoughtField: ReasoningField | undefined;
    let refusal = "";
    let reason: string | undefined;
    let usage: ChatCompletionChunk["usage"];
    const calls: { id: string; name: string; args: string }[] = [];
    const annotations: ChatAnnotation[] = [];
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices[0];
      if (!choice) continue;
      const delta = choice.delta as ChatMessageFields & { tool_calls?: WireToolCall[] };
      const reasoning = reasoningOf(delta);
      const content = contentPieces(delta.content);
      const thinking = reasoning.text + content.thought;
      if (thinking) {
        thought += thinking;
        thoughtField ??= reasoning.field ?? "thinking";
        yield partialText(thinking, true);
      }
      if (content.text) {
        text += content.text;
        yield partialText(content.text);
      }
      if (typeof delta.refusal === "string") refusal += delta.refusal;
      annotations.push(...(delta.annotations ?? []));
      for (const piece of delta.tool_calls ?? []) {
        const call = toolCallFor(calls, piece);
        if (piece.id) call.id = piece.id;
        if (piece.function?.name) call.name += piece.function.name;
        if (piece.function?.arguments) call.args += piece.function.arguments;
      }
      if (choice.finish_reason) reason = choice.finish_reason;
    }
    yield chatResponse(request, provider, { thought, thoughtField, text, refusal, calls: calls.filter(Boolean), annotations, reason, usage });
  }
}

/** A tool call as servers stream it: OpenAI sends `index` and `type`; Mistral sends neither, and each call whole. */
interface WireToolCall {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

/** A URL citation on a web-search model's answer. */
interface ChatAnnotation {
  type: string;
  url_citation?: { start_index?: number; end_index?: number; url?: string; title?: string };
}

/** Message and delta fields, with those beyond OpenAI's schema that compatible servers send. */
interface ChatMessageFields {
  content?: unknown;
  refusal?: string | null;
  annotations?: ChatAnnotation[];
  reasoning_content?: unknown;
  reasoning?: unknown;
}

/**
 * The call a streamed piece belongs to: by `index` when the server sends one
 * (unless that index already holds a call with another id: servers that send
 * each call whole may number them all 0); otherwise a piece with a new `id`
 * starts a call and one without continues the last (Mistral).
 */
function toolCallFor(calls: { id: string; name: string; args: string }[], piece: WireToolCall): { id: string; name: string; args: string } {
  const indexed = typeof piece.index === "number" ? calls[piece.index] : undefined;
  if (typeof piece.index === "number" && !(indexed?.id && piece.id && indexed.id !== piece.id)) return (calls[piece.index] ??= { id: "", name: "", args: "" });
  const last = calls[calls.length - 1];
  if (last && (!piece.id || piece.id === last.id)) return last;
  const call = { id: "", name: "", args: "" };
  calls.push(call);
  return call;
}

/** Where a server's reasoning came from, so it goes back the same way: a `reasoning_content` or `reasoning` field, or Mistral's thinking chunks. */
type ReasoningField = "reasoning_content" | "reasoning" | "thinking";

function chatResponse(
  request: LlmRequest,
  provider: string,
  answer: {
    thought: string;
    thoughtField?: ReasoningField;
    text: string;
    refusal: string;
    calls: { id: string; name: string; args: string }[];
    annotations: ChatAnnotation[];
    reason: string | null | undefined;
    usage: ChatCompletionChunk["usage"] | undefined;
  },
): LlmResponse {
  const citations = answer.annotations.flatMap((annotation) => {
    const cited = annotation.url_citation;
    return annotation.type === "url_citation" && cited ? [{ startIndex: cited.start_index, endIndex: cited.end_index, uri: cited.url, ...(cited.title ? { title: cited.title } : {}) }] : [];
  });
  const details = { finishReason: finishReason(answer.reason), ...usageOf(answer.usage), citations, providerCitations: answer.annotations };
  if (answer.reason === "content_filter" && !answer.text && !answer.refusal && answer.calls.length === 0) return declinedResponse("MODEL_SAFETY_BLOCKED", provider, "", details);
  const parts: Part[] = [];
  if (answer.thought) parts.push({ text: answer.thought, thought: true, ...(answer.thoughtField ? { partMetadata: { reasoningField: answer.thoughtField } } : {}) });
  if (answer.text) parts.push({ text: answer.text });
  for (const call of answer.calls.flatMap(expandParallelWrapper)) parts.push({ functionCall: providerFunctionCall(request, call) });
  if (answer.refusal) return answerWithRefusal(provider, answer.refusal, parts, details);
  return completeResponse(provider, parts, details);
}

/**
 * Text and thinking from a message's `content`: a string, or a list of typed
 * chunks as Mistral's Magistral models send it (`text` chunks, and `thinking`
 * chunks holding text chunks of their own).
 */
function contentPieces(content: unknown): { text: string; thought: string } {
  if (typeof content === "string") return { text: content, thought: "" };
  if (!Array.isArray(content)) return { text: "", thought: "" };
  let text = "";
  let thought = "";
  for (const chunk of content as { type?: string; text?: unknown; thinking?: unknown }[]) {
    if (chunk?.type === "text" && typeof chunk.text === "string") text += chunk.text;
    else if (chunk?.type === "thinking") thought += typeof chunk.thinking === "string" ? chunk.thinking : contentPieces(chunk.thinking).text;
  }
  return { text, thought };
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
    .filter((part) => part.text !== undefined && !part.thought && !part.partMetadata?.refusal)
    .map((part) => part.text)
    .join("");
  if (content.role === "model") {
    // A refusal that came beside tool calls goes back in the assistant message's own refusal field.
    const refusal = parts.find((part) => part.partMetadata?.refusal)?.text;
    const toolCalls = parts.flatMap((part) =>
      part.functionCall ? [{ id: part.functionCall.id ?? "", type: "function" as const, function: { name: part.functionCall.name ?? "", arguments: JSON.stringify(part.functionCall.args ?? {}) } }] : [],
    );
    if (!text && toolCalls.length === 0) return [];
    const message: ChatCompletionMessageParam = { role: "assistant", content: text || null, ...(refusal ? { refusal } : {}), ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
    return [withReasoning(message, parts, toolCalls.length > 0)];
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
 * The model's reasoning sent back the way the server sent it, where it wants
 * it: the reasoning of a turn that called tools goes back in the field it came
 * in, `reasoning_content` (DeepSeek refuses a request without it) or
 * `reasoning` (Ollama reads it as the message's thinking, so the model's
 * template sees its chain across the tool loop); Mistral's thinking goes back
 * as thinking chunks in `content`. Reasoning of a turn that only answered is
 * not sent: the servers' templates drop it.
 */
function withReasoning(message: ChatCompletionMessageParam, parts: Part[], calledTools: boolean): ChatCompletionMessageParam {
  const thoughts = parts.filter((part) => part.thought && part.text);
  const field = thoughts[0]?.partMetadata?.reasoningField;
  const reasoning = thoughts.map((part) => part.text).join("");
  if ((field === "reasoning_content" || field === "reasoning") && calledTools) return { ...message, [field]: reasoning } as unknown as ChatCompletionMessageParam;
  if (field === "thinking") {
    const chunks = [{ type: "thinking", thinking: [{ type: "text", text: reasoning }] }, ...(typeof message.content === "string" ? [{ type: "text", text: message.content }] : [])];
    return { ...message, content: chunks } as unknown as ChatCompletionMessageParam;
  }
  return message;
}

/**
 * The model's reasoning, which OpenAI-compatible servers add to messages and
 * deltas outside OpenAI's schema: vLLM, llama.cpp and DeepSeek as
 * `reasoning_content`, Ollama and others as `reasoning`. It becomes a thought
 * part that remembers the field.
 */
function reasoningOf(message: ChatMessageFields | undefined): { text: string; field?: ReasoningField } {
  if (typeof message?.reasoning_content === "string" && message.reasoning_content) return { text: message.reasoning_content, field: "reasoning_content" };
  if (typeof message?.reasoning === "string" && message.reasoning) return { text: message.reasoning, field: "reasoning" };
  return { text: "" };
}

/** OpenAI's finish reason in Gemini's names, which toolsmith events use. */
export function finishReason(reason: string | null | undefined): string | undefined {
  if (!reason) return undefined;
  return { stop: "STOP", tool_calls: "STOP", function_call: "STOP", length: "MAX_TOKENS", content_filter: "SAFETY" }[reason] ?? reason.toUpperCase();
}

/**
 * Usage in toolsmith's meaning: `completion_tokens` include the reasoning, so
 * the answer's count leaves it out. DeepSeek reports its cache hits as
 * `prompt_cache_hit_tokens` rather than OpenAI's `cached_tokens`.
 */
function usageOf(usage: ChatCompletionChunk["usage"] | undefined): { usage?: UsageMetadata; providerUsage?: unknown } {
  if (!usage) return {};
  const deepSeekCacheHits = (usage as { prompt_cache_hit_tokens?: number }).prompt_cache_hit_tokens;
  return {
    usage: usageMetadata({
      input: usage.prompt_tokens ?? 0,
      output: usage.completion_tokens ?? 0,
      cachedInput: usage.prompt_tokens_details?.cached_tokens ?? deepSeekCacheHits,
      reasoning: usage.completion_tokens_details?.reasoning_tokens,
    }),
    providerUsage: usage,
  };
}
