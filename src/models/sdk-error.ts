import { isKnownProviderCode, ModelProviderError, parseRetryAfter } from "./model-provider-error.js";

interface SdkErrorShape {
  name?: string;
  status?: number;
  headers?: { get(name: string): string | null };
  error?: { message?: unknown; type?: unknown; code?: unknown; error?: { message?: unknown; type?: unknown; details?: { error_code?: unknown } } };
  apiMessage?: string | null;
  /** OpenAI's error `code` and `type`; Anthropic's error `type` and `errorCode` (from `details.error_code`). */
  code?: unknown;
  type?: unknown;
  errorCode?: unknown;
  message?: string;
}

/**
 * Reads an error thrown by the OpenAI or Anthropic SDK (both have `status`,
 * `headers` and the response body in `error`) as a {@link ModelProviderError}.
 * An error the provider sent inside a stream (no status, a body naming it:
 * Anthropic's `overloaded_error`, an OpenAI `server_error` chunk) is one too.
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
  const sentInStream = kind === "APIError" && typeof shape.error === "object" && shape.error !== null;
  if (typeof shape.status !== "number" && !isConnection && !sentInStream) return undefined;
  const body = shape.error;
  const message = shape.apiMessage ?? stringOrUndefined(body?.message) ?? stringOrUndefined(body?.error?.message) ?? shape.message ?? "no message";
  const names = [shape.errorCode, body?.error?.details?.error_code, shape.code, shape.type, body?.code, body?.error?.type, body?.type].filter(
    (value): value is string => typeof value === "string" && value !== "" && value !== "error",
  );
  // OpenAI sends a specific `code` beside a general `type`: the code names the error, and the type classifies it when toolsmith does not know the code.
  const providerCode = names[0];
  const providerType = names.find((name) => name !== providerCode && isKnownProviderCode(name));
  return new ModelProviderError(
    {
      provider,
      status: typeof shape.status === "number" ? shape.status : undefined,
      providerMessage: message,
      retryAfterMs: parseRetryAfter(shape.headers),
      ...(providerCode && !isConnection ? { providerCode } : {}),
      ...(providerType && !isConnection ? { providerType } : {}),
    },
    { cause: error, attempts },
  );
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
