import { describe, expect, it } from "vitest";
import { AgentTool, BaseTool, BaseToolset, FunctionTool, isBaseTool, isBaseToolset, LlmAgent, type Tool } from "../../src/index.js";
import { jsonSchemaOfGenaiSchema } from "../../src/tools/base-tool.js";
import { ScriptedModel } from "../../src/testing/index.js";
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
