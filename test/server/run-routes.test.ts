import { describe, expect, it } from "vitest";
import { AgentTool, FunctionTool, LlmAgent } from "../../src/index.js";
import { FunctionModel, functionCallsResponse, lastFunctionResponse, lastUserText, streamedText, textResponse } from "../../src/testing/index.js";
import { sseEvents } from "./helpers.js";
import { inlineApi } from "./inline-api.js";

/** Repeats the user's text back, and says which state it saw. */
function parrot() {
  const model = new FunctionModel((request) => textResponse(`you said: ${lastUserText(request) ?? "(nothing)"}`));
  return { model, agent: new LlmAgent({ name: "parrot", model, instruction: "Mood: {mood?}" }) };
}

/** Calls `add` once with the numbers in the user's text, then reports the tool's sum. */
function adder() {
  const add = new FunctionTool({
    name: "add",
    description: "Adds two numbers.",
    parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    execute: async ({ a, b }, context) => {
      context.state.set("last_sum", (a as number) + (b as number));
      return { sum: (a as number) + (b as number) };
    },
  });
  const model = new FunctionModel((request) => {
    const answered = lastFunctionResponse(request);
    if (answered) return textResponse(`the sum is ${(answered.response as { sum: number }).sum}`);
    const [a, b] = (lastUserText(request) ?? "").split(" ").map(Number);
    return functionCallsResponse({ name: "add", args: { a, b } });
  });
  return new LlmAgent({ name: "adder", model, tools: [add] });
}

async function withSession(agents: Parameters<typeof inlineApi>[0], appName: string, options: Parameters<typeof inlineApi>[1] = {}) {
  const api = await inlineApi(agents, options);
  await api.call(`/apps/${appName}/users/u1/sessions/s1`, { json: {} });
  return api;
}

describe("POST /run", () => {
  it("accepts ADK Python's snake_case body (app_name, user_id, session_id, new_message)", async () => {
    const { json } = await withSession({ parrot: parrot().agent }, "parrot");
    const response = await json("/run", { json: { app_name: "parrot", user_id: "u1", session_id: "s1", new_message: { role: "user", parts: [{ text: "snake" }] } } });
    expect(response.status).toBe(200);
    expect(response.body.map((event: any) => event.content.parts[0].text)).toEqual(["you said: snake"]);
  });

  it("yields an agent tool's inner events only when the body asks with streamAgentToolEvents (the dev UI does)", async () => {
    const inner = new LlmAgent({ name: "inner", model: new FunctionModel(() => textResponse("inner answer")) });
    const outerModel = new FunctionModel((request) => (lastFunctionResponse(request) ? textResponse("outer answer") : functionCallsResponse({ name: "inner", args: { request: "go" } })));
    const outer = new LlmAgent({ name: "outer", model: outerModel, tools: [new AgentTool({ agent: inner })] });
    const { json } = await withSession({ outer }, "outer");
    const message = { parts: [{ text: "hi" }] };
    const plain = await json("/run", { json: { appName: "outer", userId: "u1", sessionId: "s1", newMessage: message } });
    expect(plain.body.map((event: any) => event.author)).toEqual(["outer", "outer", "outer"]);
    const watched = await json("/run", { json: { appName: "outer", userId: "u1", sessionId: "s1", newMessage: message, streamAgentToolEvents: true } });
    expect(watched.body.map((event: any) => event.author)).toEqual(["outer", "user", "inner", "outer", "outer"]);
  });

  it("takes a message without a role for the user's", async () => {
    const { json, services } = await withSession({ parrot: parrot().agent }, "parrot");
    await json("/run", { json: { appName: "parrot", userId: "u1", sessionId: "s1", newMessage: { parts: [{ text: "no role" }] } } });
    const stored = await services.sessionService.getSession({ appName: "parrot", userId: "u1", sessionId: "s1" });
    expect(stored!.events[0]).toMatchObject({ author: "user", content: { role: "user", parts: [{ text: "no role" }] } });
  });

  it("applies stateDelta before the model is called, and stores it on the user's event", async () => {
    const { model, agent } = parrot();
    const { json, services } = await withSession({ parrot: agent }, "parrot");
    await json("/run", { json: { appName: "parrot", userId: "u1", sessionId: "s1", newMessage: { parts: [{ text: "hi" }] }, stateDelta: { mood: "cheerful" } } });
    expect(model.requests[0]!.systemInstruction).toContain("Mood: cheerful");
    const stored = await services.sessionService.getSession({ appName: "parrot", userId: "u1", sessionId: "s1" });
    expect(stored!.state).toEqual({ mood: "cheerful" });
    expect(stored!.events[0]!.actions.stateDelta).toEqual({ mood: "cheerful" });
  });

  it("runs a tool and returns call, response and answer, with the tool's state change stored", async () => {
    const { json } = await withSession({ adder: adder() }, "adder");
    const events = (await json("/run", { json: { appName: "adder", userId: "u1", sessionId: "s1", newMessage: { parts: [{ text: "2 40" }] } } })).body as any[];
    expect(events.map((event) => Object.keys(event.content.parts[0])[0])).toEqual(["functionCall", "functionResponse", "text"]);
    expect(events[0].content.parts[0].functionCall).toMatchObject({ name: "add", args: { a: 2, b: 40 } });
    expect(events[1].content.parts[0].functionResponse).toMatchObject({ name: "add", response: { sum: 42 }, id: events[0].content.parts[0].functionCall.id });
    expect(events[1].actions.stateDelta).toEqual({ last_sum: 42 });
    expect(events[2].content.parts[0].text).toBe("the sum is 42");
    expect(new Set(events.map((event) => event.invocationId)).size).toBe(1);
    expect((await json("/apps/adder/users/u1/sessions/s1")).body.state).toEqual({ last_sum: 42 });
  });

  it("answers an unknown app with 404 APP_NOT_FOUND", async () => {
    const { json } = await withSession({ parrot: parrot().agent }, "parrot");
    const response = await json("/run", { json: { appName: "nope", userId: "u1", sessionId: "s1", newMessage: { parts: [{ text: "hi" }] } } });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe("APP_NOT_FOUND");
  });

  it.each([
    [{ userId: "u1", sessionId: "s1" }, '"appName" is required and must be a non-empty string.'],
    [{ appName: "parrot", userId: "u1", sessionId: "" }, '"sessionId" is required and must be a non-empty string.'],
    [{ appName: "parrot", userId: 7, sessionId: "s1" }, '"userId" is required and must be a non-empty string.'],
    [{ appName: "parrot", userId: "u1", sessionId: "s1", newMessage: { parts: ["hi"] } }, '"newMessage.parts" must be a list of parts such as [{"text": "Hello"}].'],
    [{ appName: "parrot", userId: "u1", sessionId: "s1", stateDelta: [1] }, '"stateDelta" must be a JSON object.'],
  ])("refuses %j with 400 INVALID_BODY, calling no model", async (body, error) => {
    const { model, agent } = parrot();
    const { json, services } = await withSession({ parrot: agent }, "parrot");
    const response = await json("/run", { json: body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "INVALID_BODY", error });
    expect(model.requests).toEqual([]);
    expect((await services.sessionService.getSession({ appName: "parrot", userId: "u1", sessionId: "s1" }))!.events).toEqual([]);
  });

  it("stores a failing model's error as an event and still answers 200", async () => {
    const agent = new LlmAgent({ name: "broken", model: new FunctionModel(() => new Error("quota gone")) });
    const { json, services } = await withSession({ broken: agent }, "broken");
    const response = await json("/run", { json: { appName: "broken", userId: "u1", sessionId: "s1", newMessage: { parts: [{ text: "hi" }] } } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([expect.objectContaining({ author: "broken", errorCode: "MODEL_ERROR", errorMessage: "quota gone" })]);
    const stored = await services.sessionService.getSession({ appName: "broken", userId: "u1", sessionId: "s1" });
    expect(stored!.events.map((event) => event.errorCode ?? "ok")).toEqual(["ok", "MODEL_ERROR"]);
  });

  it("answers a failure inside the run with the run's own error event, the last of the list", async () => {
    const agent = new LlmAgent({
      name: "crashing",
      model: new FunctionModel(() => textResponse("never")),
      beforeModelCallback: () => {
        throw new Error("callback exploded");
      },
    });
    const { json } = await withSession({ crashing: agent }, "crashing");
    const response = await json("/run", { json: { appName: "crashing", userId: "u1", sessionId: "s1", newMessage: { parts: [{ text: "hi" }] } } });
    expect(response.status).toBe(200);
    expect(response.body.at(-1)).toMatchObject({ errorCode: "CALLBACK_FAILED", errorMessage: expect.stringContaining("beforeModelCallback threw: callback exploded") });
  });

  it("answers a failure before the run starts (the store is down) with a 500 that names it, not an empty list", async () => {
    const { json, services } = await withSession({ parrot: parrot().agent }, "parrot");
    services.sessionService.getSession = async () => {
      throw new Error("connection refused");
    };
    const response = await json("/run", { json: { appName: "parrot", userId: "u1", sessionId: "s1", newMessage: { parts: [{ text: "hi" }] } } });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ code: "INTERNAL", error: "The server failed: connection refused" });
  });
});

describe("POST /run_sse", () => {
  it("answers with an event stream that is not cached", async () => {
    const { call } = await withSession({ parrot: parrot().agent }, "parrot");
    const response = await call("/run_sse", { json: { appName: "parrot", userId: "u1", sessionId: "s1", newMessage: { parts: [{ text: "hi" }] } } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(sseEvents(await response.text()).map((event) => event.content.parts[0].text)).toEqual(["you said: hi"]);
  });

  it("streams a model's chunks as partial events that add up to the final one, storing only the final one", async () => {
    const text = "one two three four five six seven";
    const agent = new LlmAgent({ name: "talker", model: new FunctionModel(() => streamedText(text, { wordsPerChunk: 2 })) });
    const { call, services } = await withSession({ talker: agent }, "talker");
    const body = await (await call("/run_sse", { json: { appName: "talker", userId: "u1", sessionId: "s1", newMessage: { parts: [{ text: "go" }] }, streaming: true } })).text();
    const events = sseEvents(body);
    expect(events.map((event) => event.partial ?? false)).toEqual([true, true, true, true, false]);
    expect(events.slice(0, -1).map((event) => event.content.parts[0].text).join("")).toBe(text);
    expect(events.at(-1)!.content.parts[0].text).toBe(text);
    const stored = await services.sessionService.getSession({ appName: "talker", userId: "u1", sessionId: "s1" });
    expect(stored!.events.map((event) => event.partial ?? false)).toEqual([false, false]);
  });

  it("does not stream chunks unless streaming is exactly true", async () => {
    const agent = new LlmAgent({ name: "talker", model: new FunctionModel(() => streamedText("a b c d", { wordsPerChunk: 1 })) });
    const { call } = await withSession({ talker: agent }, "talker");
    const body = await (await call("/run_sse", { json: { appName: "talker", userId: "u1", sessionId: "s1", newMessage: { parts: [{ text: "go" }] }, streaming: "yes" } })).text();
    expect(sseEvents(body).map((event) => event.content.parts[0].text)).toEqual(["a b c d"]);
  });

  it("ends the stream with the run's error event when the run fails after its first event", async () => {
    let calls = 0;
    const agent = new LlmAgent({
      name: "flaky",
      model: new FunctionModel(() => functionCallsResponse({ name: "noop", args: {} })),
      tools: [new FunctionTool({ name: "noop", description: "Does nothing.", execute: () => ({ done: true }) })],
      beforeModelCallback: () => {
        if (++calls > 1) throw new Error("second call refused");
        return undefined;
      },
    });
    const { call } = await withSession({ flaky: agent }, "flaky");
    const response = await call("/run_sse", { json: { appName: "flaky", userId: "u1", sessionId: "s1", newMessage: { parts: [{ text: "go" }] } } });
    expect(response.status).toBe(200);
    const events = sseEvents(await response.text());
    expect(events.at(-1)).toMatchObject({ errorCode: "CALLBACK_FAILED", errorMessage: expect.stringContaining("second call refused") });
    expect(events.slice(0, -1).map((event) => Object.keys(event.content.parts[0])[0])).toEqual(["functionCall", "functionResponse"]);
  });

  it("answers a missing session with 404 before any stream starts", async () => {
    const { call } = await withSession({ parrot: parrot().agent }, "parrot");
    const response = await call("/run_sse", { json: { appName: "parrot", userId: "u1", sessionId: "nope", newMessage: { parts: [{ text: "hi" }] } } });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ code: "SESSION_NOT_FOUND" });
  });
});

describe("traces of runs", () => {
  it("keeps the run's spans, nested as the run nests, with each event's span found by its id", async () => {
    const { json } = await withSession({ adder: adder() }, "adder");
    const events = (await json("/run", { json: { appName: "adder", userId: "u1", sessionId: "s1", newMessage: { parts: [{ text: "1 2" }] } } })).body as any[];
    const spans = (await json("/debug/trace/session/s1")).body as any[];
    expect(spans.map((span) => span.name)).toEqual(["invocation", "invoke_agent adder", "chat function-model", "execute_tool add", "chat function-model"]);
    const [invocation, agent, firstCall, tool, secondCall] = spans;
    expect(invocation.parent_span_id).toBeNull();
    expect(agent.parent_span_id).toBe(invocation.span_id);
    for (const child of [firstCall, tool, secondCall]) expect(child.parent_span_id).toBe(agent.span_id);
    expect(new Set(spans.map((span) => span.trace_id)).size).toBe(1);
    for (const span of spans) expect(span.end_time).toBeGreaterThanOrEqual(span.start_time);
    expect(tool.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "add", "gen_ai.tool.call.id": events[0].content.parts[0].functionCall.id, "gen_ai.conversation.id": "s1" });
    expect(firstCall.attributes).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.provider.name": "toolsmith.testing", "gen_ai.request.model": "function-model", "gcp.vertex.agent.event_id": events[0].id });
    expect((await json(`/dev/apps/adder/debug/trace/${events[2].id}`)).body).toMatchObject({ "gcp.vertex.agent.event_id": events[2].id, "gen_ai.agent.name": "adder" });
    expect((await json(`/debug/trace/${events[1].id}`)).body).toMatchObject({ "gen_ai.tool.name": "add" });
  });

  it("has an empty trace for a session that never ran, and a 404 for an unknown event", async () => {
    const { json } = await inlineApi({ adder: adder() });
    expect((await json("/debug/trace/session/never")).body).toEqual([]);
    const missing = await json("/dev/apps/adder/debug/trace/no-such-event");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("TRACE_NOT_FOUND");
  });
});

describe("POST /run_sse writes", () => {
  /** Reads the SSE body as it arrives: each chunk the server wrote, with the time it came. */
  async function chunksOf(response: Response): Promise<Array<{ at: number; events: any[] }>> {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const started = performance.now();
    const chunks: Array<{ at: number; events: any[] }> = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const text = decoder.decode(read.value);
      chunks.push({ at: performance.now() - started, events: text.split("\n\n").filter((block) => block.startsWith("data: ")).map((block) => JSON.parse(block.slice(6))) });
    }
    return chunks;
  }

  it("sends events ready at the same moment in one write, and an event that comes later as soon as it comes", async () => {
    // Three chunks 300 ms apart, then the complete reply right after the last chunk.
    const slow = new LlmAgent({ name: "slow", model: new FunctionModel(() => streamedText("one two three four five six seven eight nine", { wordsPerChunk: 3 }), { chunkDelayMs: 300 }) });
    const { call } = await withSession({ slow }, "slow");
    const response = await call("/run_sse", { json: { appName: "slow", userId: "u1", sessionId: "s1", newMessage: { parts: [{ text: "go" }] }, streaming: true } });
    const chunks = await chunksOf(response);
    const events = chunks.flatMap((chunk) => chunk.events);
    console.log(`SSE writes: ${chunks.map((chunk) => `${chunk.events.length} event(s) at ${chunk.at.toFixed(0)} ms`).join(", ")}`);
    expect(events.map((event) => (event.partial ? "partial" : "complete"))).toEqual(["partial", "partial", "partial", "complete"]);
    // Each chunk went out when the model produced it, not held for the next.
    const firstPartial = chunks.find((chunk) => chunk.events.some((event) => event.partial))!;
    expect(chunks.at(-1)!.at - firstPartial.at).toBeGreaterThan(450);
    // The last chunk and the complete reply were ready together: one write carries both.
    expect(chunks.at(-1)!.events.map((event) => Boolean(event.partial))).toEqual([true, false]);
  });
});
