import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { FunctionTool, getText, InMemoryRunner, LlmAgent, type Model } from "../../src/index.js";
import { AnthropicModel } from "../../src/models/anthropic/index.js";
import { GeminiModel } from "../../src/models/gemini/index.js";
import { OpenAIChatModel, OpenAIResponsesModel } from "../../src/models/openai/index.js";
import { collect, userMessage } from "../../src/testing/index.js";
import { readRecording, replay } from "./support/recorded-responses.js";
import { startProviderServer, type ProviderServer } from "./support/provider-server.js";

const FAST_RETRY = { initialDelayMs: 1, maxDelayMs: 5 };

const tool = (name: string, parameters: z.ZodObject, result: unknown) => new FunctionTool({ name, description: `The ${name} tool.`, parameters, execute: () => result });
const weather = tool("get_weather", z.object({ location: z.string() }), { forecast: "sunny" });

/** Whole runs over recorded provider answers: what toolsmith sends back on the next call, and the events a developer sees. */
describe("recorded answers in a run", () => {
  let server: ProviderServer;
  beforeEach(async () => {
    server = await startProviderServer();
  });
  afterEach(async () => {
    await server.close();
  });

  async function run(model: Model, tools: FunctionTool[], recordings: string[], options: { stream?: boolean; messages?: string[] } = {}) {
    server.enqueue(...recordings.map((name) => replay(readRecording(name))));
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "assistant", model, tools }), appName: "corpus" });
    const session = await runner.sessionService.createSession({ appName: "corpus", userId: "u1" });
    const events = [];
    for (const message of options.messages ?? ["Go."]) {
      events.push(...(await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage(message), runConfig: { streamingMode: options.stream ? "sse" : "none" } }))));
    }
    expect(server.pending, "every recording was asked for").toBe(0);
    expect(server.requests, "no request beyond the recordings (a retry, or a call with nothing queued)").toHaveLength(recordings.length);
    return events;
  }

  it("sends DeepSeek's reasoning_content back with the assistant's tool call, as DeepSeek requires on the next request", async () => {
    const model = new OpenAIChatModel({ model: "deepseek-reasoner", baseURL: `${server.url}/v1`, providerName: "DeepSeek" });
    const events = await run(model, [tool("get_date", z.object({}), { date: "2025-12-01" })], ["deepseek/thinking-tool-call-stream", "deepseek/answer-after-tool-stream"], { stream: true });

    const messages = server.requests[1]!.body.messages.filter((message: any) => message.role !== "system");
    expect(messages[1]).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_00_BxG0Ff7p2ZhXqMDrkD5iIo5m", type: "function", function: { name: "get_date", arguments: "{}" } }],
      reasoning_content: "The user wants tomorrow's weather in Hangzhou. I need the date first, then the weather.",
    });
    expect(messages[2]).toEqual({ role: "tool", tool_call_id: "call_00_BxG0Ff7p2ZhXqMDrkD5iIo5m", content: JSON.stringify({ date: "2025-12-01" }) });
    expect(getText(events.at(-1)!.content)).toBe("Tomorrow is 2025-12-02.");
  });

  it("sends Ollama's reasoning back in its reasoning field with the assistant's tool call, where Ollama reads it as the turn's thinking", async () => {
    const model = new OpenAIChatModel({ model: "qwen3:8b", baseURL: `${server.url}/v1`, providerName: "Ollama" });
    const events = await run(model, [tool("get_weather", z.object({ city: z.string() }), { forecast: "4°C, cloudy" })], ["ollama/tool-call-stream", "ollama/answer-after-tool-stream", "ollama/tool-call-stream", "ollama/answer-after-tool-stream"], {
      stream: true,
      messages: ["Weather in Toronto?", "And again?"],
    });

    expect(server.requests).toHaveLength(4);
    expect(events.filter((event) => event.errorCode)).toEqual([]);
    const assistantTurns = (index: number) => server.requests[index]!.body.messages.filter((message: any) => message.role === "assistant");
    expect(assistantTurns(1)).toEqual([
      { role: "assistant", content: null, tool_calls: [{ id: "call_8x2kq4ph", type: "function", function: { name: "get_weather", arguments: '{"city":"Toronto"}' } }], reasoning: "The user wants the weather in Toronto." },
    ]);
    expect(getText(events.find((event) => getText(event.content).startsWith("It is"))!.content)).toBe("It is 4°C and cloudy in Toronto.");
    // On the next user turn the tool call keeps its reasoning; the plain answer goes back without the thinking Ollama's templates drop.
    expect(assistantTurns(2)).toEqual([assistantTurns(1)[0], { role: "assistant", content: "It is 4°C and cloudy in Toronto." }]);
  });

  it("sends an OpenAI reasoning item back, encrypted content and summaries, right before the function call it led to", async () => {
    const model = new OpenAIResponsesModel({ model: "o4-mini", apiKey: "test-key", baseURL: `${server.url}/v1`, providerName: "OpenAI" });
    await run(model, [weather], ["openai-responses/reasoning-encrypted-function-call", "openai-responses/message-phases"]);

    const input = server.requests[1]!.body.input;
    const callIndex = input.findIndex((item: any) => item.type === "function_call");
    expect(input[callIndex - 1]).toEqual({
      type: "reasoning",
      id: "rs_68b1c0d3a1b2",
      summary: [
        { type: "summary_text", text: "**Checking the weather**\n\nThe user wants the weather in Paris, so I should call get_weather." },
        { type: "summary_text", text: "**Choosing units**\n\nCelsius is the local unit." },
      ],
      encrypted_content: "gAAAAABoscDTxyz-Rzu0eQ0oXwNRc2pb7n0mtbL9GUSyjRIBv2Jk...",
    });
    expect(input[callIndex]).toEqual({ type: "function_call", call_id: "call_y1SBo3EkHoCvwY6ZXaYUYdbq", name: "get_weather", arguments: '{"location":"Paris, France"}' });
  });

  it("keeps a commentary message apart from the final answer and sends each back with its phase", async () => {
    const model = new OpenAIResponsesModel({ model: "gpt-5.2", apiKey: "test-key", baseURL: `${server.url}/v1`, providerName: "OpenAI" });
    const events = await run(model, [], ["openai-responses/message-phases", "openai-responses/web-search-annotations"], { messages: ["Compare.", "And now?"] });

    const answer = events.find((event) => event.content?.parts?.length === 2)!;
    expect(answer.content!.parts!.map((part) => part.text)).toEqual(["I looked up both cities.", "\n\nParis is warmer than Rome today."]);
    expect(getText(answer.content)).toBe("I looked up both cities.\n\nParis is warmer than Rome today.");
    expect(server.requests[1]!.body.input.filter((item: any) => item.role === "assistant")).toEqual([
      { type: "message", role: "assistant", content: "I looked up both cities.", phase: "commentary" },
      { type: "message", role: "assistant", content: "Paris is warmer than Rome today.", phase: "final_answer" },
    ]);
  });

  it("answers a custom-tool call through the function of that name and returns the result as a custom-tool output", async () => {
    const model = new OpenAIResponsesModel({ model: "gpt-5", apiKey: "test-key", baseURL: `${server.url}/v1`, providerName: "OpenAI" });
    const codeExec = tool("code_exec", z.object({ input: z.string() }), { stdout: "hello world" });
    await run(model, [codeExec], ["openai-responses/custom-tool-call", "openai-responses/message-phases"]);

    const input = server.requests[1]!.body.input;
    expect(input.filter((item: any) => item.type?.startsWith("custom_tool_call"))).toEqual([
      { type: "custom_tool_call", call_id: "call_aGiFQkRWSWAIsMQ19fKqxUgb", name: "code_exec", input: 'print("hello world")' },
      { type: "custom_tool_call_output", call_id: "call_aGiFQkRWSWAIsMQ19fKqxUgb", output: JSON.stringify({ stdout: "hello world" }) },
    ]);
    // The reasoning item before it goes back too, even with no summary.
    expect(input.find((item: any) => item.type === "reasoning")).toEqual({ type: "reasoning", id: "rs_6890e972fa7c819ca8bc561526b989170694874912ae0ea6", summary: [] });
  });

  it("sends Claude's signed and redacted thinking back unchanged before the tool call", async () => {
    const model = new AnthropicModel({ model: "claude-3-7-sonnet-20250219", apiKey: "test-key", baseURL: server.url });
    const events = await run(model, [weather], ["anthropic/redacted-thinking", "anthropic/citations"]);

    expect(server.requests[1]!.body.messages[1].content).toEqual([
      { type: "thinking", thinking: "Let me analyze this step by step...", signature: "WaUjzkypQ2mUEVM36O2TxuC06KN8xyfbJwyem2dw3URve/op91XWHOEBLLqIOMfFG/UvLEczmEsUjavL...." },
      { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj2pabXzKw2rjhBVQ2tnFBW+5zGL+oIaBEVTTECtwU3dm..." },
      { type: "tool_use", id: "toolu_01Redacted", name: "get_weather", input: { location: "Paris" } },
    ]);
    expect(events.at(-1)!.citationMetadata!.citations).toHaveLength(2);
  });

  it("sends Claude's web search blocks back as they came, so Claude keeps its search results", async () => {
    const model = new AnthropicModel({ model: "claude-opus-4-6", apiKey: "test-key", baseURL: server.url });
    await run(model, [], ["anthropic/web-search", "anthropic/citations"], { messages: ["When was Shannon born?", "Thanks."] });

    const assistant = server.requests[1]!.body.messages[1];
    expect(assistant.content.map((block: any) => block.type)).toEqual(["text", "server_tool_use", "web_search_tool_result", "text"]);
    expect(assistant.content[2].content[0]).toMatchObject({ type: "web_search_result", encrypted_content: expect.stringMatching(/^EqgfCioI/) });
  });

  it("sends Claude's compaction block back with its summary, first in the conversation, in place of the turns it summarises", async () => {
    const model = new AnthropicModel({ model: "claude-opus-4-6", apiKey: "test-key", baseURL: server.url });
    const events = await run(model, [], ["anthropic/text-stream", "anthropic/compaction-stream", "anthropic/text-stream"], { stream: true, messages: ["Plan Paris.", "What next?", "Thanks."] });

    // Before the compaction the whole history goes; after it, only what follows the block.
    expect(server.requests[1]!.body.messages.map((message: any) => message.role)).toEqual(["user", "assistant", "user"]);
    const third = server.requests[2]!.body.messages;
    expect(third).toEqual([
      {
        role: "assistant",
        content: [
          { type: "compaction", content: "Summary of the conversation so far: the user is planning a trip to Paris in May; the weather was checked (18°C, sunny) and a hotel near the Louvre was chosen." },
          { type: "text", text: "Next, book the museum tickets for your first morning." },
        ],
      },
      { role: "user", content: [{ type: "text", text: "Thanks." }] },
    ]);
    expect(getText(events.at(-1)!.content)).toBe("Hello!");
  });

  it("runs both of Mistral's tool calls, which stream without type or index, and sends Magistral's thinking back as thinking chunks", async () => {
    const model = new OpenAIChatModel({ model: "magistral-medium-latest", baseURL: `${server.url}/v1`, providerName: "Mistral" });
    const status = tool("retrieve_payment_status", z.object({ transaction_id: z.string() }), { status: "Paid" });
    const date = tool("retrieve_payment_date", z.object({ transaction_id: z.string() }), { date: "2021-10-05" });
    await run(model, [status, date], ["mistral/tool-calls-stream", "mistral/magistral-thinking-stream", "mistral/magistral-thinking-stream"], { stream: true, messages: ["Status of T1001?", "And John?"] });

    expect(server.requests[1]!.body.messages.filter((message: any) => message.role === "tool")).toEqual([
      { role: "tool", tool_call_id: "D681PevKs", content: JSON.stringify({ status: "Paid" }) },
      { role: "tool", tool_call_id: "R7mQx2LpZ", content: JSON.stringify({ date: "2021-10-05" }) },
    ]);
    expect(server.requests[2]!.body.messages.at(-2)).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: [{ type: "text", text: "John has 4 sisters; each has 1 brother, John himself." }] },
        { type: "text", text: "John has no brothers." },
      ],
    });
  });

  it("ends the run with a MODEL_REFUSED error event quoting Claude, without throwing", async () => {
    const model = new AnthropicModel({ model: "claude-sonnet-4-5", apiKey: "test-key", baseURL: server.url });
    const events = await run(model, [], ["anthropic/refusal-stream"], { stream: true });

    const last = events.at(-1)!;
    expect(last).toMatchObject({ author: "assistant", errorCode: "MODEL_REFUSED", finishReason: "SAFETY" });
    expect(last.errorMessage).toBe("Anthropic declined to answer: I can't help with that request. Rephrase the request, or show the refusal to the user.");
  });

  it("retries an overload that arrives inside the stream before any output, so the run sees only the answer", async () => {
    const model = new AnthropicModel({ model: "claude-sonnet-4-5", apiKey: "test-key", baseURL: server.url, retry: FAST_RETRY });
    const events = await run(model, [], ["anthropic/overloaded-mid-stream", "anthropic/text-stream"], { stream: true });

    expect(events.filter((event) => event.errorCode)).toEqual([]);
    expect(getText(events.at(-1)!.content)).toBe("Hello!");
  });

  it("ends the run at once with MODEL_QUOTA_EXCEEDED for OpenAI's insufficient_quota, saying it is a billing matter", async () => {
    const model = new OpenAIChatModel({ model: "gpt-4o", apiKey: "test-key", baseURL: `${server.url}/v1`, providerName: "OpenAI", retry: FAST_RETRY });
    const events = await run(model, [], ["openai-chat/insufficient-quota-429"]);

    expect(server.requests).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ errorCode: "MODEL_QUOTA_EXCEEDED" });
    expect(events.at(-1)!.errorMessage).toBe(
      "OpenAI answered 429: You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors. (insufficient_quota) (the account is out of credit or over its spending quota: add credit or raise the limit in the provider's billing settings; retrying will not help)",
    );
  });

  it("ends the run at once with MODEL_QUOTA_EXCEEDED when Gemini's 429 names a per-day quota, though it also sends a retry delay", async () => {
    const model = new GeminiModel({ model: "gemini-2.5-flash", apiKey: "test-key", baseURL: server.url, retry: FAST_RETRY });
    const events = await run(model, [], ["gemini/daily-quota-429"]);

    expect(server.requests).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ errorCode: "MODEL_QUOTA_EXCEEDED" });
    expect(events.at(-1)!.errorMessage).toContain("the daily quota GenerateRequestsPerDayPerProjectPerModel-FreeTier is used up: it resets at midnight Pacific time");
  });

  it("shows an OpenAI refusal that came with a tool call as text, runs the call, and sends the refusal back in its own field", async () => {
    let ran = 0;
    const counted = new FunctionTool({ name: "get_weather", description: "The weather.", parameters: z.object({ location: z.string() }), execute: () => (ran++, { forecast: "sunny" }) });
    const model = new OpenAIChatModel({ model: "gpt-4o", apiKey: "test-key", baseURL: `${server.url}/v1`, providerName: "OpenAI" });
    const events = await run(model, [counted], ["openai-chat/refusal-then-tool-call-stream", "openai-chat/text-stream-usage"], { stream: true });

    const refusal = "I can't look up that person's home address, but I can check the weather in Paris.";
    expect(events.filter((event) => event.errorCode)).toEqual([]);
    expect(getText(events.find((event) => event.content?.parts?.some((part) => part.functionCall))!.content)).toBe(refusal);
    expect(ran).toBe(1);
    expect(server.requests[1]!.body.messages.find((message: any) => message.role === "assistant")).toEqual({
      role: "assistant",
      content: null,
      refusal,
      tool_calls: [{ id: "call_RT1weather", type: "function", function: { name: "get_weather", arguments: '{"location":"Paris"}' } }],
    });
    expect(getText(events.at(-1)!.content)).toBe("Hello!");
  });

  it("runs the function call that followed a Responses refusal and sends the refusal's words back as the assistant's text", async () => {
    const model = new OpenAIResponsesModel({ model: "gpt-4o", apiKey: "test-key", baseURL: `${server.url}/v1`, providerName: "OpenAI" });
    const events = await run(model, [weather], ["openai-responses/refusal-then-function-call", "openai-responses/message-phases"]);

    expect(events.filter((event) => event.errorCode)).toEqual([]);
    const input = server.requests[1]!.body.input;
    expect(input.filter((item: any) => item.type === "function_call_output")).toEqual([{ type: "function_call_output", call_id: "call_RT2weather", output: JSON.stringify({ forecast: "sunny" }) }]);
    expect(input.filter((item: any) => item.role === "assistant")).toEqual([{ role: "assistant", content: "I can't look up that person's home address, but I can check the weather in Paris." }]);
  });
});
