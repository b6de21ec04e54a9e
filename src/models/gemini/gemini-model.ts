import { ApiError, GoogleGenAI, type Content as GenaiContent, type FunctionDeclaration as GenaiFunctionDeclaration, type GenerateContentConfig as GenaiConfig, type GenerateContentResponse, type LiveConnectConfig as GenaiLiveConnectConfig, type Schema, type Tool as GenaiTool } from "@google/genai";
import type { Content, Part } from "../../content/content.js";
import type { FunctionDeclaration } from "../function-declaration.js";
import { definedOnly } from "../defined-only.js";
import { geminiBackend } from "./gemini-backend.js";
import { openGeminiLiveConnection } from "./gemini-live-connection.js";
import { withoutClientIds } from "./without-client-ids.js";
import type { BaseLlmConnection } from "../live-connection.js";
import type { LlmRequest } from "../llm-request.js";
import type { Citation, GroundingMetadata, LlmResponse, UsageMetadata } from "../llm-response.js";
import type { GenerateContentOptions, Model } from "../model.js";
import { ModelProviderError, parseRetryAfter } from "../model-provider-error.js";
import { completeResponse, declinedResponse, partialText } from "../model-response.js";
import { parseJsonOrUndefined, providerFunctionCall } from "../provider-function-call.js";
import { withRetries, type RetryOptions } from "../retry-policy.js";
import { compileGeminiSchema } from "../schema/compile-gemini-schema.js";

/** Options of {@link GeminiModel}. */
export interface GeminiModelOptions {
  /** `gemini-2.5-flash`, … */
  model: string;
  /** Default: the `GOOGLE_API_KEY`, `GEMINI_API_KEY` or `GOOGLE_GENAI_API_KEY` environment variable. */
  apiKey?: string;
  /**
   * Vertex AI instead of the Gemini API (as ADK's `vertexai`), with Google Cloud's application default credentials.
   * Default: the `GOOGLE_GENAI_USE_ENTERPRISE` (or older `GOOGLE_GENAI_USE_VERTEXAI`) environment variable.
   */
  vertexai?: boolean;
  /** Vertex AI's Google Cloud project. Default: `GOOGLE_CLOUD_PROJECT`. */
  project?: string;
  /** Vertex AI's location (`us-central1`, `global`, …). Default: `GOOGLE_CLOUD_LOCATION`. */
  location?: string;
  /** Headers sent with every request (as ADK's `headers`). */
  headers?: Record<string, string>;
  /** Default: `GOOGLE_GEMINI_BASE_URL` (on Vertex AI, `GOOGLE_VERTEX_BASE_URL`) or Google's endpoint. */
  baseURL?: string;
  retry?: RetryOptions;
  /**
   * A client you made yourself; the settings above but `retry` are then ignored. Live connections ({@link
   * GeminiModel.connect}) use it too, with the API version it was made with.
   */
  client?: GoogleGenAI;
  /**
   * How long {@link GeminiModel.connect} waits for Gemini to accept a live session's setup before it gives up
   * (`LIVE_CONNECTION_FAILED`) and closes the socket. Default 30 000 ms. ADK waits for ever.
   */
  liveSetupTimeoutMs?: number;
}

/** How long a live session's setup may take before connect gives up. */
const DEFAULT_LIVE_SETUP_TIMEOUT_MS = 30_000;

/**
 * Gemini through the Gemini API and Google's official SDK (`@google/genai`).
 * Contents already have Gemini's shape; tool schemas are compiled to the
 * OpenAPI subset Gemini accepts.
 *
 * @example
 * ```ts
 * const model = new GeminiModel({ model: "gemini-2.5-flash" }); // reads GOOGLE_API_KEY, GEMINI_API_KEY or GOOGLE_GENAI_API_KEY
 * ```
 */
export class GeminiModel implements Model {
  readonly name: string;
  /** `gcp.gemini`, or `gcp.vertex_ai` for a Vertex AI client, as spans name the provider. */
  readonly provider: string;
  readonly #client: GoogleGenAI;
  readonly #options: GeminiModelOptions;
  #liveClient: GoogleGenAI | undefined;

  constructor(options: GeminiModelOptions) {
    this.name = options.model;
    this.#options = options;
    this.#client = options.client ?? geminiClient(options);
    this.provider = this.#client.vertexai ? "gcp.vertex_ai" : "gcp.gemini";
  }

  generateContent(request: LlmRequest, options: GenerateContentOptions): AsyncIterable<LlmResponse> {
    // The SDK's error carries no headers, so a fetch wrapper keeps Retry-After of the last failed response.
    let retryAfterMs: number | undefined;
    const fetchKeepingRetryAfter: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!response.ok) retryAfterMs = parseRetryAfter(response.headers);
      return response;
    };
    return withRetries({
      provider: "Gemini",
      retry: this.#options.retry,
      abortSignal: options.abortSignal,
      attempt: () => {
        retryAfterMs = undefined;
        return this.#attempt(request, options, fetchKeepingRetryAfter);
      },
      toError: (error, attempts) => geminiError(error, attempts, retryAfterMs),
    });
  }

  /**
   * Opens a live (bidirectional) connection, as ADK's `Gemini.connect`: the session is set up with the request's
   * `liveConnectConfig`, its system instruction, and its tools (the function declarations, compiled as for
   * generateContent, beside Gemini's built-in tools of `config.tools`), for `request.model` or this model. Live
   * connections use the API version ADK uses for them (`v1alpha` on the Gemini API, `v1beta1` on Vertex AI), and on
   * the Gemini API `sessionResumption.transparent` (Vertex AI's alone) is left out. A connection that cannot be
   * opened rejects with `LIVE_CONNECTION_FAILED`.
   *
   * @example
   * ```ts
   * const model = new GeminiModel({ model: "gemini-live-2.5-flash" });
   * const connection = await model.connect({
   *   contents: [],
   *   systemInstruction: "Answer briefly.",
   *   functionDeclarations: [],
   *   config: {},
   *   liveConnectConfig: { responseModalities: ["TEXT"] },
   * });
   * await connection.sendContent({ role: "user", parts: [{ text: "Hello" }] });
   * for await (const response of connection.receive()) if (response.turnComplete) break;
   * await connection.close();
   * ```
   */
  async connect(request: LlmRequest): Promise<BaseLlmConnection> {
    const client = this.#liveClient ?? this.#options.client ?? geminiClient(this.#options, this.#client.vertexai ? "v1beta1" : "v1alpha");
    this.#liveClient = client;
    // A request written by hand for ADK may lack the declarations or the config; neither is required to connect.
    const declarations = (request.functionDeclarations ?? []).map(geminiDeclaration);
    const builtInTools = (request.config?.tools as GenaiTool[] | undefined) ?? [];
    const tools = [...(declarations.length > 0 ? [{ functionDeclarations: declarations }] : []), ...builtInTools];
    const { sessionResumption, ...settings } = request.liveConnectConfig ?? {};
    const resumption = sessionResumption && !client.vertexai ? withoutTransparent(sessionResumption) : sessionResumption;
    const config: GenaiLiveConnectConfig = {
      ...(settings as GenaiLiveConnectConfig),
      ...(resumption ? { sessionResumption: resumption } : {}),
      ...(request.systemInstruction ? { systemInstruction: { role: "system", parts: [{ text: request.systemInstruction }] } } : {}),
      ...(tools.length > 0 ? { tools } : {}),
    };
    return openGeminiLiveConnection({ client, model: request.model ?? this.name, config, request, setupTimeoutMs: this.#options.liveSetupTimeoutMs ?? DEFAULT_LIVE_SETUP_TIMEOUT_MS });
  }

  async *#attempt(request: LlmRequest, options: GenerateContentOptions, fetchFunction: typeof fetch): AsyncGenerator<LlmResponse> {
    const { maxOutputTokens, temperature, topP, topK, stopSequences, seed, candidateCount, systemInstruction: _system, tools: builtInTools, ...extra } = request.config;
    const declarations = request.functionDeclarations.map(geminiDeclaration);
    // Gemini's own tools (`{googleSearch: {}}`, `{codeExecution: {}}`, …) sit in config.tools, as in ADK; they go beside the declarations.
    const tools = [...(declarations.length > 0 ? [{ functionDeclarations: declarations }] : []), ...((builtInTools as GenaiTool[] | undefined) ?? [])];
    const config: GenaiConfig = {
      ...(extra as GenaiConfig),
      ...definedOnly({ maxOutputTokens, temperature, topP, topK, stopSequences, seed, candidateCount }),
      ...(request.systemInstruction ? { systemInstruction: request.systemInstruction } : {}),
      ...(tools.length > 0 ? { tools } : {}),
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      // A client you made may have its own fetch (a proxy, say); it is kept, and Retry-After then comes from Gemini's retry info.
      ...(this.#options.client ? {} : { httpOptions: { fetch: fetchFunction } }),
    };
    const parameters = { model: this.name, contents: request.contents.map(withoutClientIds) as GenaiContent[], config };
    if (!options.stream) {
      const response = await this.#client.models.generateContent(parameters);
      yield complete(request, [response]);
      return;
    }
    const chunks: GenerateContentResponse[] = [];
    for await (const chunk of await this.#client.models.generateContentStream(parameters)) {
      chunks.push(chunk);
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) if (part.text) yield partialText(part.text, part.thought === true);
    }
    yield complete(request, chunks);
  }
}

/**
 * The SDK's client for the backend the options and the environment give (see {@link geminiBackend}), at the SDK's
 * default API version unless one is given (live connections use their own).
 */
function geminiClient(options: GeminiModelOptions, apiVersion?: string): GoogleGenAI {
  const backend = geminiBackend(options);
  // For Vertex AI the SDK reads its own GOOGLE_VERTEX_BASE_URL; GOOGLE_GEMINI_BASE_URL is the Gemini API's.
  const baseUrl = options.baseURL || (backend.vertexai ? undefined : process.env.GOOGLE_GEMINI_BASE_URL);
  const httpOptions = baseUrl || options.headers || apiVersion ? { ...(baseUrl ? { baseUrl } : {}), ...(options.headers ? { headers: options.headers } : {}), ...(apiVersion ? { apiVersion } : {}) } : undefined;
  // The choice is made here, so the SDK reads no backend of its own from the environment.
  return backend.vertexai ? new GoogleGenAI({ vertexai: true, project: backend.project, location: backend.location, httpOptions }) : new GoogleGenAI({ vertexai: false, apiKey: backend.apiKey, httpOptions });
}

/** Gemini's finish reasons for an answer its filters stopped. */
const BLOCKED = new Set(["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION"]);

/**
 * The complete response from one response or from streamed chunks: texts
 * joined, calls in order, the last usage (its raw figures kept in
 * `customMetadata.providerUsage`), grounding and citations. A blocked prompt,
 * or an answer stopped by a filter before any content, is an error response
 * (`MODEL_SAFETY_BLOCKED`) as in ADK, with Gemini's reason and message.
 */
function complete(request: LlmRequest, chunks: GenerateContentResponse[]): LlmResponse {
  const parts: Part[] = [];
  let finishReason: string | undefined;
  let finishMessage: string | undefined;
  let usage: GenerateContentResponse["usageMetadata"];
  let groundingMetadata: GroundingMetadata | undefined;
  const citations: Citation[] = [];
  for (const chunk of chunks) {
    const candidate = chunk.candidates?.[0];
    if (candidate?.finishReason) finishReason = candidate.finishReason;
    if (candidate?.finishMessage) finishMessage = candidate.finishMessage;
    if (candidate?.groundingMetadata) groundingMetadata = candidate.groundingMetadata;
    for (const citation of candidate?.citationMetadata?.citations ?? []) citations.push(definedOnly({ startIndex: citation.startIndex, endIndex: citation.endIndex, uri: citation.uri, title: citation.title, license: citation.license }));
    if (chunk.usageMetadata) usage = chunk.usageMetadata;
    for (const part of candidate?.content?.parts ?? []) {
      const last = parts[parts.length - 1];
      if (part.functionCall) {
        const call = providerFunctionCall(request, { ...(part.functionCall.id ? { id: part.functionCall.id } : {}), name: part.functionCall.name ?? "", args: part.functionCall.args ?? {} });
        parts.push({ functionCall: call, ...(part.thoughtSignature ? { thoughtSignature: part.thoughtSignature } : {}) });
      } else if (part.text !== undefined) {
        if (last?.text !== undefined && Boolean(last.thought) === Boolean(part.thought) && !part.thoughtSignature) last.text += part.text;
        else parts.push({ text: part.text, ...(part.thought ? { thought: true } : {}), ...(part.thoughtSignature ? { thoughtSignature: part.thoughtSignature } : {}) });
      } else if (part.inlineData?.data && part.inlineData.mimeType) {
        parts.push({ inlineData: { data: part.inlineData.data, mimeType: part.inlineData.mimeType } });
      } else if (part.executableCode) {
        parts.push({ executableCode: part.executableCode });
      } else if (part.codeExecutionResult) {
        parts.push({ codeExecutionResult: part.codeExecutionResult });
      }
    }
  }
  const details = { ...(finishReason ? { finishReason } : {}), ...(usage ? { usage: usageOf(usage), providerUsage: usage } : {}), citations };
  const feedback = chunks.at(-1)?.promptFeedback;
  if (feedback?.blockReason && parts.length === 0) {
    return declinedResponse("MODEL_SAFETY_BLOCKED", "Gemini", `the prompt was blocked (${String(feedback.blockReason)})${feedback.blockReasonMessage ? `: ${feedback.blockReasonMessage}` : ""}`, details);
  }
  if (finishReason && BLOCKED.has(finishReason) && parts.every((part) => part.thought)) {
    return declinedResponse("MODEL_SAFETY_BLOCKED", "Gemini", `the answer was stopped (${finishReason})${finishMessage ? `: ${finishMessage}` : ""}`, details);
  }
  const response = completeResponse("Gemini", parts, details);
  return groundingMetadata ? { ...response, groundingMetadata } : response;
}

const compiledDeclarations = new WeakMap<object, { compiled: GenaiFunctionDeclaration; response: FunctionDeclaration["response"] }>();

/** A declaration as Gemini takes it: its parameters and, when the tool says what it answers, its response in Gemini's schema. */
function geminiDeclaration(declaration: FunctionDeclaration): GenaiFunctionDeclaration {
  const key = declaration.parameters ?? declaration;
  const cached = compiledDeclarations.get(key);
  if (cached && cached.compiled.name === declaration.name && cached.compiled.description === declaration.description && cached.response === declaration.response) return cached.compiled;
  const { schema } = compileGeminiSchema(declaration.parameters);
  const response = declaration.response ? compileGeminiSchema(declaration.response).schema : undefined;
  const compiled: GenaiFunctionDeclaration = { name: declaration.name, description: declaration.description, ...(schema ? { parameters: schema as Schema } : {}), ...(response ? { response: response as Schema } : {}) };
  compiledDeclarations.set(key, { compiled, response: declaration.response });
  return compiled;
}

/** Session resumption without `transparent`, which the Gemini API refuses (the SDK throws when it is set). */
function withoutTransparent(resumption: { handle?: string; transparent?: boolean }): { handle?: string } {
  const { transparent: _transparent, ...rest } = resumption;
  return rest;
}

/** The google.rpc details Gemini puts in an error: ErrorInfo's `reason`, RetryInfo's `retryDelay`, QuotaFailure's `violations`. */
interface GoogleRpcDetail {
  reason?: string;
  retryDelay?: string;
  violations?: { quotaId?: string; quotaMetric?: string }[];
}

function geminiError(error: unknown, attempts: number, retryAfterMs: number | undefined): ModelProviderError | undefined {
  if (error instanceof ApiError) {
    // An error over HTTP has the body as its message; one sent inside a stream has "got status: …. " before it.
    const body = (parseJsonOrUndefined(error.message) ?? parseJsonOrUndefined(error.message.slice(Math.max(0, error.message.indexOf("{"))))) as { error?: { message?: string; status?: string; details?: GoogleRpcDetail[] } } | undefined;
    const details = body?.error?.details ?? [];
    // The ErrorInfo reason (API_KEY_INVALID) is more exact than the status (INVALID_ARGUMENT).
    const reason = details.find((detail) => typeof detail.reason === "string")?.reason;
    const providerCode = reason === "API_KEY_INVALID" ? reason : body?.error?.status;
    const retryDelay = details.find((detail) => typeof detail.retryDelay === "string")?.retryDelay;
    const fromRetryInfo = retryDelay && /^\d+(\.\d+)?s$/.test(retryDelay) ? Number.parseFloat(retryDelay) * 1000 : undefined;
    // A QuotaFailure naming a per-day quota is not a rate limit, whatever RetryInfo says: retrying within minutes cannot pass.
    const dailyQuotaId = details.flatMap((detail) => detail.violations ?? []).find((violation) => /PerDay/.test(violation.quotaId ?? ""))?.quotaId;
    return new ModelProviderError(
      { provider: "Gemini", status: error.status, providerMessage: body?.error?.message ?? error.message, retryAfterMs: retryAfterMs ?? fromRetryInfo, ...(providerCode ? { providerCode } : {}), ...(dailyQuotaId ? { dailyQuotaId } : {}) },
      { cause: error, attempts },
    );
  }
  return undefined;
}

/** Gemini's counts already have toolsmith's meaning (its total also counts tool-use prompts and is kept as sent). */
function usageOf(usage: NonNullable<GenerateContentResponse["usageMetadata"]>): UsageMetadata {
  return definedOnly({
    promptTokenCount: usage.promptTokenCount,
    candidatesTokenCount: usage.candidatesTokenCount,
    totalTokenCount: usage.totalTokenCount,
    thoughtsTokenCount: usage.thoughtsTokenCount,
    cachedContentTokenCount: usage.cachedContentTokenCount,
  });
}

