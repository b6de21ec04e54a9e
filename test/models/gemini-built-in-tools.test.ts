import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { BuiltInCodeExecutor, FunctionTool, GOOGLE_MAPS_GROUNDING, GOOGLE_SEARCH, InMemoryRunner, LlmAgent, URL_CONTEXT, getText, type LlmAgentOptions, type Model } from "../../src/index.js";
import { collect, userMessage } from "../../src/testing/index.js";
import { anthropicWire } from "./support/anthropic-wire.js";
import { geminiWire } from "./support/gemini-wire.js";
import { openAIChatWire } from "./support/openai-chat-wire.js";
import { openAIResponsesWire } from "./support/openai-responses-wire.js";
import { json, sse, startProviderServer, type ProviderServer } from "./support/provider-server.js";

const groundingMetadata = {
  webSearchQueries: ["weather paris today"],
  groundingChunks: [{ web: { uri: "https://example.com/paris", title: "example.com" } }],
  groundingSupports: [{ segment: { startIndex: 0, endIndex: 15, text: "Sunny in Paris." }, groundingChunkIndices: [0], confidenceScores: [0.9] }],
  searchEntryPoint: { renderedContent: "<div>weather paris today</div>" },
};

function answer(parts: object[], extra: object = {}) {
  return { candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0, ...extra }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 4, totalTokenCount: 7 } };
}

const clock = new FunctionTool({ name: "now", description: "The current time.", parameters: z.object({}), execute: async () => ({ now: "noon" }) });

async function run(model: Model, options: Omit<LlmAgentOptions, "name" | "model">, stream = false) {
  const runner = new InMemoryRunner({ appName: "builtin", agent: new LlmAgent({ name: "assistant", model, ...options }) });
  const session = await runner.sessionService.createSession({ appName: "builtin", userId: "u1" });
  return collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage("Weather in Paris?"), runConfig: { streamingMode: stream ? "sse" : "none" } }));
}

describe("Gemini's built-in tools on the wire", () => {
  let server: ProviderServer;
  beforeEach(async () => {
    server = await startProviderServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it("sends googleSearch beside the function declarations and keeps the grounding metadata on the event", async () => {
    server.enqueue((_request, response) => json(response, 200, answer([{ text: "Sunny in Paris." }], { groundingMetadata })));
    const events = await run(geminiWire.createModel(server), { tools: [clock, GOOGLE_SEARCH] });

    expect(server.requests[0]!.body.tools).toEqual([{ functionDeclarations: [expect.objectContaining({ name: "now" })] }, { googleSearch: {} }]);
    expect(getText(events[0]!.content)).toBe("Sunny in Paris.");
    expect(events[0]!.groundingMetadata).toEqual(groundingMetadata);
  });

  it("sends urlContext alone when the agent has no function tools", async () => {
    server.enqueue((_request, response) => json(response, 200, answer([{ text: "The page says hello." }])));
    await run(geminiWire.createModel(server), { tools: [URL_CONTEXT] });

    expect(server.requests[0]!.body.tools).toEqual([{ urlContext: {} }]);
  });

  it("sends googleMaps for GOOGLE_MAPS_GROUNDING and keeps the places Gemini grounded its answer in", async () => {
    // Shaped as the Gemini API documents a Maps-grounded answer: the places as grounding chunks.
    const mapsGrounding = { groundingChunks: [{ maps: { uri: "https://maps.google.com/?cid=1", title: "Café de Flore", placeId: "places/ChIJ1" } }], groundingSupports: [{ segment: { startIndex: 0, endIndex: 13, text: "Café de Flore" }, groundingChunkIndices: [0] }] };
    server.enqueue((_request, response) => json(response, 200, answer([{ text: "Café de Flore is open now." }], { groundingMetadata: mapsGrounding })));
    const events = await run(geminiWire.createModel(server), { tools: [clock, GOOGLE_MAPS_GROUNDING] });

    expect(server.requests[0]!.body.tools).toEqual([{ functionDeclarations: [expect.objectContaining({ name: "now" })] }, { googleMaps: {} }]);
    expect(events[0]!.groundingMetadata).toEqual(mapsGrounding);
  });

  it("sends codeExecution for a BuiltInCodeExecutor and keeps the code and its result as parts, streamed or not", async () => {
    const parts = [
      { text: "Let me compute it." },
      { executableCode: { language: "PYTHON", code: "print(6 * 7)" } },
      { codeExecutionResult: { outcome: "OUTCOME_OK", output: "42\n" } },
      { text: "The answer is 42." },
    ];
    server.enqueue(
      (_request, response) => json(response, 200, answer(parts)),
      (_request, response) => sse(response, parts.map((part, index) => ({ data: index === parts.length - 1 ? answer([part]) : { candidates: [{ content: { role: "model", parts: [part] }, index: 0 }] } }))),
    );
    const whole = await run(geminiWire.createModel(server), { codeExecutor: new BuiltInCodeExecutor() });
    const streamed = await run(geminiWire.createModel(server), { codeExecutor: new BuiltInCodeExecutor() }, true);

    expect(server.requests.map((request) => request.body.tools)).toEqual([[{ codeExecution: {} }], [{ codeExecution: {} }]]);
    expect(whole[0]!.content).toEqual({ role: "model", parts });
    expect(streamed.at(-1)!.content).toEqual({ role: "model", parts });
    expect(streamed.filter((event) => event.partial).map((event) => getText(event.content))).toEqual(["Let me compute it.", "The answer is 42."]);
  });

  describe.each([openAIChatWire, openAIResponsesWire, anthropicWire])("on $provider", (wire) => {
    it("ends the first model call with GEMINI_TOOL_UNSUPPORTED, naming the tool, before sending anything", async () => {
      const events = await run(wire.createModel(server), { tools: [clock, GOOGLE_SEARCH] });

      expect(server.requests).toHaveLength(0);
      expect(events).toHaveLength(1);
      expect(events[0]!.errorCode).toBe("GEMINI_TOOL_UNSUPPORTED");
      expect(events[0]!.errorMessage).toContain("Gemini's built-in tools (googleSearch) run only on Gemini models");
      expect(events[0]!.errorMessage).toContain("remove GOOGLE_SEARCH");
    });
  });

  it("names GOOGLE_MAPS_GROUNDING when it meets another provider", async () => {
    const events = await run(openAIChatWire.createModel(server), { tools: [GOOGLE_MAPS_GROUNDING] });

    expect(server.requests).toHaveLength(0);
    expect(events[0]!.errorMessage).toContain("Gemini's built-in tools (googleMaps) run only on Gemini models");
    expect(events[0]!.errorMessage).toContain("remove GOOGLE_MAPS_GROUNDING");
  });

  it("names codeExecutor when a code executor meets another provider", async () => {
    const events = await run(anthropicWire.createModel(server), { codeExecutor: new BuiltInCodeExecutor() });

    expect(server.requests).toHaveLength(0);
    expect(events[0]!.errorMessage).toContain("remove codeExecutor: new BuiltInCodeExecutor()");
  });
});
