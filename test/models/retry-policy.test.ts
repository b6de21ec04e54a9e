import { describe, expect, it } from "vitest";
import { ModelProviderError, parseRetryAfter } from "../../src/models/model-provider-error.js";
import { retryDelay, withRetries } from "../../src/models/retry-policy.js";
import { collect } from "../../src/testing/index.js";

const headers = (entries: Record<string, string>) => new Headers(entries);

describe("retry policy", () => {
  it("reads Retry-After as seconds, as an HTTP date, and retry-after-ms", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter(headers({ "retry-after": "3" }), now)).toBe(3000);
    expect(parseRetryAfter(headers({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }), now)).toBe(5000);
    expect(parseRetryAfter(headers({ "retry-after-ms": "250", "retry-after": "3" }), now)).toBe(250);
    expect(parseRetryAfter(headers({}), now)).toBeUndefined();
    expect(parseRetryAfter(headers({ "retry-after": "soon" }), now)).toBeUndefined();
  });

  it("backs off exponentially with jitter, up to the maximum, and never less than Retry-After", () => {
    const options = { initialDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4].map((retry) => retryDelay(options, retry, undefined, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect([0, 1, 2].map((retry) => retryDelay(options, retry, undefined, () => 0))).toEqual([50, 100, 200]);
    expect(retryDelay(options, 0, 5000, () => 0.5)).toBe(5000);
  });

  it("gives up at once when Retry-After asks for longer than maxRetryAfterMs", async () => {
    let attempts = 0;
    const failure = await collect(
      withRetries({
        provider: "Test",
        retry: { maxRetries: 5, maxRetryAfterMs: 1000 },
        abortSignal: undefined,
        attempt: async function* () {
          attempts++;
          throw new Error("429");
        },
        toError: () => new ModelProviderError({ provider: "Test", status: 429, providerMessage: "wait an hour", retryAfterMs: 3_600_000 }),
      }),
    ).catch((error: unknown) => error);
    expect(attempts).toBe(1);
    expect(failure).toMatchObject({ code: "MODEL_RATE_LIMITED", retryAfterMs: 3_600_000 });
  });

  it("stops waiting between retries when the run is aborted", async () => {
    const controller = new AbortController();
    let attempts = 0;
    const pending = collect(
      withRetries({
        provider: "Test",
        retry: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
        abortSignal: controller.signal,
        attempt: async function* () {
          attempts++;
          throw new Error("503");
        },
        toError: () => new ModelProviderError({ provider: "Test", status: 503, providerMessage: "busy" }),
      }),
    ).catch((error: unknown) => error);
    setTimeout(() => controller.abort(new Error("stopped by the user")), 10);
    expect(await pending).toMatchObject({ message: "stopped by the user" });
    expect(attempts).toBe(1);
  });

  it("passes errors that are not the provider's through unchanged, without retrying", async () => {
    let attempts = 0;
    const bug = new RangeError("a bug in a callback");
    const failure = await collect(
      withRetries({
        provider: "Test",
        retry: {},
        abortSignal: undefined,
        attempt: async function* () {
          attempts++;
          throw bug;
        },
        toError: () => undefined,
      }),
    ).catch((error: unknown) => error);
    expect(failure).toBe(bug);
    expect(attempts).toBe(1);
  });
});
