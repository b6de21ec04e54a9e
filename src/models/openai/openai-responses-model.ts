import type OpenAI from "openai";
import type { FunctionTool, ResponseCreateParamsNonStreaming, ResponseInputItem, ResponseOutputItem, ResponseReasoningItem, ResponseUsage } from "openai/resources/responses/responses";
import type { Part } from "../../content/content.js";
import type { FunctionDeclaration } from "../function-declaration.js";
import type { LlmRequest } from "../llm-request.js";
import type { Citation, LlmResponse, UsageMetadata } from "../llm-response.js";
import type { GenerateContentOptions, Model } from "../model.js";
import { ModelProviderError } from "../model-provider-error.js";
import { answerWithRefusal, completeResponse, declinedResponse, partialText, type UnhandledOutput } from "../model-response.js";
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
 * A model behind OpenAI's Responses API, the one `"openai/…"` model names use.
 * The whole conversation is sent each turn (no `previous_response_id`), so
 * sessions stay the single source of truth.
 *
 * @example
 * ```ts
 * const model = new OpenAIResponsesModel({ model: "gpt-4.1" }); // reads OPENAI_API_KEY
 * ```
 */
export class OpenAIResponsesModel implements Model {
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
      attempt: () => this.#attempt(request, options, provider),
      toError: (error, attempts) => providerErrorFromSdk(error, provider, attempts),
    });
  }

  async *#attempt(request: LlmRequest, options: GenerateContentOptions, provider: string): AsyncGenerator<LlmResponse> {
    refuseGeminiBuiltInTools(request, provider, this.name);
    const tools = request.functionDeclarations.map((declaration) => responsesTool(declaration, openAIStrict(this.#options)));
    const body: ResponseCreateParamsNonStreaming = {
      ...(openAIConfig(request.config, "responses") as object),
      model: this.name,
      input: responsesInput(request),
      ...(request.systemInstruction ? { instructions: request.systemInstruction } : {}),
      ...(tools.length > 0 ? { tools } : {}),
    };
    const requestOptions = { signal: options.abortSignal ?? null };
    if (!options.stream) {
      const response = await this.#client.responses.create(body, requestOptions);
      yield responsesAnswer(request, provider, response.output, response);
      return;
    }
    const stream = await this.#client.responses.create({ ...body, stream: true }, requestOptions);
    // Items by output index, with function-call arguments and custom-tool input assembled from their deltas.
    const items: ResponseOutputItem[] = [];
    const deltasByIndex = new Map<number, string>();
    let textItemIndex: number | undefined;
    for await (const event of stream) {
      switch (event.type) {
        case "response.output_text.delta":
          if (event.output_index !== textItemIndex && textItemIndex !== undefined) yield partialText(MESSAGE_SEPARATOR);
          textItemIndex = event.output_index;
          yield partialText(event.delta);
          break;
        case "response.reasoning_summary_text.delta":
        case "response.reasoning_text.delta":
          yield partialText(event.delta, true);
          break;
        case "response.output_item.added":
        case "response.output_item.done":
          items[event.output_index] = event.item;
          break;
        case "response.function_call_arguments.delta":
        case "response.custom_tool_call_input.delta":
          deltasByIndex.set(event.output_index, (deltasByIndex.get(event.output_index) ?? "") + event.delta);
          break;
        case "response.completed":
        case "response.incomplete": {
          const assembled = items.map((item, index) => {
            if (item?.type === "function_call" && !item.arguments) return { ...item, arguments: deltasByIndex.get(index) ?? "" };
            if (item?.type === "custom_tool_call" && !item.input) return { ...item, input: deltasByIndex.get(index) ?? "" };
            return item;
          });
          const output = event.response.output.length > 0 ? event.response.output : assembled.filter(Boolean);
          yield responsesAnswer(request, provider, output, event.response);
          return;
        }
        case "response.failed":
        case "error": {
          const failure = event.type === "error" ? event : (event.response.error ?? { code: "server_error", message: "the response failed" });
          throw new ModelProviderError({ provider, status: undefined, providerMessage: failure.message, providerCode: String(failure.code ?? "server_error") });
        }
      }
    }
    throw new ModelProviderError({ provider, status: undefined, providerMessage: "the stream ended before response.completed" });
  }
}

/** What sets one output message apart from the one before it. */
const MESSAGE_SEPARATOR = "\n\n";

/**
 * The complete response from Responses output items, in order: reasoning
 * (summaries as thought text, the item kept in `partMetadata` to go back),
 * each message as its own text part (a `commentary` phase apart from the
 * final answer), function and custom-tool calls. Annotations become
 * citations; items toolsmith has no mapping for (`mcp_approval_request`,
 * server-side `web_search_call`, …) are kept in `customMetadata.unhandledOutput`.
 */
function responsesAnswer(request: LlmRequest, provider: string, output: ResponseOutputItem[], response: { status?: string; usage?: ResponseUsage | null; incomplete_details?: { reason?: string } | null }): LlmResponse {
  const parts: Part[] = [];
  const citations: Citation[] = [];
  const annotations: unknown[] = [];
  const unhandled: UnhandledOutput[] = [];
  let refusal = "";
  let textLength = 0;
  for (const item of output) {
    switch (item.type) {
      case "reasoning": {
        const summary = item.summary.map((entry) => entry.text).join("\n\n");
        const reasoningText = (item.content ?? []).map((entry) => entry.text).join("");
        parts.push({ text: summary || reasoningText, thought: true, partMetadata: { openaiReasoning: reasoningItem(item) } });
        break;
      }
      case "message": {
        // Messages (a commentary, then the final answer) are set apart by a blank line, in the text as in the stream.
        let text = textLength > 0 && item.content.some((piece) => piece.type === "output_text" && piece.text) ? MESSAGE_SEPARATOR : "";
        for (const piece of item.content) {
          if (piece.type === "refusal") refusal += piece.refusal;
          else if (piece.type === "output_text") {
            for (const annotation of piece.annotations ?? []) {
              annotations.push(annotation);
              const citation = citationOf(annotation as unknown as { type: string; [key: string]: unknown }, textLength + text.length);
              if (citation) citations.push(citation);
            }
            text += piece.text;
          }
        }
        const phase = (item as { phase?: unknown }).phase;
        if (text) parts.push({ text, ...(typeof phase === "string" ? { partMetadata: { phase } } : {}) });
        textLength += text.length;
        break;
      }
      case "function_call":
        for (const call of expandParallelWrapper({ id: item.call_id, name: item.name, args: item.arguments })) parts.push({ functionCall: providerFunctionCall(request, call) });
        break;
      case "custom_tool_call":
        // A freeform tool's input is text: the function gets it as `input`, and the call goes back as a custom-tool call.
        parts.push({ functionCall: providerFunctionCall(request, { id: item.call_id, name: item.name, args: { input: item.input } }), partMetadata: { openaiItem: "custom_tool_call" } });
        break;
      default:
        unhandled.push({ type: item.type, item });
    }
  }
  const incomplete = response.incomplete_details?.reason;
  const reason = response.status === "incomplete" ? (incomplete === "content_filter" ? "SAFETY" : "MAX_TOKENS") : "STOP";
  const details = { finishReason: reason, ...usageOf(response.usage ?? undefined), citations, providerCitations: annotations, unhandled };
  if (refusal) return answerWithRefusal(provider, refusal, parts, details);
  if (reason === "SAFETY" && parts.every((part) => part.thought)) return declinedResponse("MODEL_SAFETY_BLOCKED", provider, "", details);
  return completeResponse(provider, parts, details);
}

/** The reasoning item as it must go back: its id, summaries and (with `include: ["reasoning.encrypted_content"]`) the encrypted reasoning. */
function reasoningItem(item: ResponseReasoningItem): ResponseReasoningItem {
  return { type: "reasoning", id: item.id, summary: item.summary, ...(item.encrypted_content ? { encrypted_content: item.encrypted_content } : {}) };
}

/** An annotation as a genai citation: URL citations with their span, file citations at their position. */
function citationOf(annotation: { type: string; [key: string]: unknown }, offset: number): Citation | undefined {
  if (annotation.type === "url_citation") {
    return { startIndex: offset + Number(annotation.start_index ?? 0), endIndex: offset + Number(annotation.end_index ?? 0), uri: String(annotation.url ?? ""), ...(annotation.title ? { title: String(annotation.title) } : {}) };
  }
  if (annotation.type === "file_citation" || annotation.type === "container_file_citation") {
    const index = offset + Number(annotation.index ?? annotation.start_index ?? 0);
    return { startIndex: index, endIndex: Number(annotation.end_index ?? index - offset) + offset, uri: String(annotation.file_id ?? ""), ...(annotation.filename ? { title: String(annotation.filename) } : {}) };
  }
  return undefined;
}


const compiledTools = new WeakMap<object, Map<boolean, FunctionTool>>();

function responsesTool(declaration: FunctionDeclaration, strict: boolean): FunctionTool {
  const key = declaration.parameters ?? declaration;
  let byStrictness = compiledTools.get(key);
  const cached = byStrictness?.get(strict);
  if (cached && cached.name === declaration.name && cached.description === declaration.description) return cached;
  const compiled = compileOpenAISchema(declaration.parameters, { strict });
  const tool: FunctionTool = { type: "function", name: declaration.name, description: declaration.description, parameters: compiled.schema, strict: strict && compiled.strict };
  if (!byStrictness) compiledTools.set(key, (byStrictness = new Map()));
  byStrictness.set(strict, tool);
  return tool;
}

/** The conversation as Responses input items. */
export function responsesInput(request: LlmRequest): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  // Results of custom-tool calls go back as custom-tool outputs.
  const customCalls = new Set<string>();
  for (const content of request.contents) {
    const role = content.role === "model" ? "assistant" : "user";
    let text = "";
    const images: { type: "input_image"; image_url: string; detail: "auto" }[] = [];
    for (const part of content.parts ?? []) {
      const reasoning = part.partMetadata?.openaiReasoning as ResponseReasoningItem | undefined;
      if (role === "assistant" && part.thought && reasoning?.type === "reasoning") items.push(reasoning);
      else if (role === "assistant" && typeof part.partMetadata?.phase === "string" && part.text) {
        // A message with a phase goes back as its own message, phase and all, so commentary stays apart from the answer.
        const content = part.text.startsWith(MESSAGE_SEPARATOR) ? part.text.slice(MESSAGE_SEPARATOR.length) : part.text;
        items.push({ type: "message", role: "assistant", content, phase: part.partMetadata.phase } as ResponseInputItem);
      } else if (part.text !== undefined && !part.thought) text += part.text;
      if (role === "user" && part.inlineData?.mimeType?.startsWith("image/")) images.push({ type: "input_image", image_url: `data:${part.inlineData.mimeType};base64,${part.inlineData.data}`, detail: "auto" });
      if (part.functionCall && part.partMetadata?.openaiItem === "custom_tool_call") {
        customCalls.add(part.functionCall.id ?? "");
        items.push({ type: "custom_tool_call", call_id: part.functionCall.id ?? "", name: part.functionCall.name ?? "", input: String(part.functionCall.args?.input ?? "") });
      } else if (part.functionCall) {
        items.push({ type: "function_call", call_id: part.functionCall.id ?? "", name: part.functionCall.name ?? "", arguments: JSON.stringify(part.functionCall.args ?? {}) });
      }
      if (part.functionResponse) {
        const callId = part.functionResponse.id ?? "";
        const output = JSON.stringify(part.functionResponse.response ?? {});
        items.push(customCalls.has(callId) ? { type: "custom_tool_call_output", call_id: callId, output } : { type: "function_call_output", call_id: callId, output });
      }
    }
    if (images.length > 0) items.push({ role: "user", content: [...(text ? [{ type: "input_text" as const, text }] : []), ...images] });
    else if (text) items.push({ role, content: text });
  }
  return items;
}

/** Usage in toolsmith's meaning: `output_tokens` include the reasoning, so the answer's count leaves it out. */
function usageOf(usage: ResponseUsage | undefined): { usage?: UsageMetadata; providerUsage?: unknown } {
  if (!usage) return {};
  return {
    usage: usageMetadata({ input: usage.input_tokens, output: usage.output_tokens, cachedInput: usage.input_tokens_details?.cached_tokens, reasoning: usage.output_tokens_details?.reasoning_tokens }),
    providerUsage: usage,
  };
}
