import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as adk from "@google/adk";
import { z } from "zod";
import * as toolsmith from "../../src/index.js";
import { ConfigurationError } from "../../src/index.js";
import { createLlmRequest } from "../../src/models/llm-request.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { call, drain, runOnBoth, runTurn, text, type Framework } from "./side-by-side.js";

/**
 * ADK's few-shot tool, `ExampleTool`, with a list of examples and with a `BaseExampleProvider`, on `@google/adk`
 * 2.0 and on toolsmith: the same system instructions reach the model, and the same events come out.
 */
describe("ExampleTool, side by side with @google/adk 2.0", () => {
  const weatherExamples = [
    {
      input: { role: "user", parts: [{ text: "Weather in Paris?" }] },
      output: [
        { role: "model", parts: [{ text: "Let me look." }, { functionCall: { name: "get_weather", args: { city: "Paris", days: 2, metric: true } } }] },
        { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { forecast: "sunny" } } }] },
        { role: "model", parts: [{ text: "Sunny for two days." }] },
      ],
    },
    { input: { role: "user", parts: [{ text: "Hello" }, { text: "there" }] }, output: [{ role: "model", parts: [{ text: "Hi!" }] }] },
  ];

  function weatherAgent(f: Framework, model: string, examples: unknown) {
    const getWeather = new f.FunctionTool({ name: "get_weather", description: "Gets the weather.", parameters: z.object({ city: z.string() }), execute: ({ city }: { city: string }) => ({ city, forecast: "rain" }) });
    return new f.LlmAgent({ name: "weather", model, instruction: "Answer about the weather.", tools: [getWeather, new f.ExampleTool(examples)] });
  }

  it("adds a list of examples to every model call's instruction, and offers the model only the real tools", async () => {
    const { adk: onAdk, toolsmith: onToolsmith } = await runOnBoth([call("get_weather", { city: "Oslo" }), text("Rain in Oslo.")], async (f, model) => runTurn(f, weatherAgent(f, model, weatherExamples), "Weather in Oslo?"));
    expect(onToolsmith.requests).toEqual(onAdk.requests);
    expect(onToolsmith.events).toEqual(onAdk.events);
    expect(onToolsmith.requests).toHaveLength(2);
    expect(onToolsmith.requests[0]!.tools).toEqual(["get_weather"]);
    const instruction = onToolsmith.requests[0]!.systemInstruction;
    expect(instruction).toContain("<EXAMPLES>\nBegin few-shot\n");
    // The scripted model's name has no "gemini-2": ADK's older fences.
    expect(instruction).toContain("```tool_code\nget_weather(city='Paris', days=2, metric=true)\n```");
  });

  it("asks a provider for the examples that suit the user's message, with its text", async () => {
    const queries: Record<string, string[]> = { adk: [], toolsmith: [] };
    const { adk: onAdk, toolsmith: onToolsmith } = await runOnBoth([text("Rain.")], async (f, model) => {
      const name = f === adk ? "adk" : "toolsmith";
      const Provider: new () => object = f.BaseExampleProvider;
      class ByTopic extends Provider {
        getExamples(query: string) {
          queries[name]!.push(query);
          return query.includes("weather") ? weatherExamples.slice(0, 1) : [];
        }
      }
      const provider = new ByTopic();
      expect(f.isBaseExampleProvider(provider)).toBe(true);
      return runTurn(f, weatherAgent(f, model, provider), "What weather is it?");
    });
    expect(onToolsmith.requests).toEqual(onAdk.requests);
    expect(onToolsmith.events).toEqual(onAdk.events);
    expect(queries.toolsmith).toEqual(queries.adk);
    expect(queries.toolsmith).toEqual(["What weather is it?"]);
  });

  it("adds nothing when the user's message does not begin with text, on both", async () => {
    const { adk: onAdk, toolsmith: onToolsmith } = await runOnBoth([text("A picture.")], async (f, model) => {
      const runner = new f.InMemoryRunner({ agent: weatherAgent(f, model, weatherExamples), appName: "app" });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      const message = { role: "user", parts: [{ inlineData: { mimeType: "image/png", data: "aGk=" } }, { text: "What is this?" }] };
      return { runner, events: await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: message })) };
    });
    expect(onToolsmith.requests.map((request) => request.systemInstruction)).toEqual(onAdk.requests.map((request) => request.systemInstruction));
    expect(onToolsmith.requests[0]!.systemInstruction).not.toContain("<EXAMPLES>");
  });

  it("writes the same text as ADK for random examples, with either fence style (1,000 cases)", async () => {
    const scalar = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null), fc.double({ noNaN: true }));
    const part = fc.oneof(
      fc.record({ text: fc.string({ maxLength: 12 }) }),
      fc.record({ functionCall: fc.record({ name: fc.string({ minLength: 1, maxLength: 6 }), args: fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), scalar, { maxKeys: 3 }) }) }),
      fc.record({ functionResponse: fc.record({ name: fc.string({ minLength: 1, maxLength: 6 }), response: fc.dictionary(fc.string({ maxLength: 4 }), scalar, { maxKeys: 2 }) }) }),
    );
    const content = fc.record({ role: fc.constantFrom("user", "model"), parts: fc.array(part, { maxLength: 3 }) });
    const example = fc.record({ input: content, output: fc.array(content, { maxLength: 4 }) });
    const model = fc.constantFrom(undefined, "gemini-2.5-flash", "gemini-1.5-pro", "gpt-4o");
    let plain = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(example, { maxLength: 3 }), model, fc.string({ minLength: 1, maxLength: 10 }), async (examples, modelName, query) => {
        const adkRequest = { model: modelName, contents: [], config: {}, liveConnectConfig: {}, toolsDict: {} };
        await new adk.ExampleTool(structuredClone(examples) as never).processLlmRequest({ toolContext: { userContent: { parts: [{ text: query }] } } as never, llmRequest: adkRequest as never });
        const ourRequest = createLlmRequest({ model: modelName, contents: [] });
        new toolsmith.ExampleTool(structuredClone(examples) as never).processLlmRequest({ toolContext: { userContent: { parts: [{ text: query }] } } as never, llmRequest: ourRequest });
        expect(ourRequest.systemInstruction).toBe((adkRequest.config as { systemInstruction?: string }).systemInstruction);
        if (!modelName || modelName.includes("gemini-2")) plain++;
      }),
      { numRuns: 1_000 },
    );
    console.log(`ExampleTool text: 1,000 random example sets equal to ADK's, ${plain} with plain fences, ${1_000 - plain} with tool_code fences`);
    expect(plain).toBeGreaterThan(100);
  });

  it("ends the run with an error event naming the provider when it gives something that is no list of examples", async () => {
    class Broken extends toolsmith.BaseExampleProvider {
      getExamples() {
        return [{ input: "Weather?" }] as never;
      }
    }
    const model = new ScriptedModel([]);
    const runner = new toolsmith.InMemoryRunner({ agent: new toolsmith.LlmAgent({ name: "weather", model, tools: [new toolsmith.ExampleTool(new Broken())] }) });
    const session = await runner.sessionService.createSession({ appName: "InMemoryRunner", userId: "u" });
    const events = await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Weather?" }] } }));
    expect(events.at(-1)).toMatchObject({ errorCode: "INVALID_TOOL", errorMessage: expect.stringContaining("Broken.getExamples: example 1 is not { input: Content, output: Content[] }") });
    expect(model.requests).toHaveLength(0);
  });

  it("refuses what is neither examples nor a provider when it is made, and cannot be called", async () => {
    expect(() => new toolsmith.ExampleTool({ examples: [] } as never)).toThrow(ConfigurationError);
    expect(() => new toolsmith.ExampleTool("few-shot" as never)).toThrow(/takes an array of examples/);
    expect(() => new toolsmith.ExampleTool([{ input: { role: "user", parts: [{ text: "hi" }] }, output: { role: "model", parts: [] } }] as never)).toThrow(
      "ExampleTool: example 1 is not { input: Content, output: Content[] }. Give the user's message as input and the turns that answered it as a list in output.",
    );
    const tool = new toolsmith.ExampleTool([]);
    expect(tool.declaration()).toBeUndefined();
    await expect(tool.runAsync({ args: {}, toolContext: {} as never })).rejects.toThrow(/is not called/);
  });
});
