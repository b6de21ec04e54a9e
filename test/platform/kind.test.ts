import { describe, expect, it } from "vitest";
import { isOfKind, markKind } from "../../src/platform/kind.js";
import { BasePlugin, FunctionTool, LlmAgent, LoopAgent, isBaseAgent, isBaseTool, isFunctionTool, isLlmAgent, isLoopAgent, isSequentialAgent } from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";

/** Kinds that hold across copies of toolsmith, where `instanceof` does not. */
describe("kinds across copies of toolsmith", () => {
  it("knows an instance of another copy's class of the same kind, and its subclasses' instances, but not another kind", () => {
    // Two copies of one class, as two copies of toolsmith would each define it.
    const makeCopy = () => {
      class Agent {}
      markKind(Agent, "LlmAgent");
      return Agent;
    };
    const Mine = makeCopy();
    const Theirs = makeCopy();
    class TheirSubclass extends Theirs {}
    expect(new Theirs() instanceof Mine).toBe(false);
    expect(isOfKind(new Theirs(), Mine, "LlmAgent")).toBe(true);
    expect(isOfKind(new TheirSubclass(), Mine, "LlmAgent")).toBe(true);
    expect(isOfKind(new Theirs(), Mine, "LoopAgent")).toBe(false);
    for (const value of [undefined, null, 3, "LlmAgent", {}, { [Symbol("toolsmith.kind.LlmAgent")]: true }]) expect(isOfKind(value, Mine, "LlmAgent")).toBe(false);
  });

  it("marks toolsmith's own classes, so its kind checks are ADK's and hold across copies", () => {
    const agent = new LlmAgent({ name: "a", model: new ScriptedModel([]) });
    const loop = new LoopAgent({ name: "l", subAgents: [] });
    const tool = new FunctionTool({ name: "t", description: "d", execute: () => 1 });
    expect([isLlmAgent(agent), isBaseAgent(agent), isLoopAgent(agent), isSequentialAgent(agent)]).toEqual([true, true, false, false]);
    expect([isLoopAgent(loop), isLlmAgent(loop), isBaseAgent(loop)]).toEqual([true, false, true]);
    expect([isFunctionTool(tool), isBaseTool(tool), isBaseTool(agent)]).toEqual([true, true, false]);
    // What another copy's check reads: the registry symbol on the prototype chain.
    expect((agent as unknown as Record<symbol, unknown>)[Symbol.for("toolsmith.kind.LlmAgent")]).toBe(true);
    class Counting extends BasePlugin {}
    expect((new Counting("c") as unknown as Record<symbol, unknown>)[Symbol.for("toolsmith.kind.BasePlugin")]).toBe(true);
  });
});
