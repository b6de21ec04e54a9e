import type OpenAI from "openai";
import type { FunctionTool, ResponseCreateParamsNonStreaming, ResponseInputItem, ResponseOutputItem, ResponseUsage } from "openai/resources/responses/responses";
import type { FunctionDeclaration } from "../function-declaration.js";
import type { LlmRequest } from "../llm-request.js";
import type { LlmResponse, UsageMetadata } from "../llm-response.js";
import type { GenerateContentOptions, Model } from "../model.js";
import { ModelProviderError } from "../model-provider-error.js";
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
      yield this.#complete(request, response.output, response.status, response.usage);
      return;
    }
    const stream = await this.#client.responses.create({ ...body, stream: true }, requestOptions);
    // Items by output index, with function-call arguments assembled from their deltas.
    const items: ResponseOutputItem[] = [];
    const argumentsByIndex = new Map<number, string>();
    for await (const event of stream) {
      switch (event.type) {
        case "response.output_text.delta":
          yield partialText(event.delta);
          break;
        case "response.output_item.added":
        case "response.output_item.done":
          items[event.output_index] = event.item;
          break;
        case "response.function_call_arguments.delta":
          argumentsByIndex.set(event.output_index, (argumentsByIndex.get(event.output_index) ?? "") + event.delta);
          break;
        case "response.completed":
        case "response.incomplete": {
          const assembled = items.map((item, index) => (item?.type === "function_call" && !item.arguments ? { ...item, arguments: argumentsByIndex.get(index) ?? "" } : item));
          const output = event.response.output.length > 0 ? event.response.output : assembled.filter(Boolean);
          yield this.#complete(request, output, event.response.status, event.response.usage);
          return;
        }
        case "response.failed":
        case "error": {
          const failure = event.type === "error" ? event : (event.response.error ?? { code: "failed", message: "the response failed" });
          throw new ModelProviderError({ provider, status: undefined, providerMessage: `${failure.message} (${String(failure.code ?? "error")})` });
        }
      }
    }
    throw new ModelProviderError({ provider, status: undefined, providerMessage: "the stream ended before response.completed" });
  }

  #complete(request: LlmRequest, output: ResponseOutputItem[], status: string | undefined, usage: ResponseUsage | undefined): LlmResponse {
    let text = "";
    const calls = [];
    for (const item of output) {
      if (item.type === "message") for (const part of item.content) if (part.type === "output_text") text += part.text;
      if (item.type === "function_call") calls.push(providerFunctionCall(request, { id: item.call_id, name: item.name, args: item.arguments }));
    }
    return modelResponse({ text, functionCalls: calls, finishReason: status === "incomplete" ? "MAX_TOKENS" : "STOP", usage: usageOf(usage) });
  }
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
  for (const content of request.contents) {
    const role = content.role === "model" ? "assistant" : "user";
    let text = "";
    const images: { type: "input_image"; image_url: string; detail: "auto" }[] = [];
    for (const part of content.parts ?? []) {
      if (part.text !== undefined && !part.thought) text += part.text;
      if (role === "user" && part.inlineData?.mimeType?.startsWith("image/")) images.push({ type: "input_image", image_url: `data:${part.inlineData.mimeType};base64,${part.inlineData.data}`, detail: "auto" });
      if (part.functionCall) {
        items.push({ type: "function_call", call_id: part.functionCall.id ?? "", name: part.functionCall.name ?? "", arguments: JSON.stringify(part.functionCall.args ?? {}) });
      }
      if (part.functionResponse) items.push({ type: "function_call_output", call_id: part.functionResponse.id ?? "", output: JSON.stringify(part.functionResponse.response ?? {}) });
    }
    if (images.length > 0) items.push({ role: "user", content: [...(text ? [{ type: "input_text" as const, text }] : []), ...images] });
    else if (text) items.push({ role, content: text });
  }
  return items;
}

function usageOf(usage: ResponseUsage | undefined): UsageMetadata | undefined {
  if (!usage) return undefined;
  return {
    promptTokenCount: usage.input_tokens,
    candidatesTokenCount: usage.output_tokens,
    totalTokenCount: usage.total_tokens,
    ...(usage.output_tokens_details?.reasoning_tokens ? { thoughtsTokenCount: usage.output_tokens_details.reasoning_tokens } : {}),
    ...(usage.input_tokens_details?.cached_tokens ? { cachedContentTokenCount: usage.input_tokens_details.cached_tokens } : {}),
  };
}
