/**
 * A live run end to end as a user runs one: `Runner.runLive` with ADK's `Gemini` class, `@google/genai`'s real
 * Live client over a real WebSocket to a local server speaking the Live API's wire format. The model calls a tool,
 * the tool's result goes back as a toolResponse, the answer streams, the session stores the complete events.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { FunctionTool, InMemoryRunner, LiveRequestQueue, LlmAgent, type Event } from "../../src/index.js";
import { Gemini } from "../../src/models/gemini/index.js";
import { startGeminiLiveServer, type GeminiLiveServer } from "../support/gemini-live-server.js";

let server: GeminiLiveServer;
const saved = process.env.GOOGLE_GEMINI_BASE_URL;
beforeEach(async () => {
  server = await startGeminiLiveServer();
  process.env.GOOGLE_GEMINI_BASE_URL = server.baseUrl;
});
afterEach(async () => {
  if (saved === undefined) delete process.env.GOOGLE_GEMINI_BASE_URL;
  else process.env.GOOGLE_GEMINI_BASE_URL = saved;
  await server.close();
});

const weather = new FunctionTool({ name: "get_weather", description: "The weather in a city.", parameters: z.object({ city: z.string() }), execute: ({ city }) => ({ city, sky: "sunny" }) });

describe("Runner.runLive with Gemini over the Live API", () => {
  it("calls the tool, answers the call on the socket, streams the answer and stores the complete events", async () => {
    server.enqueue([
      // Calls are gathered until the turn completes (the Live API may split parallel calls over several messages).
      { send: [{ toolCall: { functionCalls: [{ id: "fc-1", name: "get_weather", args: { city: "Paris" } }] } }, { serverContent: { turnComplete: true } }] },
      {
        after: (message) => "toolResponse" in message,
        send: [
          { serverContent: { modelTurn: { role: "model", parts: [{ text: "It is " }] } } },
          { serverContent: { modelTurn: { role: "model", parts: [{ text: "sunny in Paris." }] } } },
          { serverContent: { turnComplete: true } },
          { usageMetadata: { promptTokenCount: 40, responseTokenCount: 6, totalTokenCount: 46 } },
        ],
      },
    ]);
    const agent = new LlmAgent({ name: "weather", model: new Gemini({ model: "gemini-live-2.5-flash", apiKey: "test-key" }), instruction: "Answer briefly.", tools: [weather] });
    const runner = new InMemoryRunner({ agent, appName: "app" });
    const queue = new LiveRequestQueue();
    queue.sendContent({ role: "user", parts: [{ text: "Weather in Paris?" }] });
    const events: Event[] = [];
    for await (const event of runner.runLive({ userId: "u", sessionId: "s", liveRequestQueue: queue, runConfig: { responseModalities: ["TEXT"] } })) {
      events.push(event);
      if (event.usageMetadata) queue.close();
      if (events.length > 20) throw new Error(`Too many events: ${JSON.stringify(events)}`);
    }

    const connection = await server.connection(0);
    expect(connection.setup).toMatchObject({ model: "models/gemini-live-2.5-flash", generationConfig: { responseModalities: ["TEXT"] } });
    expect(JSON.stringify(connection.setup!.systemInstruction)).toContain("Answer briefly.");
    expect(connection.setup!.tools[0].functionDeclarations.map((declaration: { name: string }) => declaration.name)).toEqual(["get_weather"]);
    expect(connection.messages[0]).toEqual({ clientContent: { turns: [{ role: "user", parts: [{ text: "Weather in Paris?" }] }], turnComplete: true } });
    expect(connection.messages[1]).toEqual({ toolResponse: { functionResponses: [{ id: "fc-1", name: "get_weather", response: { city: "Paris", sky: "sunny" } }] } });

    expect(events.map((event) => [event.partial ?? false, event.content?.parts?.[0]?.text ?? (event.content?.parts?.[0]?.functionCall ? "call" : event.content?.parts?.[0]?.functionResponse ? "response" : null), event.turnComplete ?? false])).toEqual([
      [false, "Weather in Paris?", false],
      [false, "call", false],
      [false, "response", false],
      [false, null, true],
      [true, "It is ", false],
      [true, "sunny in Paris.", false],
      [false, "It is sunny in Paris.", false],
      [false, null, true],
      [false, null, false],
    ]);
    expect(events[1]!.content!.parts![0]!.functionCall!.id).toBe("fc-1");
    const session = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: "s" }))!;
    expect(session.events.map((event) => event.id)).toEqual(events.filter((event) => !event.partial).map((event) => event.id));
    expect(session.events.at(-1)!.usageMetadata).toMatchObject({ totalTokenCount: 46 });
    expect(await connection.closed).toMatchObject({ code: expect.any(Number) });
  });

  it("takes the session up again with its resumption handle when the socket drops, and without one ends the run saying so", async () => {
    server.enqueue([{ send: [{ sessionResumptionUpdate: { newHandle: "handle-1", resumable: true } }, { serverContent: { modelTurn: { role: "model", parts: [{ text: "Half" }] } } }], then: "drop" }]);
    server.enqueue([{ after: "setup", send: [{ serverContent: { modelTurn: { role: "model", parts: [{ text: "Resumed." }] } } }, { serverContent: { turnComplete: true } }] }]);
    const agent = new LlmAgent({ name: "voice", model: new Gemini({ model: "gemini-live-2.5-flash", apiKey: "test-key" }) });
    const runner = new InMemoryRunner({ agent, appName: "app" });
    const queue = new LiveRequestQueue();
    queue.sendContent({ role: "user", parts: [{ text: "Tell me a story." }] });
    const events: Event[] = [];
    for await (const event of runner.runLive({ userId: "u", sessionId: "s", liveRequestQueue: queue, runConfig: { responseModalities: ["TEXT"] } })) {
      events.push(event);
      if (event.turnComplete) queue.close();
    }
    expect(server.connections).toHaveLength(2);
    expect(server.connections[1]!.setup).toMatchObject({ sessionResumption: { handle: "handle-1" } });
    // The server holds the conversation: the history is not sent again.
    expect(server.connections[1]!.messages).toEqual([]);
    // The text cut off by the drop was shown as it came (partial, not stored); the resumed answer is whole.
    expect(events.filter((event) => event.content && event.author === "voice").map((event) => [event.partial ?? false, event.content!.parts![0]!.text])).toEqual([[true, "Half"], [true, "Resumed."], [false, "Resumed."]]);

    server.enqueue([{ send: [{ serverContent: { modelTurn: { role: "model", parts: [{ text: "Half" }] } } }], then: "drop" }]);
    const second = new LiveRequestQueue();
    second.sendContent({ role: "user", parts: [{ text: "Again." }] });
    const ended: Event[] = [];
    for await (const event of runner.runLive({ userId: "u", sessionId: "s2", liveRequestQueue: second, runConfig: { responseModalities: ["TEXT"] } })) ended.push(event);
    expect(ended.at(-1)).toMatchObject({ errorCode: "LIVE_CONNECTION_FAILED" });
    expect(ended.at(-1)!.errorMessage).toContain("closed (code 1006: the connection was lost)");
  });

  it("a live server that refuses the setup ends the run with a stored LIVE_CONNECTION_FAILED event", async () => {
    server.enqueue({ refuseSetup: { code: 1008, reason: "models/gemini-2.5-pro is not found for API version v1alpha, or is not supported for bidiGenerateContent." } });
    const agent = new LlmAgent({ name: "voice", model: new Gemini({ model: "gemini-2.5-pro", apiKey: "test-key" }) });
    const runner = new InMemoryRunner({ agent, appName: "app" });
    const queue = new LiveRequestQueue();
    const events: Event[] = [];
    for await (const event of runner.runLive({ userId: "u", sessionId: "s", liveRequestQueue: queue })) events.push(event);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ author: "voice", errorCode: "LIVE_CONNECTION_FAILED" });
    expect(events[0]!.errorMessage).toContain("not supported for bidiGenerateContent");
    const session = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: "s" }))!;
    expect(session.events.map((event) => event.errorCode)).toEqual(["LIVE_CONNECTION_FAILED"]);
  });
});
