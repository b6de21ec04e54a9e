import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { FunctionTool, getFunctionCalls, getText, InMemorySessionService, LlmAgent, Runner, type Event, type GenerateContentConfig, type Model } from "../../src/index.js";
import type { RetryOptions } from "../../src/models/retry-policy.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { anthropicWire } from "./support/anthropic-wire.js";
import { geminiWire } from "./support/gemini-wire.js";
import { openAIChatWire } from "./support/openai-chat-wire.js";
import { openAIResponsesWire } from "./support/openai-responses-wire.js";
import { startProviderServer, type ProviderServer } from "./support/provider-server.js";
import { USAGE, type Wire } from "./support/wire.js";
import { withoutIdentity } from "../support/identity.js";

const FAST_RETRY: RetryOptions = { initialDelayMs: 1, maxDelayMs: 2 };

function weatherTool() {
  return new FunctionTool({
    name: "get_weather",
    description: "The weather in a city.",
    parameters: z.object({ city: z.string(), unit: z.enum(["celsius", "fahrenheit"]).optional(), days: z.array(z.object({ offset: z.number().int() })).optional() }),
    execute: async ({ city, unit, days }) => ({ report: `Sunny in ${city}`, unit: unit ?? "celsius", days: days?.length ?? 0, unitGiven: unit !== undefined }),
  });
}

async function harness(model: Model, options: { config?: GenerateContentConfig } = {}) {
  const agent = new LlmAgent({ name: "weather_agent", model, instruction: "Answer weather questions.", tools: [weatherTool()], ...(options.config ? { generateContentConfig: options.config } : {}) });
  const runner = new Runner({ appName: "weather", agent, sessionService: new InMemorySessionService() });
  const session = await runner.sessionService.createSession({ appName: "weather", userId: "u1" });
  const run = (text: string, options: { stream?: boolean; abortSignal?: AbortSignal } = {}) =>
    runner.runAsync({
      userId: "u1",
      sessionId: session.id,
      newMessage: userMessage(text),
      runConfig: { streamingMode: options.stream ? "sse" : "none" },
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
  const stored = async () => (await runner.sessionService.getSession({ appName: "weather", userId: "u1", sessionId: session.id }))!;
  return { run, stored };
}

describe.each([geminiWire, openAIChatWire, openAIResponsesWire, anthropicWire])("$provider adapter with LlmAgent and Runner", (wire: Wire) => {
  let server: ProviderServer;
  beforeEach(async () => {
    server = await startProviderServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it("answers with text, sends the instruction and tool schema, and reports usage", async () => {
    server.enqueue(wire.text("Hello there."));
    const { run } = await harness(wire.createModel(server));
    const events = await collect(run("Hi"));

    expect(events).toHaveLength(1);
    expect(getText(events[0]!.content)).toBe("Hello there.");
    expect(events[0]!.usageMetadata).toMatchObject(USAGE);
    const [request] = server.requests;
    expect(request!.url).toBe(wire.path(false));
    expect(wire.streamed(request!)).toBe(false);
    expect(withoutIdentity(wire.systemText(request!.body))).toBe("Answer weather questions.");
    const tools = wire.toolSchemas(request!.body);
    expect(Object.keys(tools)).toEqual(["get_weather"]);
    expect(wire.toolViolations(tools.get_weather)).toEqual([]);
  });

  it("sends the agent's generation settings in the provider's names", async () => {
    server.enqueue(wire.text("Ok."));
    const { run } = await harness(wire.createModel(server), { config: { temperature: 0.25, maxOutputTokens: 123 } });
    await collect(run("Hi"));

    expect(wire.generation(server.requests[0]!.body)).toEqual({ temperature: 0.25, maxTokens: 123 });
  });

  it("refuses a __proto__ argument as the model sent it, with an error result it can read, and never as the arguments' prototype", async () => {
    // The arguments were copied by assignment, so the key became the copy's prototype: the check never saw it, and `args.unit` read "kelvin" through it.
    server.enqueue(wire.calls([{ id: "call_1", name: "get_weather", args: JSON.parse('{"city": "Paris", "__proto__": {"unit": "kelvin"}}') as Record<string, unknown> }]), wire.text("Sorry."));
    const { run, stored } = await harness(wire.createModel(server));
    const events = await collect(run("Weather in Paris?"));

    const [call] = getFunctionCalls(events[0]!.content);
    expect(Object.getPrototypeOf(call!.args)).toBe(Object.prototype);
    expect((call!.args as { unit?: unknown }).unit).toBeUndefined();
    expect(JSON.stringify(call!.args)).toBe('{"city":"Paris","__proto__":{"unit":"kelvin"}}');
    const response = events[1]!.content!.parts![0]!.functionResponse!.response as { status: string; invalidArguments: unknown };
    expect(response.status).toBe("error");
    expect(response.invalidArguments).toEqual([{ field: "__proto__", problem: "is not allowed as a field name" }]);
    expect(JSON.stringify((await stored()).events[1]!.content!.parts![0]!.functionCall!.args)).toBe('{"city":"Paris","__proto__":{"unit":"kelvin"}}');
  });

  it("runs one function call and sends its result back in the next request", async () => {
    server.enqueue(wire.calls([{ id: "call_1", name: "get_weather", args: { city: "Paris" } }]), wire.text("Sunny in Paris."));
    const { run } = await harness(wire.createModel(server));
    const events = await collect(run("Weather in Paris?"));

    expect(getFunctionCalls(events[0]!.content)).toMatchObject([{ name: "get_weather", args: { city: "Paris" } }]);
    expect(getText(events.at(-1)!.content)).toBe("Sunny in Paris.");
    const [result] = wire.functionResponses(server.requests[1]!.body);
    expect(result!.response).toMatchObject({ report: "Sunny in Paris", unit: "celsius" });
    // Ids the provider gave come back with the result; Gemini gives none and gets none back.
    expect(result!.id).toBe(wire === geminiWire ? undefined : "call_1");
  });

  it("runs several parallel calls and returns every result in one request", async () => {
    server.enqueue(
      wire.calls([
        { id: "call_a", name: "get_weather", args: { city: "Oslo" } },
        { id: "call_b", name: "get_weather", args: { city: "Rome", unit: "fahrenheit" } },
      ]),
      wire.text("Done."),
    );
    const { run } = await harness(wire.createModel(server));
    const events = await collect(run("Oslo and Rome?"));

    expect(getFunctionCalls(events[0]!.content).map((call) => call.args)).toEqual([{ city: "Oslo" }, { city: "Rome", unit: "fahrenheit" }]);
    expect(wire.functionResponses(server.requests[1]!.body).map((result) => result.response)).toMatchObject([
      { report: "Sunny in Oslo", unit: "celsius" },
      { report: "Sunny in Rome", unit: "fahrenheit" },
    ]);
    expect(server.requests).toHaveLength(2);
  });

  it("streams partial text events as they arrive, then the complete event with usage", async () => {
    server.enqueue(wire.streamText(["The sky ", "is clear ", "today."]));
    const { run, stored } = await harness(wire.createModel(server));
    const events = await collect(run("Sky?", { stream: true }));

    const partial = events.filter((event) => event.partial);
    expect(partial.map((event) => getText(event.content))).toEqual(["The sky ", "is clear ", "today."]);
    const final = events.at(-1)!;
    expect(final.partial).toBeFalsy();
    expect(getText(final.content)).toBe("The sky is clear today.");
    expect(final.usageMetadata).toMatchObject(USAGE);
    expect(wire.streamed(server.requests[0]!)).toBe(true);
    expect(server.requests[0]!.url).toBe(wire.path(true));
    // Partial events are not stored; the complete one is.
    expect((await stored()).events.map((event) => getText(event.content))).toEqual(["Sky?", "The sky is clear today."]);
  });

  it("assembles function calls split across stream chunks", async () => {
    const days = [{ offset: 0 }, { offset: 1 }];
    server.enqueue(
      wire.streamCalls([
        { id: "call_s1", name: "get_weather", args: { city: "Lisbon", days } },
        { id: "call_s2", name: "get_weather", args: { city: "Porto" } },
      ]),
      wire.streamText(["Both ", "sunny."]),
    );
    const { run } = await harness(wire.createModel(server));
    const events = await collect(run("Lisbon and Porto?", { stream: true }));

    const callEvent = events.find((event) => !event.partial && getFunctionCalls(event.content).length > 0)!;
    expect(getFunctionCalls(callEvent.content).map((call) => call.args)).toEqual([{ city: "Lisbon", days }, { city: "Porto" }]);
    expect(callEvent.usageMetadata).toMatchObject(USAGE);
    expect(wire.functionResponses(server.requests[1]!.body).map((result) => result.response)).toMatchObject([{ days: 2 }, { days: 0 }]);
    expect(getText(events.at(-1)!.content)).toBe("Both sunny.");
  });

  it("treats a null for an optional field as absent before the tool's schema is checked", async () => {
    server.enqueue(wire.calls([{ id: "call_n", name: "get_weather", args: { city: "Oslo", unit: null, days: null } }]), wire.text("Done."));
    const { run } = await harness(wire.createModel(server));
    await collect(run("Oslo?"));

    const [result] = wire.functionResponses(server.requests[1]!.body);
    expect(result!.response).toEqual({ report: "Sunny in Oslo", unit: "celsius", days: 0, unitGiven: false });
  });

  it("sends the model the same validation error as any other model gets for the same bad arguments", async () => {
    const badArgs = { city: 42, unit: "kelvin" };
    const reference = new ScriptedModel([functionCallsResponse({ name: "get_weather", args: badArgs }), textResponse("Sorry.")]);
    await collect((await harness(reference)).run("Weather?"));
    const expected = reference.requests[1]!.contents.at(-1)!.parts![0]!.functionResponse!.response;

    server.enqueue(wire.calls([{ id: "call_bad", name: "get_weather", args: badArgs }]), wire.text("Sorry."));
    const { run } = await harness(wire.createModel(server));
    await collect(run("Weather?"));

    expect(expected).toMatchObject({ status: "error" });
    expect(wire.functionResponses(server.requests[1]!.body).map((result) => result.response)).toEqual([expected]);
  });

  it("retries a 429, waiting as long as Retry-After says, then succeeds", async () => {
    server.enqueue(wire.error(429, "Rate limit reached, slow down.", { "retry-after": "0.2" }), wire.text("Made it."));
    const { run } = await harness(wire.createModel(server, FAST_RETRY));
    const events = await collect(run("Hi"));

    expect(getText(events.at(-1)!.content)).toBe("Made it.");
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(190);
  });

  it("retries a 500 with backoff, then succeeds", async () => {
    server.enqueue(wire.error(500, "Internal error."), wire.error(503, "Overloaded."), wire.streamText(["Back ", "online."]));
    const { run } = await harness(wire.createModel(server, FAST_RETRY));
    const events = await collect(run("Hi", { stream: true }));

    expect(getText(events.at(-1)!.content)).toBe("Back online.");
    expect(server.requests).toHaveLength(3);
  });

  it("gives up after the configured retries with MODEL_RATE_LIMITED (the SDK does not retry on its own)", async () => {
    server.enqueue(wire.error(429, "Quota exceeded."), wire.text("never sent"));
    const { run } = await harness(wire.createModel(server, { ...FAST_RETRY, maxRetries: 0 }));
    const events = await collect(run("Hi"));

    expect(server.requests).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ errorCode: "MODEL_RATE_LIMITED" });
    expect(events.at(-1)!.errorMessage).toContain("Quota exceeded.");
  });

  it("turns a 400 into an error event with the provider's message, without retrying, and keeps the session intact", async () => {
    server.enqueue(wire.error(400, "Invalid schema for function 'get_weather'."));
    const { run, stored } = await harness(wire.createModel(server, FAST_RETRY));
    const events = await collect(run("Hi"));

    expect(server.requests).toHaveLength(1);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ errorCode: "MODEL_BAD_REQUEST" });
    expect(events[0]!.errorMessage).toContain("Invalid schema for function 'get_weather'.");
    expect(events[0]!.errorMessage).toMatch(/answered 400/);
    const session = await stored();
    expect(getText(session.events[0]!.content)).toBe("Hi");
    expect(session.events.map((event) => event.errorCode)).toEqual([undefined, "MODEL_BAD_REQUEST"]);
  });

  it("retries when the connection drops before any answer", async () => {
    server.enqueue((_request, response) => void response.destroy(), wire.text("Reconnected."));
    const { run } = await harness(wire.createModel(server, FAST_RETRY));
    const events = await collect(run("Hi"));

    expect(getText(events.at(-1)!.content)).toBe("Reconnected.");
    expect(server.requests).toHaveLength(2);
  });

  it("does not replay a stream that broke after text was shown, and reports the failure", async () => {
    server.enqueue(async (request, response) => {
      await wire.hang("Half an ")(request, response);
      response.destroy();
    }, wire.text("never sent"));
    const { run } = await harness(wire.createModel(server, FAST_RETRY));
    const events = await collect(run("Hi", { stream: true }));

    expect(server.requests).toHaveLength(1);
    expect(events[0]).toMatchObject({ partial: true });
    expect(events.at(-1)).toMatchObject({ errorCode: "MODEL_UNAVAILABLE", errorMessage: expect.stringContaining("the connection was lost") });
  });

  it("aborts a request still waiting for its answer when the run is aborted", async () => {
    server.enqueue(() => undefined);
    const { run } = await harness(wire.createModel(server));
    const controller = new AbortController();
    const pending = collect(run("Hi", { abortSignal: controller.signal }));
    for (let waited = 0; server.requests.length === 0 && waited < 500; waited++) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();

    expect(await pending).toEqual([]);
    expect(await server.requests[0]!.closedEarly).toBe(true);
  });

  it("aborts the HTTP request when the run is aborted", async () => {
    server.enqueue(wire.hang("Thinking about "));
    const { run } = await harness(wire.createModel(server));
    const controller = new AbortController();
    const events: Event[] = [];
    for await (const event of run("Hi", { stream: true, abortSignal: controller.signal })) {
      events.push(event);
      if (event.partial) controller.abort();
    }

    expect(events.map((event) => getText(event.content))).toEqual(["Thinking about "]);
    expect(await server.requests[0]!.closedEarly).toBe(true);
  });
});
