import { ModelProviderError } from "./model-provider-error.js";

/**
 * How a model adapter retries a failed call. Rate limits (429), server errors
 * (5xx) and lost connections are retried with exponential backoff and full
 * jitter, waiting at least what the provider's `Retry-After` asks. toolsmith
 * does the retrying itself (the SDKs' own retries are turned off) so every
 * provider behaves the same.
 */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** The backoff before the first retry, doubled each time. Default 500 ms. */
  initialDelayMs?: number;
  /** The longest backoff. Default 30 s. */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the call fails at once. Default 60 s. */
  maxRetryAfterMs?: number;
}

/** The delay before retry number `retry` (0-based), honouring the provider's request. */
export function retryDelay(options: RetryOptions, retry: number, retryAfterMs: number | undefined, random = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs ?? 30_000, (options.initialDelayMs ?? 500) * 2 ** retry);
  const backoff = ceiling / 2 + random() * (ceiling / 2);
  return Math.max(backoff, retryAfterMs ?? 0);
}

/**
 * Runs a streaming call, retrying it while it fails retryably and before it
 * has yielded anything (a stream cut midway is not replayed, since its
 * chunks are already out). `toError` turns an SDK error into a
 * {@link ModelProviderError}, or returns undefined for errors that are not the
 * provider's (an abort, a bug).
 */
export async function* withRetries<T>(options: {
  /** The provider's name, for errors about lost connections. */
  provider: string;
  retry: RetryOptions | undefined;
  abortSignal: AbortSignal | undefined;
  attempt: () => AsyncIterable<T>;
  toError: (error: unknown, attempts: number) => ModelProviderError | undefined;
}): AsyncGenerator<T> {
  const retry = options.retry ?? {};
  const maxRetries = retry.maxRetries ?? 2;
  for (let attempt = 0; ; attempt++) {
    let yielded = false;
    try {
      for await (const item of options.attempt()) {
        yielded = true;
        yield item;
      }
      return;
    } catch (error) {
      if (options.abortSignal?.aborted) throw options.abortSignal.reason ?? error;
      const failure = options.toError(error, attempt + 1) ?? lostConnection(error, options.provider, attempt + 1);
      if (!failure) throw error;
      const waitMs = retryDelay(retry, attempt, failure.retryAfterMs);
      const tooLong = failure.retryAfterMs !== undefined && failure.retryAfterMs > (retry.maxRetryAfterMs ?? 60_000);
      if (yielded || !failure.retryable || attempt >= maxRetries || tooLong) throw failure;
      await sleep(waitMs, options.abortSignal);
    }
  }
}

const CONNECTION_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "UND_ERR_SOCKET"]);

/** fetch failing outright or a response body cut off (undici's "fetch failed" and "terminated"), as a retryable error. */
function lostConnection(error: unknown, provider: string, attempts: number): ModelProviderError | undefined {
  if (!(error instanceof TypeError)) return undefined;
  const cause = error.cause as { code?: string; message?: string } | undefined;
  if (error.message !== "terminated" && error.message !== "fetch failed" && !CONNECTION_CODES.has(cause?.code ?? "")) return undefined;
  const detail = cause?.message ?? cause?.code ?? error.message;
  return new ModelProviderError({ provider, status: undefined, providerMessage: `the connection was lost (${detail})` }, { cause: error, attempts });
}

/** Waits `milliseconds`; rejects with the signal's reason as soon as `signal` aborts (at once when it already has). */
export function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
