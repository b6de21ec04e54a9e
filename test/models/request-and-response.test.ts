import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Content, LlmRequest, Model } from "../../src/index.js";
import { AnthropicModel } from "../../src/models/anthropic/index.js";
import { GeminiModel } from "../../src/models/gemini/index.js";
import { ModelProviderError } from "../../src/models/model-provider-error.js";
import { OpenAIChatModel, OpenAIResponsesModel } from "../../src/models/openai/index.js";
import { collect } from "../../src/testing/index.js";
import { json, sse, startProviderServer, type ProviderServer } from "./support/provider-server.js";

let server: ProviderServer;
beforeEach(async () => {
  server = await startProviderServer();
});
afterEach(async () => {
  await server.close();
});

const weather = { name: "get_weather", description: "The weather in a city.", parameters: { type: "object", properties: { city: { type: "string" }, unit: { type: "string" } }, required: ["city"] } };

/** A turn with a signed thought, text and two calls (one id from the provider, one made up by toolsmith), then both results. */
const conversation: Content[] = [
  { role: "user", parts: [{ text: "Weather in Paris and Rome?" }] },
  {
    role: "model",
    parts: [
      { text: "Let me think.", thought: true, thoughtSignature: "sig-1" },
      { text: "Checking." },
      { functionCall: { id: "call_1", name: "get_weather", args: { city: "Paris" } } },
      { functionCall: { id: "adk-2", name: "get_weather", args: { city: "Rome" } } },
    ],
  },
  {
    role: "user",
    parts: [
      { functionResponse: { id: "call_1", name: "get_weather", response: { temp: 21 } } },
      { functionResponse: { id: "adk-2", name: "get_weather", response: { status: "error", error: "no station" } } },
    ],
  },
];

const allSettings = { temperature: 0.5, topP: 0.9, topK: 40, maxOutputTokens: 100, stopSequences: ["END"], seed: 7, candidateCount: 1 };

function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return { contents: conversation, systemInstruction: "Be brief.", functionDeclarations: [weather], config: {}, ...overrides };
}

async function call(model: Model, llmRequest: LlmRequest = request(), stream = false) {
  return collect(model.generateContent(llmRequest, { stream }));
}

describe("GeminiModel", () => {
  const model = () => new GeminiModel({ model: "gemini-2.5-flash", apiKey: "test-key", baseURL: server.url, retry: { maxRetries: 0 } });
  const answer = (body: object) => server.enqueue((_request, response) => json(response, 200, body));

  it("sends the history with thoughts, signatures and provider ids, but without the ids toolsmith made up", async () => {
    answer({ candidates: [{ content: { role: "model", parts: [{ text: "Paris 21°." }] }, finishReason: "STOP" }] });
    await call(model());
    const body = server.requests[0]!.body;

    expect(server.requests[0]!.headers["x-goog-api-key"]).toBe("test-key");
    expect(body.systemInstruction.parts).toEqual([{ text: "Be brief." }]);
    expect(body.contents).toEqual([
      { role: "user", parts: [{ text: "Weather in Paris and Rome?" }] },
      {
        role: "model",
        parts: [
          { text: "Let me think.", thought: true, thoughtSignature: "sig-1" },
          { text: "Checking." },
          { functionCall: { id: "call_1", name: "get_weather", args: { city: "Paris" } } },
          { functionCall: { name: "get_weather", args: { city: "Rome" } } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { id: "call_1", name: "get_weather", response: { temp: 21 } } },
          { functionResponse: { name: "get_weather", response: { status: "error", error: "no station" } } },
        ],
      },
    ]);
  });

  it("declares what a tool answers as the declaration's response, in Gemini's schema as its parameters are, as ADK does", async () => {
    answer({ candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP" }] });
    const response = { type: "object", properties: { temp: { type: "number", description: "Degrees Celsius." } }, required: ["temp"] };
    await call(model(), request({ functionDeclarations: [{ ...weather, response }, weather] }));
    const [withResponse, without] = server.requests[0]!.body.tools[0].functionDeclarations;
    expect(withResponse.response).toEqual({ type: "OBJECT", properties: { temp: { type: "NUMBER", description: "Degrees Celsius." } }, required: ["temp"] });
    expect(withResponse.parameters).toEqual(without.parameters);
    expect(without).not.toHaveProperty("response");
  });

  it("sends every generation setting in generationConfig, and settings toolsmith does not name as they are", async () => {
    answer({ candidates: [{ content: { role: "model", parts: [{ text: "{}" }] }, finishReason: "STOP" }] });
    await call(model(), request({ config: { ...allSettings, responseMimeType: "application/json" } }));
    expect(server.requests[0]!.body.generationConfig).toEqual({ temperature: 0.5, topP: 0.9, topK: 40, maxOutputTokens: 100, stopSequences: ["END"], seed: 7, candidateCount: 1, responseMimeType: "application/json" });
  });

  it("reads thoughts, joins adjacent text, keeps a call's id and signature, and reports the finish reason and every usage count", async () => {
    answer({
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              { text: "Hmm.", thought: true, thoughtSignature: "t-sig" },
              { text: "Hello " },
              { text: "world." },
              { functionCall: { id: "fc-1", name: "get_weather", args: { city: "Oslo", unit: null } }, thoughtSignature: "c-sig" },
            ],
          },
          finishReason: "MAX_TOKENS",
        },
      ],
      usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 9, totalTokenCount: 34, thoughtsTokenCount: 5, cachedContentTokenCount: 12 },
    });
    const [response] = await call(model());

    expect(response).toEqual({
      content: {
        role: "model",
        parts: [
          { text: "Hmm.", thought: true, thoughtSignature: "t-sig" },
          { text: "Hello world." },
          // The null for the optional `unit` means "left out".
          { functionCall: { id: "fc-1", name: "get_weather", args: { city: "Oslo" } }, thoughtSignature: "c-sig" },
        ],
      },
      turnComplete: true,
      finishReason: "MAX_TOKENS",
      usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 9, totalTokenCount: 34, thoughtsTokenCount: 5, cachedContentTokenCount: 12 },
      customMetadata: { providerUsage: { promptTokenCount: 20, candidatesTokenCount: 9, totalTokenCount: 34, thoughtsTokenCount: 5, cachedContentTokenCount: 12 } },
    });
  });

  it("streams thoughts as thought partials before the answer", async () => {
    server.enqueue((_request, response) =>
      sse(response, [
        { data: { candidates: [{ content: { role: "model", parts: [{ text: "Considering.", thought: true }] } }] } },
        { data: { candidates: [{ content: { role: "model", parts: [{ text: "Sunny." }] }, finishReason: "STOP" }] } },
      ]),
    );
    const responses = await call(model(), request(), true);
    expect(responses.filter((response) => response.partial).map((response) => response.content!.parts![0])).toEqual([{ text: "Considering.", thought: true }, { text: "Sunny." }]);
    expect(responses.at(-1)!.content!.parts).toEqual([{ text: "Considering.", thought: true }, { text: "Sunny." }]);
  });

  it("turns a blocked prompt into a MODEL_SAFETY_BLOCKED error response naming the reason", async () => {
    answer({ promptFeedback: { blockReason: "SAFETY" } });
    const [response] = await call(model());
    expect(response).toEqual({
      errorCode: "MODEL_SAFETY_BLOCKED",
      errorMessage: "Gemini's safety filter blocked the answer: the prompt was blocked (SAFETY). Rephrase the request, or adjust the provider's safety settings where it allows.",
      turnComplete: true,
    });
  });
});

describe("OpenAIChatModel", () => {
  const completion = (message: object, finishReason: string, usage?: object) => ({
    id: "c1",
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [{ index: 0, message: { role: "assistant", refusal: null, ...message }, finish_reason: finishReason, logprobs: null }],
    ...(usage ? { usage } : {}),
  });
  const answer = (body: object) => server.enqueue((_request, response) => json(response, 200, body));

  it("sends the history as system, user, assistant (text and tool calls, no thoughts) and tool messages", async () => {
    answer(completion({ content: "ok" }, "stop"));
    await call(new OpenAIChatModel({ model: "m", apiKey: "test-key", baseURL: `${server.url}/v1` }));
    const { body, headers } = server.requests[0]!;

    expect(headers.authorization).toBe("Bearer test-key");
    expect(body.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather in Paris and Rome?" },
      {
        role: "assistant",
        content: "Checking.",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          { id: "adk-2", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: '{"temp":21}' },
      { role: "tool", tool_call_id: "adk-2", content: '{"status":"error","error":"no station"}' },
    ]);
  });

  it("sends a compatible server max_tokens and tools without strict, and passes settings it does not name through", async () => {
    answer(completion({ content: "ok" }, "stop"));
    await call(new OpenAIChatModel({ model: "qwen3", baseURL: `${server.url}/v1` }), request({ config: { ...allSettings, reasoning_effort: "low" } }));
    const body = server.requests[0]!.body;

    expect(body).toMatchObject({ model: "qwen3", temperature: 0.5, top_p: 0.9, max_tokens: 100, stop: ["END"], seed: 7, reasoning_effort: "low" });
    for (const absent of ["top_k", "topK", "n", "candidateCount", "max_completion_tokens"]) expect(body, absent).not.toHaveProperty(absent);
    expect(body.tools).toEqual([{ type: "function", function: { name: "get_weather", description: "The weather in a city.", parameters: weather.parameters } }]);
  });

  it("has no place for what a tool answers, so a declaration's response is not sent", async () => {
    answer(completion({ content: "ok" }, "stop"));
    await call(new OpenAIChatModel({ model: "qwen3", baseURL: `${server.url}/v1` }), request({ functionDeclarations: [{ ...weather, response: { type: "object", properties: { temp: { type: "number" } } } }] }));
    expect(server.requests[0]!.body.tools).toEqual([{ type: "function", function: { name: "get_weather", description: "The weather in a city.", parameters: weather.parameters } }]);
  });

  it("sends OpenAI itself max_completion_tokens and strict tools whose optional fields are nullable", async () => {
    answer(completion({ content: "ok" }, "stop"));
    const client = new OpenAI({ apiKey: "test-key", baseURL: `${server.url}/v1`, maxRetries: 0 });
    await call(new OpenAIChatModel({ model: "gpt-4.1", client }), request({ config: { maxOutputTokens: 100 } }));
    const body = server.requests[0]!.body;

    expect(body.max_completion_tokens).toBe(100);
    expect(body).not.toHaveProperty("max_tokens");
    expect(body.tools[0].function).toMatchObject({ strict: true, parameters: { required: ["city", "unit"], additionalProperties: false, properties: { unit: { type: ["string", "null"] } } } });
  });

  it.each([
    ["length", "MAX_TOKENS"],
    ["content_filter", "SAFETY"],
    ["tool_calls", "STOP"],
  ])("maps the finish reason %s to %s", async (reason, expected) => {
    answer(completion({ content: "cut" }, reason));
    const [response] = await call(new OpenAIChatModel({ model: "m", baseURL: `${server.url}/v1` }));
    expect(response!.finishReason).toBe(expected);
  });

  it("reports reasoning and cached tokens, and keeps arguments that are not JSON for the runner to refuse", async () => {
    answer(
      completion({ content: null, tool_calls: [{ id: "call_x", type: "function", function: { name: "get_weather", arguments: '{"city": "Par' } }] }, "tool_calls", {
        prompt_tokens: 50,
        completion_tokens: 30,
        total_tokens: 80,
        completion_tokens_details: { reasoning_tokens: 20 },
        prompt_tokens_details: { cached_tokens: 40 },
      }),
    );
    const [response] = await call(new OpenAIChatModel({ model: "m", baseURL: `${server.url}/v1` }));

    expect(response!.content!.parts).toEqual([{ functionCall: { id: "call_x", name: "get_weather", args: { _unparsed_arguments: '{"city": "Par' } } }]);
    // completion_tokens include the 20 reasoning tokens: the answer's own count leaves them out, as Gemini's does.
    expect(response!.usageMetadata).toEqual({ promptTokenCount: 50, candidatesTokenCount: 10, totalTokenCount: 80, thoughtsTokenCount: 20, cachedContentTokenCount: 40 });
    expect(response!.customMetadata!.providerUsage).toMatchObject({ completion_tokens: 30, completion_tokens_details: { reasoning_tokens: 20 } });
  });
});

describe("OpenAIResponsesModel", () => {
  const reply = (output: object[], status = "completed") => ({
    id: "r1",
    object: "response",
    created_at: 1,
    status,
    model: "gpt-4.1",
    output,
    usage: { input_tokens: 11, output_tokens: 7, total_tokens: 18, input_tokens_details: { cached_tokens: 4 }, output_tokens_details: { reasoning_tokens: 2 } },
  });
  const model = (retry = { maxRetries: 0 }) => new OpenAIResponsesModel({ model: "gpt-4.1", apiKey: "test-key", baseURL: `${server.url}/v1`, strict: true, retry });

  it("sends the instructions apart and the history as messages, function calls and their outputs, without thoughts", async () => {
    server.enqueue((_request, response) => json(response, 200, reply([])));
    await call(model(), request({ config: { ...allSettings } }));
    const body = server.requests[0]!.body;

    expect(body.instructions).toBe("Be brief.");
    expect(body).toMatchObject({ temperature: 0.5, top_p: 0.9, max_output_tokens: 100 });
    for (const absent of ["stop", "seed", "max_tokens", "top_k"]) expect(body, absent).not.toHaveProperty(absent);
    expect(body.input[0]).toEqual({ role: "user", content: "Weather in Paris and Rome?" });
    expect(body.input.filter((item: any) => item.type === "function_call")).toEqual([
      { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
      { type: "function_call", call_id: "adk-2", name: "get_weather", arguments: '{"city":"Rome"}' },
    ]);
    expect(body.input.filter((item: any) => item.role === "assistant")).toEqual([{ role: "assistant", content: "Checking." }]);
    expect(body.input.slice(-2)).toEqual([
      { type: "function_call_output", call_id: "call_1", output: '{"temp":21}' },
      { type: "function_call_output", call_id: "adk-2", output: '{"status":"error","error":"no station"}' },
    ]);
    expect(JSON.stringify(body.input)).not.toContain("Let me think.");
  });

  it("reads an incomplete response as cut off by the token limit, with its usage", async () => {
    server.enqueue((_request, response) => json(response, 200, reply([{ type: "message", id: "m1", status: "incomplete", role: "assistant", content: [{ type: "output_text", text: "The weather is", annotations: [] }] }], "incomplete")));
    const [response] = await call(model());
    expect(response).toEqual({
      content: { role: "model", parts: [{ text: "The weather is" }] },
      turnComplete: true,
      finishReason: "MAX_TOKENS",
      usageMetadata: { promptTokenCount: 11, candidatesTokenCount: 5, totalTokenCount: 18, thoughtsTokenCount: 2, cachedContentTokenCount: 4 },
      customMetadata: { providerUsage: reply([]).usage },
    });
  });

  it("fails with the provider's code and message when the stream reports response.failed", async () => {
    server.enqueue((_request, response) =>
      sse(response, [
        { event: "response.created", data: { type: "response.created", sequence_number: 0, response: reply([], "in_progress") } },
        { event: "response.failed", data: { type: "response.failed", sequence_number: 1, response: { ...reply([], "failed"), error: { code: "server_error", message: "The model crashed." } } } },
      ]),
    );
    const failure = await call(model(), request(), true).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelProviderError);
    expect(failure).toMatchObject({ code: "MODEL_UNAVAILABLE", providerMessage: "The model crashed.", providerCode: "server_error", retryable: true });
    expect((failure as Error).message).toContain("sent an error in its stream: The model crashed. (server_error)");
  });

  it("fails when the stream ends before response.completed rather than returning a truncated answer", async () => {
    server.enqueue((_request, response) =>
      sse(response, [
        { event: "response.created", data: { type: "response.created", sequence_number: 0, response: reply([], "in_progress") } },
        { event: "response.output_text.delta", data: { type: "response.output_text.delta", sequence_number: 1, item_id: "m1", output_index: 0, content_index: 0, delta: "Half", logprobs: [] } },
      ]),
    );
    const responses: unknown[] = [];
    const failure = await (async () => {
      for await (const response of model().generateContent(request(), { stream: true })) responses.push(response);
    })().catch((error: unknown) => error);
    expect(responses).toEqual([{ content: { role: "model", parts: [{ text: "Half" }] }, partial: true }]);
    expect(failure).toMatchObject({ code: "MODEL_UNAVAILABLE", providerMessage: "the stream ended before response.completed" });
  });
});

describe("AnthropicModel", () => {
  const message = (content: object[], stopReason: string, usage: object = { input_tokens: 11, output_tokens: 7 }) => ({
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude",
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  });
  const model = (options: { defaultMaxTokens?: number } = {}) => new AnthropicModel({ model: "claude-sonnet-4-6", apiKey: "test-key", baseURL: server.url, retry: { maxRetries: 0 }, ...options });
  const answer = (body: object) => server.enqueue((_request, response) => json(response, 200, body));

  it("sends signed thinking back, tool results as tool_result blocks, and an error result flagged is_error", async () => {
    answer(message([{ type: "text", text: "ok" }], "end_turn"));
    await call(model());
    const { body, headers } = server.requests[0]!;

    // The SDK sends the key as x-api-key or, in recent versions, as a bearer token.
    expect(headers["x-api-key"] ?? headers.authorization?.replace(/^Bearer /, "")).toBe("test-key");
    expect(headers["anthropic-version"]).toBeDefined();
    expect(body.system).toBe("Be brief.");
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Weather in Paris and Rome?" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Let me think.", signature: "sig-1" },
          { type: "text", text: "Checking." },
          { type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Paris" } },
          { type: "tool_use", id: "adk-2", name: "get_weather", input: { city: "Rome" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "call_1", content: '{"temp":21}' },
          { type: "tool_result", tool_use_id: "adk-2", content: '{"status":"error","error":"no station"}', is_error: true },
        ],
      },
    ]);
    expect(body.tools).toEqual([{ name: "get_weather", description: "The weather in a city.", input_schema: weather.parameters }]);
  });

  it("sends the settings Anthropic has, and a max_tokens it requires even when none is configured", async () => {
    answer(message([{ type: "text", text: "ok" }], "end_turn"));
    answer(message([{ type: "text", text: "ok" }], "end_turn"));
    answer(message([{ type: "text", text: "ok" }], "end_turn"));
    await call(model(), request({ config: { ...allSettings } }));
    await call(model());
    await call(model({ defaultMaxTokens: 2048 }));
    const [configured, unconfigured, withDefault] = server.requests.map((received) => received.body);

    expect(configured).toMatchObject({ max_tokens: 100, temperature: 0.5, top_p: 0.9, top_k: 40, stop_sequences: ["END"] });
    expect(configured).not.toHaveProperty("seed");
    expect(configured).not.toHaveProperty("candidateCount");
    expect(unconfigured.max_tokens).toBe(8192);
    expect(withDefault.max_tokens).toBe(2048);
  });

  it.each([
    ["max_tokens", "MAX_TOKENS"],
    ["refusal", "SAFETY"],
    ["tool_use", "STOP"],
    ["pause_turn", "PAUSE_TURN"],
  ])("maps the stop reason %s to %s", async (reason, expected) => {
    answer(message([{ type: "text", text: "…" }], reason));
    const [response] = await call(model());
    expect(response!.finishReason).toBe(expected);
  });

  it("counts cached and cache-writing input tokens into the prompt", async () => {
    answer(message([{ type: "text", text: "ok" }], "end_turn", { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 5 }));
    const [response] = await call(model());
    expect(response!.usageMetadata).toEqual({ promptTokenCount: 130, candidatesTokenCount: 5, totalTokenCount: 135, cachedContentTokenCount: 100 });
  });

  it("assembles a streamed thinking block with its signature, text and a tool call, with usage from the start and the end of the stream", async () => {
    const events = [
      { type: "message_start", message: { ...message([], "end_turn", { input_tokens: 30, output_tokens: 1 }), stop_reason: null } },
      { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Need the tool." } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig-stream" } },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Looking up." } },
      { type: "content_block_stop", index: 1 },
      { type: "content_block_start", index: 2, content_block: { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} } },
      { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '{"city":' } },
      { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '"Oslo"}' } },
      { type: "content_block_stop", index: 2 },
      { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 42 } },
      { type: "message_stop" },
    ];
    server.enqueue((_request, response) => sse(response, events.map((data) => ({ event: data.type, data }))));
    const responses = await call(model(), request(), true);

    expect(responses.filter((response) => response.partial).map((response) => response.content!.parts![0])).toEqual([{ text: "Need the tool.", thought: true }, { text: "Looking up." }]);
    expect(responses.at(-1)).toEqual({
      content: {
        role: "model",
        parts: [{ text: "Need the tool.", thought: true, thoughtSignature: "sig-stream" }, { text: "Looking up." }, { functionCall: { id: "toolu_1", name: "get_weather", args: { city: "Oslo" } } }],
      },
      turnComplete: true,
      finishReason: "STOP",
      usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 42, totalTokenCount: 72 },
      customMetadata: { providerUsage: { input_tokens: 30, output_tokens: 42 } },
    });
  });
});
