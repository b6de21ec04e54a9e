import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  AgentTool,
  FunctionTool,
  LlmAgent,
  type AgentToolConfig,
  type Context,
  type RequireConfirmation,
  type ToolExecuteArgument,
  type ToolExecuteFunction,
  type ToolOptions,
} from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { createToolContext } from "../support/tool-context.js";

const cityParameters = z.object({ city: z.string() });

describe("ADK's type names for tool options", () => {
  it("types a FunctionTool written with ToolOptions, ToolExecuteFunction and RequireConfirmation as ADK programs write it", async () => {
    const execute: ToolExecuteFunction<typeof cityParameters> = ({ city }, context: Context) => ({ city, agent: context.agentName });
    const requireConfirmation: RequireConfirmation<typeof cityParameters> = ({ city }) => city === "Paris";
    const options: ToolOptions<typeof cityParameters> = { name: "weather", description: "Weather.", parameters: cityParameters, execute, requireConfirmation };
    const tool = new FunctionTool(options);
    expectTypeOf<ToolExecuteArgument<typeof cityParameters>>().toEqualTypeOf<{ city: string }>();
    const context = await createToolContext();
    expect(await tool.run({ city: "Oslo" }, context)).toEqual({ city: "Oslo", agent: "test_agent" });
    expect([await tool.requiresConfirmation({ city: "Paris" }, context), await tool.requiresConfirmation({ city: "Oslo" }, context)]).toEqual([true, false]);
  });

  it("takes an AgentToolConfig for an AgentTool", () => {
    const config: AgentToolConfig = { agent: new LlmAgent({ name: "helper", model: new ScriptedModel([]) }), skipSummarization: true };
    expect(new AgentTool(config).name).toBe("helper");
  });
});
