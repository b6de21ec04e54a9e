import { ToolsmithError, type ToolsmithErrorCode } from "../errors/toolsmith-error.js";

/** The provider's answer to a failed model call, as the adapter read it. */
export interface ModelProviderErrorDetails {
  /** `Gemini`, `OpenAI`, `Anthropic`, or the name of a compatible server. */
  provider: string;
  /** The HTTP status, or undefined when no response arrived (a dropped connection). */
  status: number | undefined;
  /** The provider's own message. */
  providerMessage: string;
  /** How long the provider asked us to wait before trying again, from `Retry-After` or its retry info. */
  retryAfterMs?: number;
}

/**
 * A model call the provider refused or could not serve. `code` is
 * `MODEL_BAD_REQUEST` (400 and other 4xx: fix the request), `MODEL_AUTH` (401/403:
 * check the API key), `MODEL_NOT_FOUND` (404: check the model name),
 * `MODEL_RATE_LIMITED` (429) or `MODEL_UNAVAILABLE` (5xx or no response),
 * the last two only once the retries are used up. In a run it becomes an error
 * event with this `errorCode` and message.
 */
export class ModelProviderError extends ToolsmithError {
  readonly provider: string;
  readonly status: number | undefined;
  readonly providerMessage: string;
  readonly retryAfterMs: number | undefined;

  constructor(details: ModelProviderErrorDetails, options?: { cause?: unknown; attempts?: number }) {
    const code = codeFor(details.status);
    const attempts = options?.attempts && options.attempts > 1 ? ` after ${options.attempts} attempts` : "";
    const what = details.status === undefined ? `${details.provider} could not be reached` : `${details.provider} answered ${details.status}`;
    super(code, `${what}${attempts}: ${details.providerMessage}${ADVICE[code]}`, options);
    this.provider = details.provider;
    this.status = details.status;
    this.providerMessage = details.providerMessage;
    this.retryAfterMs = details.retryAfterMs;
  }

  /** Whether trying again may succeed: rate limits, server errors and lost connections. */
  get retryable(): boolean {
    return this.status === undefined || this.status === 408 || this.status === 409 || this.status === 429 || this.status >= 500;
  }
}

const ADVICE: Record<ModelProviderErrorCode, string> = {
  MODEL_BAD_REQUEST: " (the provider refused the request; fix what its message names)",
  MODEL_AUTH: " (check the API key and its permissions)",
  MODEL_NOT_FOUND: " (check the model name and the base URL)",
  MODEL_RATE_LIMITED: " (rate limited; raise retry.maxRetries or slow down)",
  MODEL_UNAVAILABLE: " (the provider failed; try again later)",
};

function codeFor(status: number | undefined): ModelProviderErrorCode {
  if (status === undefined || status >= 500) return "MODEL_UNAVAILABLE";
  if (status === 429) return "MODEL_RATE_LIMITED";
  if (status === 401 || status === 403) return "MODEL_AUTH";
  if (status === 404) return "MODEL_NOT_FOUND";
  return "MODEL_BAD_REQUEST";
}

/** The codes a provider's refusal maps to. */
type ModelProviderErrorCode = Exclude<Extract<ToolsmithErrorCode, `MODEL_${string}`>, "MODEL_ERROR">;

/** Milliseconds from a `Retry-After` (seconds or an HTTP date) or `retry-after-ms` header. */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | undefined {
  const milliseconds = Number(headers?.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers?.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
