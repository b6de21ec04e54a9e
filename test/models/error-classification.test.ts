import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LlmRequest } from "../../src/index.js";
import { ModelProviderError } from "../../src/models/model-provider-error.js";
import type { RetryOptions } from "../../src/models/retry-policy.js";
import { providerErrorFromSdk } from "../../src/models/sdk-error.js";
import { collect, userMessage } from "../../src/testing/index.js";
import { anthropicWire } from "./support/anthropic-wire.js";
import { geminiWire } from "./support/gemini-wire.js";
import { openAIChatWire } from "./support/openai-chat-wire.js";
import { openAIResponsesWire } from "./support/openai-responses-wire.js";
import { json, startProviderServer, type ProviderServer } from "./support/provider-server.js";
import type { Wire } from "./support/wire.js";

const FAST_RETRY: RetryOptions = { initialDelayMs: 1, maxDelayMs: 2 };
const request = (): LlmRequest => ({ contents: [userMessage("Hi")], systemInstruction: "", functionDeclarations: [], config: {} });

/** The error a model call ends with, or the responses when it succeeds. */
async function failureOf(wire: Wire, server: ProviderServer, retry: RetryOptions): Promise<ModelProviderError> {
  const outcome = await collect(wire.createModel(server, retry).generateContent(request(), { stream: false })).catch((error: unknown) => error);
  expect(outcome).toBeInstanceOf(ModelProviderError);
  return outcome as ModelProviderError;
}

describe.each([geminiWire, openAIChatWire, openAIResponsesWire, anthropicWire])("$provider errors", (wire: Wire) => {
  let server: ProviderServer;
  beforeEach(async () => {
    server = await startProviderServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it.each([
    [400, "MODEL_BAD_REQUEST", /fix what its message names/],
    [401, "MODEL_AUTH", /check the API key/],
    [403, "MODEL_AUTH", /check the API key/],
    [404, "MODEL_NOT_FOUND", /check the model name/],
    [422, "MODEL_BAD_REQUEST", /fix what its message names/],
  ])("classifies %i as %s, with the provider's message and advice, without retrying", async (status, code, advice) => {
    server.enqueue(wire.error(status, `refused with ${status}`), wire.text("never sent"));
    const failure = await failureOf(wire, server, FAST_RETRY);

    expect(server.requests).toHaveLength(1);
    expect(failure.code).toBe(code);
    expect(failure.status).toBe(status);
    expect(failure.retryable).toBe(false);
    expect(failure.providerMessage).toContain(`refused with ${status}`);
    expect(failure.message).toMatch(new RegExp(`answered ${status}: `));
    expect(failure.message).toMatch(advice);
  });

  it("retries 408 and 409, which may succeed when tried again", async () => {
    server.enqueue(wire.error(408, "timeout"), wire.error(409, "conflict"), wire.text("Third time."));
    const responses = await collect(wire.createModel(server, FAST_RETRY).generateContent(request(), { stream: false }));

    expect(server.requests).toHaveLength(3);
    expect(responses.at(-1)!.content!.parts).toEqual([{ text: "Third time." }]);
  });

  it("says how many attempts were made when the retries run out on server errors", async () => {
    server.enqueue(wire.error(500, "boom 1"), wire.error(502, "boom 2"), wire.error(503, "boom 3"));
    const failure = await failureOf(wire, server, { ...FAST_RETRY, maxRetries: 2 });

    expect(server.requests).toHaveLength(3);
    expect(failure).toMatchObject({ code: "MODEL_UNAVAILABLE", status: 503, retryable: true });
    expect(failure.message).toContain("answered 503 after 3 attempts");
    expect(failure.providerMessage).toContain("boom 3");
  });

  it("fails at once, without waiting, when Retry-After asks for longer than maxRetryAfterMs", async () => {
    server.enqueue(wire.error(429, "come back in an hour", { "retry-after": "3600" }), wire.text("never sent"));
    const started = performance.now();
    const failure = await failureOf(wire, server, { ...FAST_RETRY, maxRetryAfterMs: 1000 });

    expect(performance.now() - started).toBeLessThan(1000);
    expect(server.requests).toHaveLength(1);
    expect(failure).toMatchObject({ code: "MODEL_RATE_LIMITED", status: 429, retryAfterMs: 3_600_000 });
  });

  it("reports a server that cannot be reached as MODEL_UNAVAILABLE with no status, after retrying", async () => {
    const model = wire.createModel(server, { ...FAST_RETRY, maxRetries: 1 });
    await server.close();
    const failure = await collect(model.generateContent(request(), { stream: false })).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ModelProviderError);
    expect(failure).toMatchObject({ code: "MODEL_UNAVAILABLE", status: undefined, retryable: true });
    expect((failure as Error).message).toMatch(/could not be reached after 2 attempts/);
  });
});

describe("Gemini retry info", () => {
  let server: ProviderServer;
  beforeEach(async () => {
    server = await startProviderServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it("waits as long as the RetryInfo in Gemini's error body says when there is no Retry-After header", async () => {
    server.enqueue(
      (_request, response) =>
        json(response, 429, { error: { code: 429, message: "Resource exhausted.", status: "RESOURCE_EXHAUSTED", details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "0.3s" }] } }),
      geminiWire.text("Waited."),
    );
    const responses = await collect(geminiWire.createModel(server, FAST_RETRY).generateContent(request(), { stream: false }));

    expect(responses.at(-1)!.content!.parts).toEqual([{ text: "Waited." }]);
    expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(290);
  });

  it("reads Gemini's own message out of the error body", async () => {
    server.enqueue(geminiWire.error(400, "Invalid JSON payload received."));
    const failure = await failureOf(geminiWire, server, FAST_RETRY);
    expect(failure.providerMessage).toBe("Invalid JSON payload received.");
  });
});

describe("ModelProviderError and SDK errors", () => {
  it("is retryable for lost connections, 408, 409, 429 and 5xx only", () => {
    const retryable = (status: number | undefined) => new ModelProviderError({ provider: "P", status, providerMessage: "m" }).retryable;
    expect([undefined, 408, 409, 429, 500, 503, 529].map(retryable)).toEqual([true, true, true, true, true, true, true]);
    expect([400, 401, 403, 404, 413, 422].map(retryable)).toEqual([false, false, false, false, false, false]);
  });

  it("reads the status, the body's message and Retry-After from an SDK error, preferring the API's own message", () => {
    class APIError extends Error {
      constructor(
        readonly status: number,
        readonly error: unknown,
        readonly headers: Headers,
      ) {
        super(`${status} wrapped`);
      }
    }
    const nested = providerErrorFromSdk(new APIError(429, { type: "error", error: { type: "rate_limit_error", message: "slow down" } }, new Headers({ "retry-after": "2" })), "Anthropic", 3)!;
    expect(nested).toMatchObject({ code: "MODEL_RATE_LIMITED", provider: "Anthropic", status: 429, providerMessage: "slow down", retryAfterMs: 2000 });
    expect(nested.message).toBe("Anthropic answered 429 after 3 attempts: slow down (rate_limit_error) (rate limited; raise retry.maxRetries or slow down)");

    const flat = providerErrorFromSdk(new APIError(404, { message: "model not found" }, new Headers()), "OpenAI", 1)!;
    expect(flat).toMatchObject({ code: "MODEL_NOT_FOUND", providerMessage: "model not found", retryAfterMs: undefined });
    expect(flat.message).toBe("OpenAI answered 404: model not found (check the model name and the base URL)");

    const bare = providerErrorFromSdk(new APIError(500, undefined, new Headers()), "OpenAI", 1)!;
    expect(bare.providerMessage).toBe("500 wrapped");
  });

  it("treats the SDK's connection errors as lost connections and leaves aborts and our own bugs alone", () => {
    class APIConnectionError extends Error {}
    class APIUserAbortError extends Error {
      readonly status = undefined;
    }
    expect(providerErrorFromSdk(new APIConnectionError("Connection error."), "OpenAI", 2)).toMatchObject({ code: "MODEL_UNAVAILABLE", status: undefined, providerMessage: "Connection error." });
    expect(providerErrorFromSdk(new APIUserAbortError("aborted"), "OpenAI", 1)).toBeUndefined();
    expect(providerErrorFromSdk(new TypeError("x is not a function"), "OpenAI", 1)).toBeUndefined();
    expect(providerErrorFromSdk("a string", "OpenAI", 1)).toBeUndefined();
    const already = new ModelProviderError({ provider: "OpenAI", status: undefined, providerMessage: "stream broke" });
    expect(providerErrorFromSdk(already, "OpenAI", 1)).toBe(already);
  });
});

describe("a provider's per-day quota", () => {
  it("is MODEL_QUOTA_EXCEEDED and not retried, saying when it resets, while the same status without it stays a retried rate limit", () => {
    const details = { provider: "Gemini", status: 429, providerMessage: "You exceeded your current quota.", providerCode: "RESOURCE_EXHAUSTED", retryAfterMs: 13_000 };
    const daily = new ModelProviderError({ ...details, dailyQuotaId: "GenerateRequestsPerDayPerProjectPerModel" });
    expect(daily).toMatchObject({ code: "MODEL_QUOTA_EXCEEDED", retryable: false, dailyQuotaId: "GenerateRequestsPerDayPerProjectPerModel" });
    expect(daily.message).toBe(
      "Gemini answered 429: You exceeded your current quota. (RESOURCE_EXHAUSTED) (the daily quota GenerateRequestsPerDayPerProjectPerModel is used up: it resets at midnight Pacific time; raise the quota or move to a paid tier to go on sooner; retrying will not help)",
    );
    const perMinute = new ModelProviderError(details);
    expect(perMinute).toMatchObject({ code: "MODEL_RATE_LIMITED", retryable: true, retryAfterMs: 13_000, dailyQuotaId: undefined });
  });
});
