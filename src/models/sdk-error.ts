import { ModelProviderError, parseRetryAfter } from "./model-provider-error.js";

interface SdkErrorShape {
  name?: string;
  status?: number;
  headers?: { get(name: string): string | null };
  error?: { message?: unknown; error?: { message?: unknown } };
  apiMessage?: string | null;
  message?: string;
}

/**
 * Reads an error thrown by the OpenAI or Anthropic SDK (both have `status`,
 * `headers` and the response body in `error`) as a {@link ModelProviderError}.
 * Returns undefined for errors that are not the provider's answer: an abort,
 * or a bug in our own code.
 */
export function providerErrorFromSdk(error: unknown, provider: string, attempts: number): ModelProviderError | undefined {
  // An adapter may already have classified the failure itself (a stream that broke mid-way, say).
  if (error instanceof ModelProviderError) return error;
  if (typeof error !== "object" || error === null) return undefined;
  const shape = error as SdkErrorShape;
  // The SDKs do not all set `name`; the class name tells the error kinds apart.
  const kind = error.constructor?.name ?? shape.name;
  if (kind === "APIUserAbortError" || shape.name === "AbortError") return undefined;
  const isConnection = kind === "APIConnectionError" || kind === "APIConnectionTimeoutError";
  if (typeof shape.status !== "number" && !isConnection) return undefined;
  const body = shape.error;
  const message = shape.apiMessage ?? stringOrUndefined(body?.message) ?? stringOrUndefined(body?.error?.message) ?? shape.message ?? "no message";
  return new ModelProviderError(
    { provider, status: typeof shape.status === "number" ? shape.status : undefined, providerMessage: message, retryAfterMs: parseRetryAfter(shape.headers) },
    { cause: error, attempts },
  );
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
