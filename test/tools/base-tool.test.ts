import { describe, expect, it } from "vitest";
import {
  AgentTool,
  appendInstructions,
  BaseTool,
  BaseToolset,
  FunctionTool,
  getFunctionResponses,
  InMemoryRunner,
  isBaseTool,
  isBaseToolset,
  LlmAgent,
  type ReadonlyContext,
  type RunAsyncToolRequest,
  type Tool,
  type ToolProcessLlmRequest,
} from "../../src/index.js";
import { jsonSchemaOfGenaiSchema } from "../../src/tools/base-tool.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { createToolContext } from "../support/tool-context.js";

class Echo extends BaseTool {
  constructor() {
    super({ name: "echo", description: "Echoes." });
  }
  override _getDeclaration() {
    return { name: this.name, description: this.description, parametersJsonSchema: { type: "object", properties: { text: { type: "string" } } } };
  }
  async runAsync({ args }: { args: Record<string, unknown> }) {
    return { echoed: args.text };
  }
}

describe("BaseTool", () => {
  it("is a toolsmith Tool: declaration, run and confirmation answer through ADK's methods", async () => {
    const tool: Tool = new Echo();
    expect(tool.declaration()).toEqual({ name: "echo", description: "Echoes.", parameters: { type: "object", properties: { text: { type: "string" } } } });
    expect(await tool.run({ text: "hi" }, await createToolContext())).toEqual({ echoed: "hi" });
    expect(await tool.requiresConfirmation!({}, await createToolContext())).toBe(false);
  });

  it("hides a tool with no declaration from the model, as ADK's default does", () => {
    class Hidden extends BaseTool {
      async runAsync() {
        return {};
      }
    }
    expect(new Hidden({ name: "hidden", description: "Hidden." }).declaration()).toBeUndefined();
  });

  it("reads genai Schema parameters as JSON Schema, nullable and counts included", () => {
    expect(jsonSchemaOfGenaiSchema({ type: "OBJECT", properties: { tags: { type: "ARRAY", items: { type: "STRING" }, maxItems: "3" }, note: { type: "STRING", nullable: true } }, required: ["tags"] })).toEqual({
      type: "object",
      properties: { tags: { type: "array", items: { type: "string" }, maxItems: 3 }, note: { type: ["string", "null"] } },
      required: ["tags"],
    });
  });

  it("is what FunctionTool and AgentTool are, so ADK's checks hold for them", () => {
    const functionTool = new FunctionTool({ name: "f", description: "F.", execute: () => ({}) });
    const agentTool = new AgentTool({ agent: new LlmAgent({ name: "inner", model: new ScriptedModel([]) }) });
    expect([functionTool, agentTool, new Echo(), { name: "plain" }].map(isBaseTool)).toEqual([true, true, true, false]);
    expect(functionTool._getDeclaration()).toBe(functionTool.declaration());
  });
});

describe("BaseToolset", () => {
  class Listed extends BaseToolset {
    async getTools(context: Parameters<BaseToolset["getTools"]>[0]) {
      return [new Echo(), new FunctionTool({ name: "other", description: "O.", execute: () => ({}) })].filter((tool) => this.isToolSelected(tool, context!));
    }
    async close() {}
  }

  it("keeps the filter and prefix for its subclass, which selects tools with isToolSelected", async () => {
    const context = (await createToolContext()) as never;
    expect((await new Listed().getTools(context)).map((tool) => tool.name)).toEqual(["echo", "other"]);
    expect((await new Listed(["other"]).getTools(context)).map((tool) => tool.name)).toEqual(["other"]);
    expect((await new Listed((tool) => tool.name === "echo").getTools(context)).map((tool) => tool.name)).toEqual(["echo"]);
    expect(new Listed([], "math").prefix).toBe("math");
    expect([new Listed(), { getTools: async () => [], close: async () => {} }].map(isBaseToolset)).toEqual([true, false]);
  });
});

describe("ADK-style tools and toolsets in a Runner run", () => {
  /** Written as an ADK program writes a tool: genai Schema, runAsync and processLlmRequest with ADK's parameters. */
  class CityWeather extends BaseTool {
    constructor() {
      super({ name: "city_weather", description: "Weather for a city." });
    }
    override _getDeclaration() {
      return { name: this.name, description: this.description, parameters: { type: "OBJECT", properties: { city: { type: "STRING" } }, required: ["city"] } };
    }
    async runAsync({ args, toolContext }: RunAsyncToolRequest) {
      toolContext.state.set("last_city", args.city);
      return { city: args.city, sky: "clear" };
    }
    override async processLlmRequest(request: ToolProcessLlmRequest) {
      await super.processLlmRequest(request);
      appendInstructions(request.llmRequest, [`Weather is known for cities only (agent ${request.toolContext.agentName}).`]);
    }
  }

  class Stations extends BaseToolset {
    async getTools(context?: ReadonlyContext) {
      const tools = [new FunctionTool({ name: "list", description: "Lists stations.", execute: () => ["north", "south"] }), new FunctionTool({ name: "hidden", description: "Hidden.", execute: () => ({}) })];
      return tools.filter((tool) => this.isToolSelected(tool, context!)).map((tool) => new FunctionTool({ name: `${this.prefix}_${tool.name}`, description: tool.description, execute: (args, toolContext) => tool.run(args, toolContext) }));
    }
    async close() {}
  }

  it("checks a BaseTool subclass's arguments, runs it with a Context, and lets it and a toolset shape each request", async () => {
    const model = new ScriptedModel([
      functionCallsResponse({ name: "city_weather", args: {} }),
      functionCallsResponse({ name: "city_weather", args: { city: "Oslo" } }, { name: "stations_list", args: {} }),
      textResponse("Clear in Oslo."),
    ]);
    const runner = new InMemoryRunner({ appName: "app", agent: new LlmAgent({ name: "forecaster", model, tools: [new CityWeather(), new Stations(["list"], "stations")] }) });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Weather in Oslo?") }));
    const responses = events.flatMap((event) => getFunctionResponses(event.content)).map((response) => response.response);
    expect(responses[0]).toMatchObject({ status: "error", error: expect.stringContaining('Invalid arguments for tool "city_weather"') });
    expect(responses.slice(1)).toEqual([{ city: "Oslo", sky: "clear" }, { results: ["north", "south"] }]);
    expect(model.requests[0]!.functionDeclarations.map((declaration) => declaration.name)).toEqual(["city_weather", "stations_list"]);
    expect(model.requests[0]!.systemInstruction).toContain("Weather is known for cities only (agent forecaster).");
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    expect(stored!.state.last_city).toBe("Oslo");
  });
});
