import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LlmRequest, LlmResponse } from "../../src/index.js";
import { GeminiModel } from "../../src/models/gemini/index.js";
import { ModelProviderError } from "../../src/models/model-provider-error.js";
import { userMessage } from "../../src/testing/index.js";
import { allRecordings, corpusAdapter, readRecording, replay, replayInPieces, type Recording } from "./support/recorded-responses.js";
import { startProviderServer, type ProviderServer } from "./support/provider-server.js";

const request = (): LlmRequest => ({ contents: [userMessage("Hi")], systemInstruction: "", functionDeclarations: [], config: {} });

/** The complete response a replay gives, or the error's code and message. */
async function outcome(server: ProviderServer, recording: Recording, handler: ReturnType<typeof replay>): Promise<{ text: string; final?: LlmResponse; error?: string }> {
  server.enqueue(handler);
  let text = "";
  try {
    for await (const response of corpusAdapter(recording.provider, server, { maxRetries: 0 }).model.generateContent(request(), { stream: true })) {
      if (response.partial) text += response.content?.parts?.map((part) => part.text ?? "").join("") ?? "";
      else return { text, final: response };
    }
    return { text };
  } catch (error) {
    if (!(error instanceof ModelProviderError)) throw error;
    return { text, error: `${error.code}: ${error.message}` };
  }
}

describe("recorded streams cut anywhere by the network", () => {
  let server: ProviderServer;
  beforeAll(async () => {
    server = await startProviderServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const streams = allRecordings()
    .map(readRecording)
    .filter((recording) => recording.streamed && recording.status === 200);

  it("give the same partials, answer or error as the same bytes delivered event by event", async () => {
    let replays = 0;
    let pieces = 0;
    for (const recording of streams) {
      const expected = await outcome(server, recording, replay(recording));
      await fc.assert(
        fc.asyncProperty(fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), async (cuts) => {
          replays++;
          pieces += new Set(cuts).size + 1;
          expect(await outcome(server, recording, replayInPieces(recording, cuts))).toEqual(expected);
        }),
        { numRuns: 8 },
      );
    }
    console.log(`Stream framing: ${streams.length} recorded streams, ${replays} replays cut into ${pieces} pieces in all (inside lines, CRLF pairs and multi-byte characters), all read as delivered whole.`);
    expect(replays).toBe(streams.length * 8);
  });
});

describe("provider errors as any provider may word them", () => {
  const names = ["insufficient_quota", "overloaded_error", "rate_limit_error", "invalid_request_error", "authentication_error", "RESOURCE_EXHAUSTED", "API_KEY_INVALID", "server_error", "context_length_exceeded", "x"];

  it("always classify, never advise a retry for quota, auth or request errors, and keep the provider's words", () => {
    let checked = 0;
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined }),
        fc.option(fc.constantFrom(...names), { nil: undefined }),
        fc.option(fc.constantFrom(...names), { nil: undefined }),
        fc.string(),
        (status, providerCode, providerType, providerMessage) => {
          checked++;
          const error = new ModelProviderError({ provider: "P", status, providerMessage, ...(providerCode ? { providerCode } : {}), ...(providerType ? { providerType } : {}) });
          expect(error.message).toContain(providerMessage);
          if (["MODEL_QUOTA_EXCEEDED", "MODEL_AUTH", "MODEL_NOT_FOUND"].includes(error.code)) expect(error.retryable).toBe(false);
          if (providerCode === "insufficient_quota" || status === 402) expect(error.code).toBe("MODEL_QUOTA_EXCEEDED");
          if (providerCode === "overloaded_error" && status === undefined) expect(error).toMatchObject({ code: "MODEL_UNAVAILABLE", retryable: true });
        },
      ),
      { numRuns: 2000 },
    );
    console.log(`Provider error classification: ${checked} generated errors (status, error name, type, message) checked.`);
  });

  it("shows the user what the error is and what to do, for an empty account", () => {
    const error = new ModelProviderError({ provider: "DeepSeek", status: 402, providerMessage: "Insufficient Balance" });
    expect(error.message).toBe(
      "DeepSeek answered 402: Insufficient Balance (the account is out of credit or over its spending quota: add credit or raise the limit in the provider's billing settings; retrying will not help)",
    );
  });
});

describe("parts other adapters keep for their provider", () => {
  it("are not sent to Gemini: their metadata is left out, and a part holding only metadata is dropped", async () => {
    const server = await startProviderServer();
    try {
      server.enqueue(replay(readRecording("gemini/citations")));
      const history: LlmRequest = {
        ...request(),
        contents: [
          userMessage("Search."),
          { role: "model", parts: [{ text: "Found it.", partMetadata: { phase: "final_answer" } }, { partMetadata: { anthropicBlock: { type: "server_tool_use" } } }] },
          userMessage("Thanks."),
        ],
      };
      for await (const _response of new GeminiModel({ model: "gemini-2.5-flash", apiKey: "k", baseURL: server.url }).generateContent(history, { stream: false })) void _response;
      expect(server.requests[0]!.body.contents[1]).toEqual({ role: "model", parts: [{ text: "Found it." }] });
    } finally {
      await server.close();
    }
  });
});
