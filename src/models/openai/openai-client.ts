import OpenAI from "openai";
import { requireApiKey } from "../api-key.js";
import { parseJsonOrUndefined } from "../provider-function-call.js";
import type { OpenAIModelOptions } from "./openai-model-options.js";

/**
 * The SDK client for the options. The SDK's own retries are off
 * (`maxRetries: 0`): toolsmith retries itself, the same way for every provider.
 */
export function createOpenAIClient(options: OpenAIModelOptions): OpenAI {
  if (options.client) return options.client;
  const baseURL = options.baseURL || process.env.OPENAI_BASE_URL;
  // Local servers take any key, and the SDK refuses to start without one.
  const apiKey = options.baseURL ? (options.apiKey || process.env.OPENAI_API_KEY || "not-needed") : requireApiKey({ apiKey: options.apiKey, provider: "OpenAI" });
  return new OpenAI({ apiKey, ...(baseURL ? { baseURL } : {}), maxRetries: 0, ...(options.baseURL ? { fetch: fetchWrappingBareErrors } : {}) });
}

/**
 * Some compatible servers (vLLM's `ErrorResponse`) answer an error with the
 * error's fields at the top of the body, where OpenAI wraps them in `error`;
 * the SDK then loses the message. Such a body is wrapped before the SDK reads it.
 */
const fetchWrappingBareErrors: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.ok || !response.headers.get("content-type")?.includes("json")) return response;
  const text = await response.text();
  const body = parseJsonOrUndefined(text);
  const bare = typeof body === "object" && body !== null && !("error" in body) && typeof (body as { message?: unknown }).message === "string";
  return new Response(bare ? JSON.stringify({ error: body }) : text, { status: response.status, statusText: response.statusText, headers: response.headers });
};

/** The provider name used in errors. */
export function openAIProviderName(options: OpenAIModelOptions): string {
  return options.providerName ?? (options.baseURL ? "OpenAI-compatible server" : "OpenAI");
}

/** Providers known by their API's host, named as OpenTelemetry's `gen_ai.provider.name` names them. */
const PROVIDERS_BY_HOST: ReadonlyArray<readonly [RegExp, string]> = [
  [/(^|\.)deepseek\.com$/, "deepseek"],
  [/(^|\.)mistral\.ai$/, "mistral_ai"],
  [/(^|\.)groq\.com$/, "groq"],
  [/(^|\.)x\.ai$/, "x_ai"],
  [/(^|\.)perplexity\.ai$/, "perplexity"],
  [/\.openai\.azure\.com$/, "azure.ai.openai"],
];

/**
 * The provider as spans and metrics name it: `openai`, a provider known by
 * its host (`deepseek`, `mistral_ai`, …), `ollama`; other servers that speak
 * OpenAI's format are `openai`, the API they speak.
 */
export function openAITelemetryProvider(options: OpenAIModelOptions): string {
  if (options.providerName === "Ollama") return "ollama";
  if (!options.baseURL) return "openai";
  let host = "";
  try {
    host = new URL(options.baseURL).hostname;
  } catch {
    return "openai";
  }
  return PROVIDERS_BY_HOST.find(([pattern]) => pattern.test(host))?.[1] ?? "openai";
}

/** Whether tools go out with `strict: true`. */
export function openAIStrict(options: OpenAIModelOptions): boolean {
  return options.strict ?? !options.baseURL;
}
