import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { InMemoryRunner, LlmAgent, type Model } from "../../src/index.js";
import { collect, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { anthropicWire } from "./support/anthropic-wire.js";
import { geminiWire } from "./support/gemini-wire.js";
import { openAIChatWire } from "./support/openai-chat-wire.js";
import { openAIResponsesWire } from "./support/openai-responses-wire.js";
import { startProviderServer, type ProviderServer } from "./support/provider-server.js";
import type { Wire } from "./support/wire.js";

const CITY = z.object({ city: z.string(), population: z.number() });

async function ask(model: Model) {
  const agent = new LlmAgent({ name: "geo", model, instruction: "Answer as JSON.", outputSchema: CITY, outputKey: "answer" });
  const runner = new InMemoryRunner({ agent, appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Biggest city?") }));
  const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
  return { events, state: stored!.state };
}

/** Where each provider's request carries the schema. */
const SCHEMA_IN_BODY: Record<string, (body: Record<string, unknown>) => unknown> = {
  Gemini: (body) => (body.generationConfig as Record<string, unknown>)?.responseJsonSchema,
  "OpenAI Chat Completions": (body) => ((body.response_format as { json_schema?: { schema?: unknown } })?.json_schema?.schema),
  "OpenAI Responses": (body) => ((body.text as { format?: { schema?: unknown } })?.format?.schema),
  Anthropic: (body) => (String(body.system).includes('"population"') ? "in the system prompt" : undefined),
};

describe.each([geminiWire, openAIChatWire, openAIResponsesWire, anthropicWire])("outputSchema through the $provider adapter", (wire: Wire) => {
  let server: ProviderServer;
  beforeEach(async () => {
    server = await startProviderServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it("sends the schema the provider's way and stores the parsed answer under outputKey", async () => {
    server.enqueue(wire.text('{"city": "Tokyo", "population": 37}'));
    const { state } = await ask(wire.createModel(server));
    expect(state).toEqual({ answer: { city: "Tokyo", population: 37 } });
    const body = server.requests[0]!.body as Record<string, unknown>;
    const sent = SCHEMA_IN_BODY[wire.provider]!(body);
    if (wire.provider === "Anthropic") expect(sent).toBe("in the system prompt");
    else expect(sent).toMatchObject({ type: "object", properties: { city: { type: "string" }, population: { type: "number" } } });
    if (wire.provider === "Gemini") expect((body.generationConfig as Record<string, unknown>).responseMimeType).toBe("application/json");
    else expect(Object.keys(body).filter((key) => key.startsWith("response") && key !== "response_format")).toEqual([]);
  });
});

describe("outputSchema", () => {
  it("ends with an OUTPUT_SCHEMA_MISMATCH error event when the answer does not match, storing nothing under outputKey", async () => {
    const notJson = await ask(new ScriptedModel([textResponse("Tokyo, 37 million")]));
    expect(notJson.events.at(-1)).toMatchObject({ errorCode: "OUTPUT_SCHEMA_MISMATCH", errorMessage: expect.stringContaining("not JSON") });
    const wrong = await ask(new ScriptedModel([textResponse('{"city": "Tokyo", "population": "many"}')]));
    expect(wrong.events.at(-1)).toMatchObject({ errorCode: "OUTPUT_SCHEMA_MISMATCH", errorMessage: expect.stringContaining("population") });
    expect(wrong.state).toEqual({});
  });

  it("checks answers with a zod schema as given, refinements and transforms included, as ADK's validateOutput prefers it", async () => {
    const TRIP = z
      .object({ from: z.number().int(), to: z.number().int(), city: z.string().transform((city) => city.toUpperCase()) })
      .refine((trip) => trip.from <= trip.to, { message: "from must not come after to" });
    const plan = (answer: string) => {
      const agent = new LlmAgent({ name: "planner", model: new ScriptedModel([textResponse(answer)]), outputSchema: TRIP, outputKey: "trip" });
      return { agent, run: async () => {
        const runner = new InMemoryRunner({ agent, appName: "app" });
        const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
        const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("plan") }));
        return { events, state: (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!.state };
      } };
    };
    // The refinement has no JSON Schema form: only the schema as given catches the backwards trip.
    const backwards = await plan('{"from": 5, "to": 1, "city": "Oslo"}').run();
    expect(backwards.events.at(-1)).toMatchObject({ errorCode: "OUTPUT_SCHEMA_MISMATCH", errorMessage: expect.stringContaining("from must not come after to") });
    expect(backwards.state).toEqual({});
    // What is stored is zod's output: the transform ran.
    const { agent, run } = plan('{"from": 1, "to": 5, "city": "Oslo"}');
    expect((await run()).state).toEqual({ trip: { from: 1, to: 5, city: "OSLO" } });
    expect(agent.outputSchemaSource).toBe(TRIP);
    expect(agent.validateOutput({ from: 2, to: 3, city: "rome" })).toEqual({ from: 2, to: 3, city: "ROME" });
    expect(() => agent.validateOutput({ from: 3, to: 2, city: "rome" })).toThrow(expect.objectContaining({ code: "OUTPUT_SCHEMA_MISMATCH", message: expect.stringContaining("from must not come after to") }));
  });

  it("reads an answer fenced as a JSON code block", async () => {
    const { state } = await ask(new ScriptedModel([textResponse('```json\n{"city": "Delhi", "population": 33}\n```')]));
    expect(state).toEqual({ answer: { city: "Delhi", population: 33 } });
  });
});
