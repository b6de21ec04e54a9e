import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError, FunctionTool, getFunctionResponses, LlmAgent, Runner } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import type { Tool } from "../../src/index.js";

async function runOnce(tools: Tool[], calls: Parameters<typeof functionCallsResponse>, options: { timeoutAbort?: AbortSignal } = {}) {
  const model = new ScriptedModel([functionCallsResponse(...calls), textResponse("done")]);
  const agent = new LlmAgent({ name: "agent", model, tools });
  const runner = new Runner({ appName: "app", agent });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go"), abortSignal: options.timeoutAbort }));
  return { events, model, responses: events.flatMap((event) => getFunctionResponses(event.content)) };
}

describe("FunctionTool", () => {
  it("turns a zod schema into the JSON Schema of its declaration", () => {
    const tool = new FunctionTool({
      name: "book",
      description: "Books a table.",
      parameters: z.object({ people: z.number().int().min(1), name: z.string(), note: z.string().optional() }),
      execute: () => ({}),
    });
    expect(tool.declaration().parameters).toMatchObject({
      type: "object",
      properties: { people: { type: "integer", minimum: 1 }, name: { type: "string" }, note: { type: "string" } },
      required: ["people", "name"],
    });
  });

  it("accepts a raw JSON Schema as is", () => {
    const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
    const tool = new FunctionTool({ name: "search", description: "Searches.", parameters: schema, execute: () => ({}) });
    expect(tool.declaration().parameters).toBe(schema);
  });

  it("returns an error result naming each bad field when zod arguments fail validation, and never runs the tool", async () => {
    let ran = false;
    const tool = new FunctionTool({
      name: "book",
      description: "Books a table.",
      parameters: z.object({ people: z.number().int(), name: z.string() }),
      execute: () => {
        ran = true;
        return {};
      },
    });
    const { responses, model } = await runOnce([tool], [{ name: "book", args: { people: "four" } }]);
    expect(ran).toBe(false);
    const response = responses[0]!.response!;
    expect(response.status).toBe("error");
    expect(response.error).toContain('Invalid arguments for tool "book"');
    expect(response.error).toMatch(/people: .*expected number/);
    expect(response.error).toMatch(/name: .*expected string/);
    expect(response.invalidArguments).toHaveLength(2);
    // The run went on: the model saw the error and answered.
    expect(model.requests).toHaveLength(2);
  });

  it("returns an error result when JSON Schema arguments fail validation", async () => {
    const tool = new FunctionTool({
      name: "search",
      description: "Searches.",
      parameters: { type: "object", properties: { q: { type: "string" }, limit: { type: "integer", maximum: 50 } }, required: ["q"], additionalProperties: false },
      execute: () => ({ hits: [] }),
    });
    const { responses } = await runOnce([tool], [{ name: "search", args: { limit: 99, extra: true } }]);
    const error = String(responses[0]!.response!.error);
    expect(error).toContain("q: is required but missing");
    expect(error).toContain("limit: must be <= 50");
    expect(error).toContain("extra: is not an allowed field");
  });

  it("passes zod's parsed output, defaults included, to execute", async () => {
    let received: unknown;
    const tool = new FunctionTool({
      name: "page",
      description: "Pages.",
      parameters: z.object({ page: z.number().default(1), tag: z.string().transform((tag) => tag.toUpperCase()) }),
      execute: (args) => {
        received = args;
        return args;
      },
    });
    await runOnce([tool], [{ name: "page", args: { tag: "news" } }]);
    expect(received).toEqual({ page: 1, tag: "NEWS" });
  });

  it("fills JSON Schema defaults without changing the model's arguments", async () => {
    let received: unknown;
    const tool = new FunctionTool({
      name: "page",
      description: "Pages.",
      parameters: { type: "object", properties: { page: { type: "number", default: 1 } } },
      execute: (args) => (received = args),
    });
    const { events } = await runOnce([tool], [{ name: "page", args: {} }]);
    expect(received).toEqual({ page: 1 });
    expect(events[0]!.content!.parts![0]!.functionCall!.args).toEqual({});
  });

  it("wraps a primitive result as {result: value} and an array as {results: [...]}, as ADK does", async () => {
    const make = (name: string, value: unknown) => new FunctionTool({ name, description: name, execute: () => value });
    const { responses } = await runOnce(
      [make("a", "text"), make("b", 0), make("c", [1, 2]), make("d", undefined), make("e", { ok: true })],
      [{ name: "a" }, { name: "b" }, { name: "c" }, { name: "d" }, { name: "e" }],
    );
    expect(responses.map((response) => response.response)).toEqual([{ result: "text" }, { result: 0 }, { results: [1, 2] }, {}, { ok: true }]);
  });

  it("compiles a JSON Schema on its first check, which throws INVALID_TOOL_SCHEMA if the schema does not compile", () => {
    const tool = new FunctionTool({ name: "lookup", description: "Looks up.", parameters: { type: "object", properties: { id: { $ref: "#/definitions/missing" } } }, execute: () => ({}) });
    expect(tool.declaration().parameters).toMatchObject({ type: "object" });
    expect(() => tool.checkArguments({ id: "a" })).toThrow(expect.objectContaining({ name: "ConfigurationError", code: "INVALID_TOOL_SCHEMA" }));
  });

  it("rejects an invalid tool name with a clear configuration error", () => {
    expect(() => new FunctionTool({ name: "has space", description: "", execute: () => 1 })).toThrow(ConfigurationError);
  });

  it("takes its name from the function when none is given", () => {
    function lookUpOrder() {
      return {};
    }
    expect(new FunctionTool({ description: "Looks up an order.", execute: lookUpOrder }).name).toBe("lookUpOrder");
  });
});

describe("FunctionTool's type", () => {
  it("lets a tool of any parameters be stored where a plain FunctionTool is typed, as ADK programs do", async () => {
    // A toolset field typed `FunctionTool` holding a zod-typed tool: this line is the type test (tsc runs on tests).
    const stored: FunctionTool = new FunctionTool({ name: "add", description: "Adds.", parameters: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => ({ sum: a + b }) });
    const tools: FunctionTool[] = [stored];
    expect(await tools[0]!.run({ a: 2, b: 3 }, undefined as never)).toEqual({ sum: 5 });
  });
});

describe("FunctionTool parameters, as seed 001 and ADK's TypeScript take them", () => {
  it("refuses parameters that describe anything but an object when the tool is made, naming the tool and the fix", () => {
    for (const parameters of [{ type: "string" }, z.string(), { type: "array", items: { type: "number" } }]) {
      expect(() => new FunctionTool({ name: "shout", description: "x", parameters: parameters as never, execute: () => 1 })).toThrow(
        expect.objectContaining({ code: "INVALID_TOOL_SCHEMA", message: expect.stringMatching(/^The parameters of tool "shout" describe "(string|array)", not an object.*Wrap the value in one/) }),
      );
    }
  });

  it("takes a @google/genai Schema, declares it as JSON Schema and checks arguments against it", async () => {
    const { Type } = await import("@google/genai");
    const tool = new FunctionTool({ name: "greet", description: "x", parameters: { type: Type.OBJECT, properties: { name: { type: Type.STRING } }, required: ["name"] } as never, execute: ({ name }) => `hi ${name}` });
    expect(tool.declaration().parameters).toEqual({ type: "object", properties: { name: { type: "string" } }, required: ["name"] });
    expect(tool.checkArguments({})).toMatchObject({ ok: false, issues: [{ field: "name" }] });
    expect(tool.checkArguments({ name: "Ada" })).toEqual({ ok: true, value: { name: "Ada" } });
  });

  it("takes a zod 3 schema: declared through zod-to-json-schema, arguments checked by zod 3 itself", async () => {
    const { z: z3 } = await import("zod/v3");
    const tool = new FunctionTool({ name: "nights", description: "x", parameters: z3.object({ nights: z3.number().int().min(1) }), execute: ({ nights }: { nights: number }) => nights * 2 });
    expect(tool.declaration().parameters).toMatchObject({ type: "object", properties: { nights: { type: "integer", minimum: 1 } }, required: ["nights"] });
    expect(tool.checkArguments({ nights: 0 })).toMatchObject({ ok: false, issues: [{ field: "nights" }] });
    expect(tool.checkArguments({ nights: 2 })).toEqual({ ok: true, value: { nights: 2 } });
  });
});

describe("LlmAgent tools", () => {
  it("refuses an entry that is neither a tool nor a toolset when the agent is made, naming its position and the wrapper to use", () => {
    function lookupWeather() {
      return "sunny";
    }
    const valid = new FunctionTool({ name: "ok", description: "x", execute: () => 1 });
    expect(() => new LlmAgent({ name: "weather", model: new ScriptedModel([]), tools: [valid, lookupWeather as never] })).toThrow(
      expect.objectContaining({ code: "INVALID_TOOL", message: expect.stringContaining('Agent "weather": tools[1] is a function (lookupWeather), not a tool or toolset. Wrap a function in new FunctionTool(') }),
    );
    expect(() => new LlmAgent({ name: "weather", model: new ScriptedModel([]), tools: [{ name: "half" } as never] })).toThrow(/tools\[0\] is an object that is no tool/);
  });
});
