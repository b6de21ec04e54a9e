import Anthropic from "@anthropic-ai/sdk";
import type { ContentBlockParam, MessageCreateParamsNonStreaming, MessageParam, Tool as AnthropicTool, Usage } from "@anthropic-ai/sdk/resources/messages/messages";
import type { Part } from "../../content/content.js";
import type { FunctionDeclaration } from "../function-declaration.js";
import { requireApiKey } from "../api-key.js";
import type { LlmRequest } from "../llm-request.js";
import type { Citation, LlmResponse, UsageMetadata } from "../llm-response.js";
import type { GenerateContentOptions, Model } from "../model.js";
import { completeResponse, declinedResponse, partialText, type UnhandledOutput } from "../model-response.js";
import { usageMetadata } from "../usage.js";
import { parseJsonOrUndefined, providerFunctionCall } from "../provider-function-call.js";
import { withRetries, type RetryOptions } from "../retry-policy.js";
import { compileAnthropicSchema } from "../schema/compile-anthropic-schema.js";
import { providerErrorFromSdk } from "../sdk-error.js";
import { refuseGeminiBuiltInTools } from "../gemini-built-in-tools.js";

/** Options of {@link AnthropicModel}. */
export interface AnthropicModelOptions {
  /** `claude-sonnet-4-6`, … */
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
 * const model = new AnthropicModel({ model: "claude-sonnet-4-6" }); // reads ANTHROPIC_API_KEY
 * ```
 */
export class AnthropicModel implements Model {
  readonly name: string;
  /** `anthropic`, as spans name the provider. */
  readonly provider = "anthropic";
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
      yield anthropicAnswer(request, message.content as unknown as ReceivedBlock[], message.stop_reason, message.usage);
      return;
    }
    const stream = await this.#client.messages.create({ ...body, stream: true }, requestOptions);
    // Blocks by index, as the non-streamed message would have them; tool input arrives as pieces of JSON text.
    const blocks: ReceivedBlock[] = [];
    const inputText = new Map<number, string>();
    let usage: Partial<Usage> = {};
    let stopReason: string | null = null;
    for await (const event of stream) {
      switch (event.type) {
        case "message_start":
          usage = { ...event.message.usage };
          break;
        case "content_block_start":
          blocks[event.index] = structuredClone(event.content_block) as unknown as ReceivedBlock;
          break;
        case "content_block_delta": {
          const block = blocks[event.index];
          if (!block) break;
          const delta = event.delta;
          if (delta.type === "text_delta") {
            block.text = (block.text ?? "") + delta.text;
            yield partialText(delta.text);
          } else if (delta.type === "thinking_delta") {
            block.thinking = (block.thinking ?? "") + delta.thinking;
            yield partialText(delta.thinking, true);
          } else if (delta.type === "signature_delta") block.signature = (block.signature ?? "") + delta.signature;
          else if (delta.type === "input_json_delta") inputText.set(event.index, (inputText.get(event.index) ?? "") + delta.partial_json);
          else if (delta.type === "citations_delta") block.citations = [...(block.citations ?? []), delta.citation];
          else if ((delta as { type: string }).type === "compaction_delta") addCompaction(block, delta as unknown as CompactionDelta);
          break;
        }
        case "message_delta":
          stopReason = event.delta.stop_reason;
          // The usage is cumulative, and may be absent (the documented thinking example has none).
          usage = { ...usage, ...(definedOnly(event.usage ?? {}) as Partial<Usage>) };
          break;
      }
    }
    // Streamed input is JSON text: tool calls read it as arguments, server tool blocks get it back as their input.
    for (const [index, text] of inputText) {
      const block = blocks[index];
      if (block) block.input = block.type === "tool_use" ? text : (parseJsonOrUndefined(text) ?? {});
    }
    yield anthropicAnswer(request, blocks.filter(Boolean), stopReason, usage);
  }
}

/** A piece of a compaction block (beta `compact-2026-01-12`): the summary text, and opaque metadata to send back verbatim. */
interface CompactionDelta {
  content?: string | null;
  encrypted_content?: string | null;
}

/**
 * Adds a compaction delta to its block, so the block goes back to Claude with
 * its summary: a compaction block sent back without content is a no-op to
 * Claude, and the conversation it replaced would be lost.
 */
function addCompaction(block: ReceivedBlock, delta: CompactionDelta): void {
  if (typeof delta.content === "string") block.content = (typeof block.content === "string" ? block.content : "") + delta.content;
  if (typeof delta.encrypted_content === "string") block.encrypted_content = (typeof block.encrypted_content === "string" ? block.encrypted_content : "") + delta.encrypted_content;
}

/** A content block as received: the SDK's blocks, and any type a newer API sends. */
interface ReceivedBlock {
  type: string;
  text?: string;
  citations?: AnthropicCitation[] | null;
  thinking?: string;
  signature?: string;
  data?: string;
  id?: string;
  name?: string;
  input?: unknown;
  [key: string]: unknown;
}

/** One of Claude's citations: where in a document or search result the text comes from. */
interface AnthropicCitation {
  type: string;
  cited_text?: string;
  url?: string;
  title?: string | null;
  document_title?: string | null;
  source?: string;
}

/** Block types that are Claude's answer and reasoning; any other (server tool use and results, compaction, …) is kept opaque. */
const MAPPED_BLOCKS = new Set(["text", "thinking", "redacted_thinking", "tool_use"]);

/**
 * The complete response from Claude's content blocks: text (its citations
 * as genai citations), signed and redacted thinking, tool calls. Blocks
 * toolsmith does not interpret (`server_tool_use`, `web_search_tool_result`,
 * `compaction`, …) become opaque parts that go back to Claude as they came,
 * and are listed in `customMetadata.unhandledOutput`. A refusal is an error
 * response quoting what Claude said.
 */
function anthropicAnswer(request: LlmRequest, blocks: ReceivedBlock[], stopReason: string | null, usage: Partial<Usage>): LlmResponse {
  const parts: Part[] = [];
  const citations: Citation[] = [];
  const providerCitations: unknown[] = [];
  const unhandled: UnhandledOutput[] = [];
  let textLength = 0;
  for (const block of blocks) {
    if (block.type === "text") {
      const text = block.text ?? "";
      for (const citation of block.citations ?? []) {
        providerCitations.push(citation);
        citations.push({ startIndex: textLength, endIndex: textLength + text.length, ...citationSource(citation) });
      }
      textLength += text.length;
      const last = parts[parts.length - 1];
      // Claude splits cited text into several blocks; the answer reads as one text.
      if (last?.text !== undefined && !last.thought && !last.partMetadata) last.text += text;
      else if (text) parts.push({ text });
    } else if (block.type === "thinking") parts.push({ text: block.thinking ?? "", thought: true, ...(block.signature ? { thoughtSignature: block.signature } : {}) });
    else if (block.type === "redacted_thinking") parts.push({ text: "", thought: true, partMetadata: { anthropicBlock: { type: "redacted_thinking", data: block.data } } });
    else if (block.type === "tool_use") parts.push({ functionCall: providerFunctionCall(request, { id: block.id, name: block.name ?? "", args: block.input ?? {} }) });
    else {
      unhandled.push({ type: block.type, item: block });
      parts.push({ partMetadata: { anthropicBlock: block } });
    }
  }
  const details = { finishReason: finishReason(stopReason), ...usageOf(usage), citations, providerCitations, unhandled };
  if (stopReason === "refusal") {
    const said = parts.filter((part) => part.text && !part.thought).map((part) => part.text).join("");
    return declinedResponse("MODEL_REFUSED", "Anthropic", said, details);
  }
  // Thinking with no text is dropped only when unsigned and empty: signed or redacted thinking must go back to Claude.
  const kept = parts.filter((part) => part.text !== "" || part.thoughtSignature || part.partMetadata || part.functionCall);
  return completeResponse("Anthropic", kept, details);
}

function citationSource(citation: AnthropicCitation): Pick<Citation, "uri" | "title"> {
  const title = citation.title ?? citation.document_title ?? undefined;
  const uri = citation.url ?? citation.source;
  return { ...(uri ? { uri } : {}), ...(title ? { title } : {}) };
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

/**
 * The conversation as alternating user and assistant messages; tool results go
 * back as `tool_result` blocks. From Claude's last compaction block on: the
 * block stands for everything before it, and Claude wants it first in the
 * conversation and alone (the session still holds the whole history).
 */
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
  return fromLastCompaction(messages);
}

function fromLastCompaction(messages: MessageParam[]): MessageParam[] {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "assistant") continue;
    const blocks = message.content as ContentBlockParam[];
    // A compaction without content (a failed one) is a no-op to Claude: it does not replace what came before.
    const at = blocks.findLastIndex((block) => (block as { type: string }).type === "compaction" && typeof (block as { content?: unknown }).content === "string");
    if (at >= 0) return [{ role: "assistant", content: blocks.slice(at) }, ...messages.slice(index + 1)];
  }
  return messages;
}

function toBlocks(part: Part, role: "user" | "assistant"): ContentBlockParam[] {
  const opaque = part.partMetadata?.anthropicBlock;
  if (opaque) return role === "assistant" ? [opaque as ContentBlockParam] : [];
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

/**
 * Usage in toolsmith's meaning: Claude's `input_tokens` leave out the tokens
 * read from and written to the cache, so the input is their sum. Its
 * `output_tokens` include thinking, which it does not count apart.
 */
function usageOf(usage: Partial<Usage>): { usage?: UsageMetadata; providerUsage?: unknown } {
  if (usage.input_tokens === undefined && usage.output_tokens === undefined) return {};
  const cached = usage.cache_read_input_tokens ?? 0;
  return {
    usage: usageMetadata({ input: (usage.input_tokens ?? 0) + cached + (usage.cache_creation_input_tokens ?? 0), cachedInput: cached, output: usage.output_tokens ?? 0 }),
    providerUsage: usage,
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== null && entry !== undefined)) as Partial<T>;
}

