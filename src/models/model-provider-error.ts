import { ToolsmithError } from "../errors/toolsmith-error.js";

/** The provider's answer to a failed model call, as the adapter read it. */
export interface ModelProviderErrorDetails {
  /** `Gemini`, `OpenAI`, `Anthropic`, or the name of a compatible server. */
  provider: string;
  /** The HTTP status, or undefined when no response arrived (a dropped connection). */
  status: number | undefined;
  /** The provider's own message. */
  providerMessage: string;
  /**
   * The provider's name for the error, when it gave one: the error `type` or
   * `code` (`overloaded_error`, `insufficient_quota`, `RESOURCE_EXHAUSTED`, …).
   * It decides the classification where the status cannot: errors sent inside
   * a stream have no status, and a 429 may be a quota rather than a rate limit.
   */
  providerCode?: string;
  /** The provider's general error type when `providerCode` is a more specific name toolsmith may not know (`invalid_request_error` beside `context_length_exceeded`). */
  providerType?: string;
  /** How long the provider asked us to wait before trying again, from `Retry-After` or its retry info. */
  retryAfterMs?: number;
  /**
   * The id of a per-day quota the provider says is used up (Gemini's
   * QuotaFailure `quotaId`, `GenerateRequestsPerDayPerProjectPerModel`). It
   * makes the error `MODEL_QUOTA_EXCEEDED`, not retried: no retry within
   * minutes can pass before the quota resets.
   */
  dailyQuotaId?: string;
}

/**
 * A model call the provider refused or could not serve. `code` is
 * `MODEL_BAD_REQUEST` (400 and other 4xx: fix the request), `MODEL_AUTH` (401/403:
 * check the API key), `MODEL_NOT_FOUND` (404: check the model name),
 * `MODEL_QUOTA_EXCEEDED` (the account is out of credit or quota, whatever the
 * status: not retried), `MODEL_RATE_LIMITED` (429) or `MODEL_UNAVAILABLE` (5xx,
 * an overload, an error inside the stream, or no response), the last two only
 * once the retries are used up. In a run it becomes an error event with this
 * `errorCode` and message.
 */
export class ModelProviderError extends ToolsmithError {
  readonly provider: string;
  readonly status: number | undefined;
  readonly providerMessage: string;
  readonly retryAfterMs: number | undefined;
  readonly providerCode: string | undefined;
  readonly providerType: string | undefined;
  readonly dailyQuotaId: string | undefined;

  constructor(details: ModelProviderErrorDetails, options?: { cause?: unknown; attempts?: number }) {
    const code = classify(details);
    const attempts = options?.attempts && options.attempts > 1 ? ` after ${options.attempts} attempts` : "";
    const what =
      details.status !== undefined ? `${details.provider} answered ${details.status}` : details.providerCode ? `${details.provider} sent an error in its stream` : `${details.provider} could not be reached`;
    const named = details.providerCode && !details.providerMessage.includes(details.providerCode) ? ` (${details.providerCode})` : "";
    const advice = details.dailyQuotaId ? dailyQuotaAdvice(details.dailyQuotaId) : ADVICE[code];
    super(code, `${what}${attempts}: ${details.providerMessage}${named}${advice}`, options);
    this.provider = details.provider;
    this.status = details.status;
    this.providerMessage = details.providerMessage;
    this.retryAfterMs = details.retryAfterMs;
    this.providerCode = details.providerCode;
    this.providerType = details.providerType;
    this.dailyQuotaId = details.dailyQuotaId;
  }

  /** Whether trying again may succeed: rate limits, overloads, server errors, lost connections, 408 and 409. Never a quota, auth or request error. */
  get retryable(): boolean {
    if (this.code === "MODEL_RATE_LIMITED" || this.code === "MODEL_UNAVAILABLE") return true;
    // A timeout or conflict may pass when tried again, unless the provider named it a quota or auth error.
    return this.code === "MODEL_BAD_REQUEST" && (this.status === 408 || this.status === 409);
  }
}

const ADVICE: Record<ModelProviderErrorCode, string> = {
  MODEL_BAD_REQUEST: " (the provider refused the request; fix what its message names)",
  MODEL_AUTH: " (check the API key and its permissions)",
  MODEL_NOT_FOUND: " (check the model name and the base URL)",
  MODEL_QUOTA_EXCEEDED: " (the account is out of credit or over its spending quota: add credit or raise the limit in the provider's billing settings; retrying will not help)",
  MODEL_RATE_LIMITED: " (rate limited; raise retry.maxRetries or slow down)",
  MODEL_UNAVAILABLE: " (the provider failed; try again later)",
};

/** Gemini's daily quotas reset at midnight Pacific time (its rate-limits page); until then every call fails the same way. */
function dailyQuotaAdvice(quotaId: string): string {
  return ` (the daily quota ${quotaId} is used up: it resets at midnight Pacific time; raise the quota or move to a paid tier to go on sooner; retrying will not help)`;
}

/** Provider error names (OpenAI's `code`/`type`, Anthropic's `error.type`, Google's `status`) and what they mean. */
const PROVIDER_CODES: Record<string, ModelProviderErrorCode> = {
  insufficient_quota: "MODEL_QUOTA_EXCEEDED",
  billing_error: "MODEL_QUOTA_EXCEEDED",
  billing_hard_limit_reached: "MODEL_QUOTA_EXCEEDED",
  enforced_spend_limit_reached: "MODEL_QUOTA_EXCEEDED",
  overloaded_error: "MODEL_UNAVAILABLE",
  api_error: "MODEL_UNAVAILABLE",
  server_error: "MODEL_UNAVAILABLE",
  service_unavailable: "MODEL_UNAVAILABLE",
  UNAVAILABLE: "MODEL_UNAVAILABLE",
  INTERNAL: "MODEL_UNAVAILABLE",
  DEADLINE_EXCEEDED: "MODEL_UNAVAILABLE",
  rate_limit_error: "MODEL_RATE_LIMITED",
  rate_limit_exceeded: "MODEL_RATE_LIMITED",
  RESOURCE_EXHAUSTED: "MODEL_RATE_LIMITED",
  authentication_error: "MODEL_AUTH",
  permission_error: "MODEL_AUTH",
  invalid_api_key: "MODEL_AUTH",
  API_KEY_INVALID: "MODEL_AUTH",
  UNAUTHENTICATED: "MODEL_AUTH",
  PERMISSION_DENIED: "MODEL_AUTH",
  not_found_error: "MODEL_NOT_FOUND",
  model_not_found: "MODEL_NOT_FOUND",
  NOT_FOUND: "MODEL_NOT_FOUND",
  invalid_request_error: "MODEL_BAD_REQUEST",
  INVALID_ARGUMENT: "MODEL_BAD_REQUEST",
  FAILED_PRECONDITION: "MODEL_BAD_REQUEST",
};

/** Whether toolsmith knows what a provider's error name means. */
export function isKnownProviderCode(name: string): boolean {
  return Object.hasOwn(PROVIDER_CODES, name);
}

/** Phrases providers use for an empty account where their error name says only "rate limit" or "invalid request". */
const QUOTA_WORDS = /insufficient_quota|exceeded your current quota|insufficient balance|credit balance is too low|spend(ing)? limit|billing/i;

function classify(details: ModelProviderErrorDetails): ModelProviderErrorCode {
  const named = [details.providerCode, details.providerType].map((name) => (name && isKnownProviderCode(name) ? PROVIDER_CODES[name] : undefined)).find(Boolean);
  // Gemini words its per-minute limits "exceeded your current quota" too, with a retry delay: its RESOURCE_EXHAUSTED stays a rate limit unless a per-day quota is named.
  const wordedAsQuota = details.providerCode !== "RESOURCE_EXHAUSTED" && details.status !== undefined && details.status < 500 && QUOTA_WORDS.test(details.providerMessage);
  // 402 Payment Required is DeepSeek's (and Anthropic's billing_error's) answer for an empty account.
  if (named === "MODEL_QUOTA_EXCEEDED" || wordedAsQuota || details.status === 402 || details.dailyQuotaId !== undefined) return "MODEL_QUOTA_EXCEEDED";
  // Gemini answers a bad API key with 400 INVALID_ARGUMENT and the reason API_KEY_INVALID: the name is more exact than the status.
  if (named === "MODEL_AUTH") return "MODEL_AUTH";
  const status = details.status;
  // An error inside a stream has no status: its name decides, and an unnamed one is treated as the server failing.
  if (status === undefined) return named ?? "MODEL_UNAVAILABLE";
  if (status >= 500) return "MODEL_UNAVAILABLE";
  if (status === 429) return "MODEL_RATE_LIMITED";
  if (status === 401 || status === 403) return "MODEL_AUTH";
  if (status === 404) return "MODEL_NOT_FOUND";
  return "MODEL_BAD_REQUEST";
}

/** The codes a provider's error maps to. */
type ModelProviderErrorCode = "MODEL_AUTH" | "MODEL_BAD_REQUEST" | "MODEL_NOT_FOUND" | "MODEL_QUOTA_EXCEEDED" | "MODEL_RATE_LIMITED" | "MODEL_UNAVAILABLE";

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
