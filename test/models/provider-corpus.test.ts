import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LlmRequest, LlmResponse } from "../../src/index.js";
import { ModelProviderError } from "../../src/models/model-provider-error.js";
import type { RetryOptions } from "../../src/models/retry-policy.js";
import { userMessage } from "../../src/testing/index.js";
import { allRecordings, corpusAdapter, readRecording, replay } from "./support/recorded-responses.js";
import { startProviderServer, type ProviderServer } from "./support/provider-server.js";

const FAST_RETRY: RetryOptions = { initialDelayMs: 1, maxDelayMs: 5 };

/** What replaying recordings through an adapter gave: the responses yielded, or the error it ended with. */
interface Outcome {
  partials: LlmResponse[];
  final: LlmResponse | undefined;
  error: ModelProviderError | undefined;
  server: ProviderServer;
}

const request = (): LlmRequest => ({ contents: [userMessage("Hi")], systemInstruction: "", functionDeclarations: [], config: {} });
const textOf = (response: LlmResponse | undefined) => (response?.content?.parts ?? []).filter((part) => part.text !== undefined && !part.thought).map((part) => part.text).join("");
const thoughtOf = (response: LlmResponse | undefined) => (response?.content?.parts ?? []).filter((part) => part.thought).map((part) => part.text).join("");
const callsOf = (response: LlmResponse | undefined) => (response?.content?.parts ?? []).flatMap((part) => (part.functionCall ? [part.functionCall] : []));

/** Declined in part, acted on the rest: the refusal is shown as text and the call is kept to run. */
function expectRefusalThenCall(final: LlmResponse | undefined, callId: string) {
  const refusal = "I can't look up that person's home address, but I can check the weather in Paris.";
  expect(final!.errorCode).toBeUndefined();
  expect(final!.content!.parts).toEqual([{ text: refusal, partMetadata: { refusal: true } }, { functionCall: { id: callId, name: "get_weather", args: { location: "Paris" } } }]);
  expect(final!.customMetadata!.refusal).toBe(refusal);
}

/**
 * Each case replays one recording (and, where the first one is retried, the
 * recordings served to the retries) and says what toolsmith must make of it.
 */
const CASES: Record<string, { then?: string[]; check: (outcome: Outcome) => void }> = {
  "anthropic/text-stream": {
    check: ({ partials, final }) => {
      expect(partials.map(textOf)).toEqual(["Hello", "!"]);
      expect(textOf(final)).toBe("Hello!");
      expect(final!.usageMetadata).toEqual({ promptTokenCount: 25, candidatesTokenCount: 15, totalTokenCount: 40 });
      expect(final!.customMetadata!.providerUsage).toEqual({ input_tokens: 25, output_tokens: 15 });
    },
  },
  "anthropic/tool-use-stream": {
    check: ({ final }) => {
      expect(textOf(final)).toBe("Okay, let's check the weather for San Francisco, CA:");
      expect(callsOf(final)).toEqual([{ id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", name: "get_weather", args: { location: "San Francisco, CA", unit: "fahrenheit" } }]);
    },
  },
  "anthropic/thinking-stream": {
    check: ({ partials, final }) => {
      expect(partials.filter((partial) => partial.content!.parts![0]!.thought)).toHaveLength(2);
      expect(final!.content!.parts![0]).toMatchObject({ thought: true, thoughtSignature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds..." });
      expect(thoughtOf(final)).toContain("So GCD(1071, 462) = 21");
      expect(textOf(final)).toBe("The greatest common divisor of 1071 and 462 is **21**.");
    },
  },
  "anthropic/refusal-stream": {
    check: ({ final }) => {
      expect(final).toMatchObject({ errorCode: "MODEL_REFUSED", finishReason: "SAFETY" });
      expect(final!.content).toBeUndefined();
      expect(final!.errorMessage).toBe("Anthropic declined to answer: I can't help with that request. Rephrase the request, or show the refusal to the user.");
    },
  },
  "anthropic/overloaded-mid-stream": {
    then: ["anthropic/text-stream"],
    check: ({ final, server }) => {
      // The overload arrived before any output: the call is tried again and the second answer is the one yielded.
      expect(server.requests).toHaveLength(2);
      expect(textOf(final)).toBe("Hello!");
    },
  },
  "anthropic/overloaded-529": {
    then: ["anthropic/text-stream"],
    check: ({ final, server }) => {
      expect(server.requests).toHaveLength(2);
      expect(textOf(final)).toBe("Hello!");
    },
  },
  "anthropic/rate-limit-429": {
    then: ["anthropic/text-stream"],
    check: ({ final, server }) => {
      expect(server.requests).toHaveLength(2);
      // retry-after: 1 is honoured.
      expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(950);
      expect(textOf(final)).toBe("Hello!");
    },
  },
  "anthropic/spend-limit-429": {
    check: ({ error, server }) => {
      expect(server.requests).toHaveLength(1);
      expect(error).toMatchObject({ code: "MODEL_QUOTA_EXCEEDED", status: 429, providerCode: "enforced_spend_limit_reached", retryable: false });
      expect(error!.message).toContain("add credit or raise the limit in the provider's billing settings; retrying will not help");
    },
  },
  "anthropic/authentication-401": {
    check: ({ error, server }) => {
      expect(server.requests).toHaveLength(1);
      expect(error).toMatchObject({ code: "MODEL_AUTH", providerMessage: "invalid x-api-key", retryable: false });
      expect(error!.message).toContain("check the API key");
    },
  },
  "anthropic/credit-balance-400": {
    check: ({ error, server }) => {
      expect(server.requests).toHaveLength(1);
      expect(error).toMatchObject({ code: "MODEL_QUOTA_EXCEEDED", status: 400, retryable: false });
      expect(error!.providerMessage).toContain("Your credit balance is too low");
    },
  },
  "anthropic/citations": {
    check: ({ final }) => {
      expect(textOf(final)).toBe("According to the document, the grass is green and the sky is blue.");
      expect(final!.citationMetadata!.citations).toEqual([
        { startIndex: 27, endIndex: 45, title: "Example Document" },
        { startIndex: 50, endIndex: 65, title: "Example Document" },
      ]);
      expect(final!.customMetadata!.citations).toEqual([expect.objectContaining({ type: "char_location", cited_text: "The grass is green." }), expect.objectContaining({ cited_text: "The sky is blue." })]);
    },
  },
  "anthropic/citations-stream": {
    check: ({ final }) => {
      expect(textOf(final)).toBe("Revenue grew 12%.");
      expect(final!.citationMetadata!.citations).toEqual([{ startIndex: 0, endIndex: 17, title: "Annual report" }]);
      expect(final!.customMetadata!.citations).toEqual([expect.objectContaining({ type: "page_location", start_page_number: 3 })]);
    },
  },
  "anthropic/web-search": {
    check: ({ final }) => {
      expect(textOf(final)).toBe("I'll search for when Claude Shannon was born.Based on the search results, Claude Shannon was born on April 30, 1916, in Petoskey, Michigan");
      expect(final!.citationMetadata!.citations).toEqual([{ startIndex: 74, endIndex: 138, uri: "https://en.wikipedia.org/wiki/Claude_Shannon", title: "Claude Shannon - Wikipedia" }]);
      // The server tool's blocks are reported and kept, opaque, to go back to Claude.
      expect((final!.customMetadata!.unhandledOutput as { type: string }[]).map((entry) => entry.type)).toEqual(["server_tool_use", "web_search_tool_result"]);
      expect(final!.content!.parts!.filter((part) => part.partMetadata?.anthropicBlock)).toHaveLength(2);
    },
  },
  "anthropic/redacted-thinking": {
    check: ({ final }) => {
      expect(final!.content!.parts).toEqual([
        { text: "Let me analyze this step by step...", thought: true, thoughtSignature: expect.stringMatching(/^WaUjzkyp/) },
        { text: "", thought: true, partMetadata: { anthropicBlock: { type: "redacted_thinking", data: expect.stringMatching(/^EmwKAhgB/) } } },
        { functionCall: { id: "toolu_01Redacted", name: "get_weather", args: { location: "Paris" } } },
      ]);
    },
  },
  "anthropic/compaction-stream": {
    check: ({ partials, final }) => {
      // The summary is not shown as text; the block keeps it, to go back to Claude.
      expect(partials.map(textOf)).toEqual(["Next, book the museum tickets for your first morning."]);
      expect(final!.content!.parts).toEqual([
        { partMetadata: { anthropicBlock: { type: "compaction", content: expect.stringMatching(/^Summary of the conversation so far: the user is planning a trip to Paris/) } } },
        { text: "Next, book the museum tickets for your first morning." },
      ]);
      expect(final!.customMetadata!.unhandledOutput).toEqual([{ type: "compaction", item: expect.objectContaining({ type: "compaction" }) }]);
    },
  },
  "anthropic/parallel-tools-cached": {
    check: ({ final }) => {
      expect(callsOf(final).map((call) => call.args)).toEqual([{ location: "San Francisco, CA" }, { location: "New York, NY" }]);
      // Claude's input_tokens leave out cache writes and reads; the prompt count includes them.
      expect(final!.usageMetadata).toEqual({ promptTokenCount: 188107, candidatesTokenCount: 393, totalTokenCount: 188500 });
    },
  },

  "openai-chat/text-stream-usage": {
    check: ({ partials, final }) => {
      expect(partials.map(textOf)).toEqual(["Hello", "!"]);
      expect(final).toMatchObject({ finishReason: "STOP", usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 2, totalTokenCount: 11 } });
    },
  },
  "openai-chat/parallel-tool-calls-stream": {
    check: ({ final }) => {
      expect(callsOf(final)).toEqual([
        { id: "call_DdmO9pD3xa9XTPNJ32zg2hcA", name: "get_weather", args: { location: "Paris, France" } },
        { id: "call_ABCDEFGHIJKLMNOPQRSTUVWX", name: "get_weather", args: { location: "Bogotá, Colombia" } },
      ]);
    },
  },
  "openai-chat/refusal": {
    check: ({ final }) => {
      expect(final).toMatchObject({ errorCode: "MODEL_REFUSED", errorMessage: "OpenAI declined to answer: I'm sorry, I cannot assist with that request. Rephrase the request, or show the refusal to the user." });
      expect(final!.usageMetadata).toMatchObject({ promptTokenCount: 81 });
    },
  },
  "openai-chat/refusal-stream": {
    check: ({ final, partials }) => {
      expect(partials).toEqual([]);
      expect(final).toMatchObject({ errorCode: "MODEL_REFUSED", errorMessage: expect.stringContaining("I'm sorry, I cannot assist with that request.") });
    },
  },
  "openai-chat/refusal-then-tool-call-stream": {
    check: ({ final }) => {
      expectRefusalThenCall(final, "call_RT1weather");
      expect(final!.finishReason).toBe("STOP");
    },
  },
  "openai-chat/content-filter": {
    check: ({ final }) => {
      expect(final).toMatchObject({ errorCode: "MODEL_SAFETY_BLOCKED", finishReason: "SAFETY", errorMessage: expect.stringMatching(/^OpenAI's safety filter blocked the answer without saying why/) });
    },
  },
  "openai-chat/insufficient-quota-429": {
    check: ({ error, server }) => {
      expect(server.requests).toHaveLength(1);
      expect(error).toMatchObject({ code: "MODEL_QUOTA_EXCEEDED", status: 429, providerCode: "insufficient_quota", retryable: false });
      expect(error!.message).not.toContain("slow down");
    },
  },
  "openai-chat/rate-limit-429": {
    then: ["openai-chat/text-stream-usage"],
    check: ({ final, server }) => {
      expect(server.requests).toHaveLength(2);
      expect(textOf(final)).toBe("Hello!");
    },
  },
  "openai-chat/invalid-api-key-401": {
    check: ({ error }) => {
      expect(error).toMatchObject({ code: "MODEL_AUTH", providerCode: "invalid_api_key", retryable: false });
      expect(error!.message).toMatch(/^OpenAI answered 401: Incorrect API key provided/);
    },
  },
  "openai-chat/server-error-mid-stream": {
    then: ["openai-chat/text-stream-usage"],
    check: ({ final, server }) => {
      expect(server.requests).toHaveLength(2);
      expect(textOf(final)).toBe("Hello!");
    },
  },
  "openai-chat/malformed-and-empty-arguments": {
    check: ({ final }) => {
      expect(callsOf(final)).toEqual([
        { id: "call_bad", name: "get_weather", args: { _unparsed_arguments: '{"location": "Paris' } },
        { id: "call_empty", name: "get_time", args: {} },
      ]);
    },
  },
  "openai-chat/parallel-wrapper": {
    check: ({ final }) => {
      expect(callsOf(final)).toEqual([
        { id: "call_wrapper1_0", name: "get_weather", args: { location: "Paris" } },
        { id: "call_wrapper1_1", name: "get_weather", args: { location: "Rome" } },
      ]);
    },
  },
  "openai-chat/reasoning-cached-usage": {
    check: ({ final }) => {
      expect(final!.usageMetadata).toEqual({ promptTokenCount: 2006, cachedContentTokenCount: 1920, candidatesTokenCount: 44, thoughtsTokenCount: 256, totalTokenCount: 2306 });
      expect(final!.customMetadata!.providerUsage).toMatchObject({ completion_tokens: 300 });
    },
  },
  "openai-chat/web-search-annotations": {
    check: ({ final }) => {
      expect(final!.citationMetadata!.citations).toEqual([{ startIndex: 32, endIndex: 47, uri: "https://news.example.com/story?utm_source=openai", title: "Positive news story" }]);
      expect(final!.customMetadata!.citations).toHaveLength(1);
    },
  },

  "openai-responses/text-stream": {
    check: ({ partials, final }) => {
      expect(partials.map(textOf)).toEqual(["Hi", " there!"]);
      expect(final).toMatchObject({ content: { parts: [{ text: "Hi there!" }] }, usageMetadata: { promptTokenCount: 37, candidatesTokenCount: 11, totalTokenCount: 48 } });
    },
  },
  "openai-responses/reasoning-encrypted-function-call": {
    check: ({ final }) => {
      const [reasoning, call] = final!.content!.parts!;
      expect(reasoning).toMatchObject({ thought: true, text: "**Checking the weather**\n\nThe user wants the weather in Paris, so I should call get_weather.\n\n**Choosing units**\n\nCelsius is the local unit." });
      expect(reasoning!.partMetadata!.openaiReasoning).toMatchObject({ type: "reasoning", id: "rs_68b1c0d3a1b2", encrypted_content: expect.stringMatching(/^gAAAAAB/) });
      expect(call!.functionCall).toEqual({ id: "call_y1SBo3EkHoCvwY6ZXaYUYdbq", name: "get_weather", args: { location: "Paris, France" } });
      expect(final!.usageMetadata).toEqual({ promptTokenCount: 81, candidatesTokenCount: 22, thoughtsTokenCount: 192, totalTokenCount: 295 });
    },
  },
  "openai-responses/reasoning-summary-stream": {
    check: ({ partials, final }) => {
      expect(partials.map((partial) => partial.content!.parts![0])).toEqual([{ text: "**Answering a sum**\n\n", thought: true }, { text: "Two plus two is four.", thought: true }, { text: "4" }]);
      expect(thoughtOf(final)).toBe("**Answering a sum**\n\nTwo plus two is four.");
      expect(textOf(final)).toBe("4");
    },
  },
  "openai-responses/web-search-annotations": {
    check: ({ final }) => {
      expect(final!.citationMetadata!.citations).toEqual([{ startIndex: 42, endIndex: 64, uri: "https://news.example.com/story?utm_source=openai", title: "Positive story" }]);
      expect(final!.customMetadata!.unhandledOutput).toEqual([{ type: "web_search_call", item: expect.objectContaining({ action: { type: "search", query: "positive news today" } }) }]);
    },
  },
  "openai-responses/refusal-stream": {
    check: ({ final }) => {
      expect(final).toMatchObject({ errorCode: "MODEL_REFUSED", errorMessage: "OpenAI declined to answer: I'm sorry, I can't help with that. Rephrase the request, or show the refusal to the user." });
    },
  },
  "openai-responses/refusal-then-function-call": {
    check: ({ final }) => expectRefusalThenCall(final, "call_RT2weather"),
  },
  "openai-responses/mcp-approval-request": {
    check: ({ final }) => {
      expect(final).toMatchObject({ errorCode: "MODEL_UNHANDLED_OUTPUT" });
      expect(final!.errorMessage).toContain("(mcp_list_tools, mcp_approval_request)");
      expect(final!.customMetadata!.unhandledOutput).toHaveLength(2);
    },
  },
  "openai-responses/custom-tool-call": {
    check: ({ final }) => {
      expect(callsOf(final)).toEqual([{ id: "call_aGiFQkRWSWAIsMQ19fKqxUgb", name: "code_exec", args: { input: 'print("hello world")' } }]);
      expect(final!.content!.parts!.at(-1)!.partMetadata).toEqual({ openaiItem: "custom_tool_call" });
    },
  },
  "openai-responses/message-phases": {
    check: ({ final }) => {
      expect(final!.content!.parts).toEqual([
        { text: "I looked up both cities.", partMetadata: { phase: "commentary" } },
        { text: "\n\nParis is warmer than Rome today.", partMetadata: { phase: "final_answer" } },
      ]);
      expect(final!.usageMetadata).toMatchObject({ cachedContentTokenCount: 256 });
    },
  },
  "openai-responses/message-phases-stream": {
    check: ({ partials, final }) => {
      // The stream shows the same blank line between the messages as the complete answer has.
      expect(partials.map(textOf).join("")).toBe(textOf(final));
      expect(textOf(final)).toBe("Checking the news.\n\nGood news today.");
      // The citation's span is moved past the commentary and the blank line.
      expect(final!.citationMetadata!.citations).toEqual([{ startIndex: 20, endIndex: 35, uri: "https://news.example.com/good", title: "Good news" }]);
    },
  },
  "openai-responses/error-event-stream": {
    then: ["openai-responses/text-stream"],
    check: ({ final, server }) => {
      expect(server.requests).toHaveLength(2);
      expect(textOf(final)).toBe("Hi there!");
    },
  },
  "openai-responses/nested-error-event-stream": {
    check: ({ error, server }) => {
      expect(server.requests).toHaveLength(1);
      expect(error).toMatchObject({ code: "MODEL_BAD_REQUEST", status: undefined, providerCode: "context_length_exceeded", providerType: "invalid_request_error", retryable: false });
      expect(error!.message).toMatch(/^OpenAI sent an error in its stream: Your input exceeds the context window/);
    },
  },
  "openai-responses/response-failed-stream": {
    then: ["openai-responses/text-stream"],
    check: ({ final, server }) => {
      expect(server.requests).toHaveLength(2);
      expect(textOf(final)).toBe("Hi there!");
    },
  },
  "openai-responses/insufficient-quota-429": {
    check: ({ error, server }) => {
      expect(server.requests).toHaveLength(1);
      expect(error).toMatchObject({ code: "MODEL_QUOTA_EXCEEDED", retryable: false });
    },
  },
  "openai-responses/incomplete-content-filter": {
    check: ({ final }) => {
      expect(final).toMatchObject({ errorCode: "MODEL_SAFETY_BLOCKED", finishReason: "SAFETY" });
    },
  },

  "gemini/thinking-stream": {
    check: ({ partials, final }) => {
      expect(partials.map((partial) => Boolean(partial.content!.parts![0]!.thought))).toEqual([true, false, false]);
      expect(final!.content!.parts).toEqual([
        { text: "**Analyzing the Riddle**\n\nThe user asks which is heavier.", thought: true },
        { text: "They weigh the same: one kilogram each.", thoughtSignature: "CiQB0e2Kb0VPhy9k3Jp2Tg==" },
      ]);
      expect(final!.usageMetadata).toEqual({ promptTokenCount: 12, candidatesTokenCount: 10, thoughtsTokenCount: 108, totalTokenCount: 130 });
    },
  },
  "gemini/prompt-blocked": {
    check: ({ final }) => {
      expect(final).toMatchObject({ errorCode: "MODEL_SAFETY_BLOCKED", errorMessage: expect.stringContaining("the prompt was blocked (SAFETY)") });
      expect(final!.content).toBeUndefined();
    },
  },
  "gemini/finish-safety": {
    check: ({ final }) => {
      expect(final).toMatchObject({ errorCode: "MODEL_SAFETY_BLOCKED", finishReason: "SAFETY", errorMessage: expect.stringContaining("the answer was stopped (SAFETY)") });
    },
  },
  "gemini/grounding": {
    check: ({ final }) => {
      expect(final!.groundingMetadata!.webSearchQueries).toEqual(["UEFA Euro 2024 winner", "who won euro 2024"]);
      expect(final!.groundingMetadata!.groundingSupports).toHaveLength(2);
      // Gemini's total also counts the search's tool-use prompt; it is kept as Gemini sent it.
      expect(final!.usageMetadata).toEqual({ promptTokenCount: 12, candidatesTokenCount: 30, totalTokenCount: 42 });
      expect(final!.customMetadata!.providerUsage).toMatchObject({ toolUsePromptTokenCount: 100 });
    },
  },
  "gemini/citations": {
    check: ({ final }) => {
      expect(final!.citationMetadata).toEqual({ citations: [{ startIndex: 0, endIndex: 60, uri: "https://github.com/example/algorithms", license: "mit" }] });
    },
  },
  "gemini/resource-exhausted-429": {
    then: ["gemini/thinking-stream"],
    check: ({ final, server }) => {
      // A per-minute limit: retried after Gemini's retry delay (RetryInfo's 1.5s).
      expect(server.requests).toHaveLength(2);
      expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(1450);
      expect(textOf(final)).toBe("They weigh the same: one kilogram each.");
    },
  },
  "gemini/daily-quota-429": {
    check: ({ error, server }) => {
      // A per-day quota among the violations: RetryInfo's 13s would not help, so it fails at once.
      expect(server.requests).toHaveLength(1);
      expect(error).toMatchObject({ code: "MODEL_QUOTA_EXCEEDED", status: 429, providerCode: "RESOURCE_EXHAUSTED", dailyQuotaId: "GenerateRequestsPerDayPerProjectPerModel-FreeTier", retryable: false });
      expect(error!.message).toBe(
        "Gemini answered 429: You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. (RESOURCE_EXHAUSTED) (the daily quota GenerateRequestsPerDayPerProjectPerModel-FreeTier is used up: it resets at midnight Pacific time; raise the quota or move to a paid tier to go on sooner; retrying will not help)",
      );
    },
  },
  "gemini/api-key-invalid-400": {
    check: ({ error, server }) => {
      expect(server.requests).toHaveLength(1);
      expect(error).toMatchObject({ code: "MODEL_AUTH", status: 400, providerCode: "API_KEY_INVALID", retryable: false });
    },
  },
  "gemini/overloaded-503": {
    then: ["gemini/thinking-stream"],
    check: ({ final, server }) => {
      expect(server.requests).toHaveLength(2);
      expect(textOf(final)).toBe("They weigh the same: one kilogram each.");
    },
  },
  "gemini/error-mid-stream": {
    check: ({ partials, error, server }) => {
      // The first half was already shown: the call is not replayed, and the error reads as Gemini worded it.
      expect(partials.map(textOf)).toEqual(["The first half of the answer"]);
      expect(server.requests).toHaveLength(1);
      expect(error).toMatchObject({ code: "MODEL_UNAVAILABLE", status: 503, providerCode: "UNAVAILABLE", providerMessage: "The model is overloaded. Please try again later." });
    },
  },
  "gemini/parallel-function-calls": {
    check: ({ final }) => {
      expect(final!.content!.parts).toEqual([
        { functionCall: { name: "get_weather", args: { location: "Paris" } }, thoughtSignature: "CsYBAdHtim8=" },
        { functionCall: { name: "get_weather", args: { location: "Rome" } } },
      ]);
      expect(final!.usageMetadata).toEqual({ promptTokenCount: 50, candidatesTokenCount: 20, thoughtsTokenCount: 20, totalTokenCount: 90, cachedContentTokenCount: 32 });
    },
  },

  "deepseek/thinking-tool-call-stream": {
    check: ({ final }) => {
      expect(final!.content!.parts![0]).toEqual({ text: "The user wants tomorrow's weather in Hangzhou. I need the date first, then the weather.", thought: true, partMetadata: { reasoningField: "reasoning_content" } });
      expect(callsOf(final)).toEqual([{ id: "call_00_BxG0Ff7p2ZhXqMDrkD5iIo5m", name: "get_date", args: {} }]);
      expect(final!.usageMetadata).toEqual({ promptTokenCount: 310, cachedContentTokenCount: 256, candidatesTokenCount: 24, thoughtsTokenCount: 40, totalTokenCount: 374 });
    },
  },
  "deepseek/answer-after-tool": {
    check: ({ final }) => {
      expect(textOf(final)).toBe("Tomorrow (2025-12-02) Hangzhou will be cloudy, 7~13°C.");
      expect(final!.usageMetadata).toMatchObject({ cachedContentTokenCount: 384, thoughtsTokenCount: 30 });
    },
  },
  "deepseek/answer-after-tool-stream": {
    check: ({ partials, final }) => {
      // A null reasoning_content beside the first content is no thought.
      expect(partials.map((partial) => partial.content!.parts![0])).toEqual([{ text: "The date is known; answer.", thought: true }, { text: "Tomorrow is 2025-12-02." }]);
      expect(final!.usageMetadata).toEqual({ promptTokenCount: 400, cachedContentTokenCount: 384, candidatesTokenCount: 12, thoughtsTokenCount: 8, totalTokenCount: 420 });
    },
  },
  "deepseek/insufficient-balance-402": {
    check: ({ error, server }) => {
      expect(server.requests).toHaveLength(1);
      expect(error).toMatchObject({ code: "MODEL_QUOTA_EXCEEDED", status: 402, providerMessage: "Insufficient Balance", retryable: false });
    },
  },
  "mistral/tool-calls-stream": {
    check: ({ final }) => {
      expect(callsOf(final)).toEqual([
        { id: "D681PevKs", name: "retrieve_payment_status", args: { transaction_id: "T1001" } },
        { id: "R7mQx2LpZ", name: "retrieve_payment_date", args: { transaction_id: "T1001" } },
      ]);
    },
  },
  "mistral/indexed-whole-calls-stream": {
    check: ({ final }) => {
      expect(callsOf(final)).toEqual([
        { id: "aB3dE5gH7", name: "get_weather", args: { city: "Paris" } },
        { id: "kL9mN1pQ3", name: "get_weather", args: { city: "Rome" } },
      ]);
    },
  },
  "mistral/magistral-thinking-stream": {
    check: ({ partials, final }) => {
      expect(partials.map((partial) => partial.content!.parts![0])).toEqual([
        { text: "John has 4 sisters; ", thought: true },
        { text: "each has 1 brother, John himself.", thought: true },
        { text: "John has " },
        { text: "no brothers." },
      ]);
      expect(final!.content!.parts).toEqual([{ text: "John has 4 sisters; each has 1 brother, John himself.", thought: true, partMetadata: { reasoningField: "thinking" } }, { text: "John has no brothers." }]);
    },
  },
  "mistral/magistral": {
    check: ({ final }) => {
      expect(final!.content!.parts).toEqual([{ text: "Sum the numbers: 2 + 2 = 4.", thought: true, partMetadata: { reasoningField: "thinking" } }, { text: "The answer is 4." }]);
    },
  },
  "ollama/tool-call-stream": {
    check: ({ final }) => {
      expect(thoughtOf(final)).toBe("The user wants the weather in Toronto.");
      expect(callsOf(final)).toEqual([{ id: "call_8x2kq4ph", name: "get_weather", args: { city: "Toronto" } }]);
      expect(final!.usageMetadata).toEqual({ promptTokenCount: 160, candidatesTokenCount: 40, totalTokenCount: 200 });
    },
  },
  "ollama/answer-after-tool-stream": {
    check: ({ partials, final }) => {
      expect(partials.map((partial) => partial.content!.parts![0])).toEqual([{ text: "The tool says 4°C and cloudy.", thought: true }, { text: "It is 4°C and cloudy in Toronto." }]);
      expect(final!.content!.parts![0]).toEqual({ text: "The tool says 4°C and cloudy.", thought: true, partMetadata: { reasoningField: "reasoning" } });
      expect(final!.usageMetadata).toEqual({ promptTokenCount: 230, candidatesTokenCount: 25, totalTokenCount: 255 });
    },
  },
  "ollama/model-not-found-404": {
    check: ({ error }) => {
      expect(error).toMatchObject({ code: "MODEL_NOT_FOUND", providerMessage: 'model "llama9" not found, try pulling it first' });
    },
  },
  "vllm/reasoning-tool-call-stream": {
    check: ({ final }) => {
      expect(thoughtOf(final)).toBe("I should look up the weather in Dallas.");
      expect(callsOf(final)).toEqual([{ id: "chatcmpl-tool-7c1f", name: "get_weather", args: { city: "Dallas", unit: "fahrenheit" } }]);
    },
  },
  "vllm/bad-request-400": {
    check: ({ error, server }) => {
      expect(server.requests).toHaveLength(1);
      // vLLM puts the error's fields at the top of the body, where OpenAI nests them under "error": the message is kept all the same.
      expect(error).toMatchObject({ code: "MODEL_BAD_REQUEST", status: 400, providerCode: "BadRequestError" });
      expect(error!.providerMessage).toContain("maximum context length is 32768 tokens");
    },
  },
  "llama-cpp/reasoning-stream": {
    check: ({ final }) => {
      expect(thoughtOf(final)).toBe("Simple greeting; answer briefly.");
      expect(textOf(final)).toBe("Hello there.");
      expect(final!.usageMetadata).toEqual({ promptTokenCount: 20, candidatesTokenCount: 12, totalTokenCount: 32 });
    },
  },
  "lm-studio/tool-call-stream": {
    check: ({ final }) => {
      expect(callsOf(final)).toEqual([{ id: "365174485", name: "get_weather", args: { city: "Lyon" } }]);
    },
  },
};

const handled = new Map<string, number>();

describe("recorded provider responses, replayed through the official SDKs", () => {
  let server: ProviderServer;
  beforeEach(async () => {
    server = await startProviderServer();
  });
  afterEach(async () => {
    await server.close();
  });
  afterAll(() => {
    const rows = [...handled].sort(([a], [b]) => a.localeCompare(b));
    console.log(`Recorded responses handled, by provider (${rows.reduce((sum, [, count]) => sum + count, 0)} in all):\n${rows.map(([provider, count]) => `  ${provider.padEnd(18)} ${count}`).join("\n")}`);
  });

  it("has a case for every recording, and every recording names its source", () => {
    const recordings = allRecordings();
    expect(recordings.filter((name) => !(name in CASES))).toEqual([]);
    for (const name of recordings) expect(readRecording(name).source[0], name).toMatch(/^source: /);
  });

  it.each(Object.keys(CASES))("%s", async (name) => {
    const recording = readRecording(name);
    const followUps = (CASES[name]!.then ?? []).map(readRecording);
    const stream = [recording, ...followUps].some((entry) => entry.streamed);
    server.enqueue(replay(recording), ...followUps.map(replay));
    const adapter = corpusAdapter(recording.provider, server, FAST_RETRY);
    const responses: LlmResponse[] = [];
    let error: ModelProviderError | undefined;
    try {
      for await (const response of adapter.model.generateContent(request(), { stream })) responses.push(response);
    } catch (failure) {
      if (!(failure instanceof ModelProviderError)) throw failure;
      error = failure;
    }
    expect(server.requests[0]!.url).toBe(adapter.path(stream));
    expect(responses.filter((response) => !response.partial).length, "one complete response, or none with an error").toBe(error ? 0 : 1);
    CASES[name]!.check({ partials: responses.filter((response) => response.partial), final: responses.find((response) => !response.partial), error, server });
    for (const entry of [recording, ...followUps].slice(0, server.requests.length)) handled.set(entry.provider, (handled.get(entry.provider) ?? 0) + 1);
  });
});
