import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FunctionTool, InMemorySessionService, isFinalResponse, LlmAgent, Runner, getFunctionResponses } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { withoutIdentity } from "../support/identity.js";

function weatherTool() {
  return new FunctionTool({
    name: "get_weather_report",
    description: "Retrieves the current weather report for a specified city.",
    parameters: z.object({ city: z.string().describe("The city name") }),
    execute: async ({ city }, context) => {
      context.state.set("user:last_city", city);
      return { status: "success", report: `Sunny in ${city}` };
    },
  });
}

async function setUp(model: ScriptedModel, tools = [weatherTool()]) {
  const agent = new LlmAgent({ name: "weather_agent", model, instruction: "Answer weather questions.", tools });
  const runner = new Runner({ appName: "weather", agent, sessionService: new InMemorySessionService() });
  const session = await runner.sessionService.createSession({ appName: "weather", userId: "u1" });
  const run = (text: string) => collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage(text) }));
  return { runner, session, run };
}

describe("Runner with an LlmAgent", () => {
  it("runs the model, the tool, and the model again, then stops at the final answer", async () => {
    const model = new ScriptedModel([
      functionCallsResponse({ name: "get_weather_report", args: { city: "Paris" } }),
      textResponse("It is sunny in Paris."),
    ]);
    const { run, runner, session } = await setUp(model);
    const events = await run("Weather in Paris?");

    expect(events.map((event) => [event.author, isFinalResponse(event)])).toEqual([
      ["weather_agent", false],
      ["weather_agent", false],
      ["weather_agent", true],
    ]);
    const [response] = getFunctionResponses(events[1]!.content);
    expect(response).toMatchObject({ name: "get_weather_report", response: { status: "success", report: "Sunny in Paris" } });
    expect(response!.id).toBe(events[0]!.content!.parts![0]!.functionCall!.id);
    expect(response!.id).toMatch(/^adk-/);
    expect(events[1]!.actions.stateDelta).toEqual({ "user:last_city": "Paris" });

    // The second request carries the call and its response, and the tool declaration as JSON Schema.
    expect(model.requests[1]!.contents.map((content) => content.role)).toEqual(["user", "model", "user"]);
    expect(withoutIdentity(model.requests[0]!.systemInstruction)).toBe("Answer weather questions.");
    expect(model.requests[0]!.functionDeclarations[0]).toMatchObject({
      name: "get_weather_report",
      parameters: { type: "object", properties: { city: { type: "string", description: "The city name" } }, required: ["city"] },
    });
    model.assertComplete();

    const stored = await runner.sessionService.getSession({ appName: "weather", userId: "u1", sessionId: session.id });
    expect(stored!.events).toHaveLength(4);
    expect(stored!.state["user:last_city"]).toBe("Paris");
  });

  it("stores every event id once and keeps the invocation id across one turn", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "get_weather_report", args: { city: "Oslo" } }), textResponse("Cold.")]);
    const { run } = await setUp(model);
    const events = await run("Oslo?");
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    expect(new Set(events.map((event) => event.invocationId)).size).toBe(1);
    for (const event of events) expect(event.timestamp).toBeGreaterThan(0);
  });
});
