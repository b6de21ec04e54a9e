import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FunctionTool, LlmAgent, LongRunningFunctionTool, SequentialAgent, type JsonSchema, type Tool, type Toolset } from "../../src/index.js";
import { describeTools } from "../../src/server/describe-tools.js";
import { lintTools, providerSchemaFor, PROVIDERS } from "../../src/server/provider-schemas.js";
import { FunctionModel, textResponse } from "../../src/testing/index.js";

const model = () => new FunctionModel(() => textResponse("ok"));

describe("describeTools", () => {
  it("describes each tool as the model sees it: description, JSON Schema of zod parameters, long-running flag", async () => {
    const weather = new FunctionTool({ name: "weather", description: "Weather for a city.", parameters: z.object({ city: z.string().describe("City name") }), execute: () => ({}) });
    const job = new LongRunningFunctionTool({ name: "start_job", description: "Starts a job.", execute: () => ({ status: "pending" }) });
    const [first, second] = await describeTools({ root: new LlmAgent({ name: "agent", model: model(), tools: [weather, job] }) });
    expect(first).toMatchObject({ agent: "agent", name: "weather", description: "Weather for a city.", isLongRunning: false, declared: true });
    expect(first!.parameters).toMatchObject({ type: "object", properties: { city: { type: "string", description: "City name" } }, required: ["city"] });
    expect(second).toMatchObject({ name: "start_job", isLongRunning: true, declared: true });
    // What the model reads for a long-running tool tells it not to call again.
    expect(second!.description).toMatch(/^Starts a job\.\s+NOTE: This is a long-running operation/);
  });

  it("lists a tool hidden from the model as undeclared, without parameters", async () => {
    const hidden: Tool = { name: "add_context", description: "Adds context to requests.", declaration: () => undefined, run: async () => ({}) };
    const [described] = await describeTools({ root: new LlmAgent({ name: "agent", model: model(), tools: [hidden] }) });
    expect(described).toEqual({ agent: "agent", name: "add_context", description: "Adds context to requests.", isLongRunning: false, declared: false });
  });

  it("walks workflow agents to the LLM agents inside, which alone have tools", async () => {
    const inner = new LlmAgent({ name: "inner", model: model(), tools: [new FunctionTool({ name: "t", description: "T.", execute: () => ({}) })] });
    const described = await describeTools({ root: new SequentialAgent({ name: "flow", subAgents: [inner] }) });
    expect(described.map((tool) => `${tool.agent}/${tool.name}`)).toEqual(["inner/t"]);
  });

  it("resolves toolsets against the given session, or an empty one", async () => {
    const toolset: Toolset = {
      getTools: async (context) => [new FunctionTool({ name: `for_${String(context.state.get("role", "nobody"))}`, description: "Per role.", execute: () => ({}) })],
      close: async () => {},
    };
    const root = new LlmAgent({ name: "agent", model: model(), tools: [toolset] });
    expect((await describeTools({ root })).map((tool) => tool.name)).toEqual(["for_nobody"]);
    const session = { id: "s", appName: "a", userId: "u", state: { role: "admin" }, events: [], lastUpdateTime: 0 };
    expect((await describeTools({ root, session })).map((tool) => tool.name)).toEqual(["for_admin"]);
  });
});

describe("providerSchemaFor", () => {
  const schema: JsonSchema = {
    type: "object",
    properties: { city: { type: "string" }, days: { type: "integer", minimum: 1 }, unit: { oneOf: [{ const: "C" }, { const: "F" }] } },
    required: ["city"],
  };

  it("gives OpenAI's strict form: every field required, optional ones nullable, no extra fields", () => {
    const strict = providerSchemaFor("openai", schema) as any;
    expect(strict.required.sort()).toEqual(["city", "days", "unit"]);
    expect(strict.additionalProperties).toBe(false);
    expect(strict.properties.city).toEqual({ type: "string" });
    expect(strict.properties.days).toEqual({ type: ["integer", "null"], minimum: 1 });
  });

  it("gives OpenAI-compatible servers and Anthropic the schema as written", () => {
    expect(providerSchemaFor("openai-compatible", schema)).toEqual(schema);
    expect(providerSchemaFor("anthropic", schema)).toEqual(schema);
  });

  it("gives Gemini its own types, with oneOf sent as anyOf and const as a one-value enum", () => {
    const gemini = providerSchemaFor("gemini", schema) as any;
    expect(gemini.type).toBe("OBJECT");
    expect(gemini.properties.city).toEqual({ type: "STRING" });
    expect(gemini.properties.days).toEqual({ type: "INTEGER", minimum: 1 });
    expect(gemini.properties.unit.oneOf).toBeUndefined();
    expect(gemini.properties.unit.anyOf.map((option: any) => option.enum)).toEqual([["C"], ["F"]]);
    expect(gemini.required).toEqual(["city"]);
  });

  it("leaves the tool's own schema unchanged", () => {
    const before = structuredClone(schema);
    for (const provider of PROVIDERS) providerSchemaFor(provider, schema);
    expect(schema).toEqual(before);
  });

  it("gives a tool without parameters an empty object where the provider needs one", () => {
    expect(providerSchemaFor("openai", undefined)).toEqual({ type: "object", properties: {}, required: [], additionalProperties: false });
    expect(providerSchemaFor("anthropic", undefined)).toEqual({ type: "object", properties: {} });
    expect(providerSchemaFor("gemini", undefined)).toBeUndefined();
  });
});

describe("lintTools", () => {
  const map: JsonSchema = { type: "object", properties: { scores: { type: "object", additionalProperties: { type: "number" } } }, required: ["scores"], additionalProperties: false };

  it("warns, per tool and JSON pointer, about what Gemini would lose of a map", () => {
    const warnings = lintTools("gemini", [{ name: "rate", parameters: map }, { name: "plain", parameters: { type: "object", properties: { a: { type: "string" } } } }]);
    expect(warnings.every((warning) => warning.tool === "rate")).toBe(true);
    expect(warnings.map((warning) => warning.path)).toEqual(["/properties/scores", "/properties/scores/additionalProperties", "/additionalProperties"]);
    expect(warnings[0]!.message).toContain("the model sees an empty object");
  });

  it("warns that OpenAI strict mode is dropped for a map, and that an optional field becomes nullable", () => {
    expect(lintTools("openai", [{ name: "rate", parameters: map }])).toEqual([
      { tool: "rate", path: "/properties/scores/additionalProperties", message: expect.stringContaining("the tool is sent with strict: false") },
    ]);
    const optional = lintTools("openai", [{ name: "find", parameters: { type: "object", properties: { q: { type: "string" }, page: { type: "integer" } }, required: ["q"] } }]);
    expect(optional).toEqual([{ tool: "find", path: "/properties/page", message: expect.stringContaining("it was made required and nullable") }]);
  });

  it("has nothing to say for providers that take the schema as written, or for tools without parameters", () => {
    expect(lintTools("anthropic", [{ name: "rate", parameters: map }])).toEqual([]);
    expect(lintTools("openai-compatible", [{ name: "rate", parameters: map }])).toEqual([]);
    for (const provider of PROVIDERS) expect(lintTools(provider, [{ name: "none" }])).toEqual([]);
  });
});
