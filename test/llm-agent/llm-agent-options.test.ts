import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";

const model = new ScriptedModel([]);

describe("LlmAgent options", () => {
  it.each([
    ["globalInstruction", "Be kind.", "GlobalInstructionPlugin"],
    ["retryConfig", { maxAttempts: 2 }, "node(agent, { retryConfig })"],
    ["timeout", 5, "node(agent, { timeout })"],
    ["temperatur", 0.2, "check its spelling"],
  ])("refuses %s by name, saying what to use, instead of ignoring it", (option, value, advice) => {
    expect(() => new LlmAgent({ name: "a", model, [option]: value } as never)).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_OPTION", message: expect.stringContaining(`the option ${option} is not supported`) }),
    );
    expect(() => new LlmAgent({ name: "a", model, [option]: value } as never)).toThrow(advice);
  });

  it.each(["tools", "systemInstruction", "responseSchema"])("refuses generateContentConfig.%s as ADK does", (key) => {
    expect(() => new LlmAgent({ name: "a", model, generateContentConfig: { [key]: [] } })).toThrow(`generateContentConfig.${key} is not allowed`);
  });

  it("accepts every option it documents, and an option left undefined", () => {
    const agent = new LlmAgent({ name: "a", model, includeContents: "none", outputKey: "k", generateContentConfig: { temperature: 0 }, disallowTransferToPeers: true, beforeAgentCallback: undefined, contextCompactors: [] });
    expect(agent.includeContents).toBe("none");
    // No compactors is none: the loop checks one field that is undefined.
    expect(agent.contextCompactors).toBeUndefined();
    expect(() => new LlmAgent({ name: "a", model, includeContents: "some" as "none" })).toThrow('includeContents must be "default" or "none"');
  });

  it("takes mode, waitForOutput and isolationScope as ADK's, waiting for output by default only in task mode", () => {
    expect(new LlmAgent({ name: "a", model })).toMatchObject({ mode: undefined, waitForOutput: false, isolationScope: undefined });
    expect(new LlmAgent({ name: "a", model, mode: "single_turn" })).toMatchObject({ mode: "single_turn", waitForOutput: false });
    expect(new LlmAgent({ name: "a", model, mode: "task", isolationScope: true })).toMatchObject({ mode: "task", waitForOutput: true, isolationScope: true });
    expect(new LlmAgent({ name: "a", model, mode: "task", waitForOutput: false, isolationScope: "planning" })).toMatchObject({ waitForOutput: false, isolationScope: "planning" });
  });

  it("refuses a mode or isolation scope it does not know, and a tool that would shadow finish_task, naming each", () => {
    const refused = (options: object) => {
      try {
        new LlmAgent({ name: "a", model, ...options } as never);
      } catch (error) {
        return [(error as { code: string }).code, (error as Error).message];
      }
      return undefined;
    };
    expect(refused({ mode: "chat" })).toEqual(["UNSUPPORTED_OPTION", 'Agent "a": mode must be "single_turn" or "task", not "chat".']);
    expect(refused({ isolationScope: "" })).toEqual(["UNSUPPORTED_OPTION", 'Agent "a": isolationScope must be a non-empty string, or true for a scope per run, not "".']);
    expect(refused({ isolationScope: false })).toEqual(["UNSUPPORTED_OPTION", 'Agent "a": isolationScope must be a non-empty string, or true for a scope per run, not false.']);
    const own = { name: "finish_task", description: "Mine.", declaration: () => ({ name: "finish_task", description: "Mine." }), run: async () => ({}) };
    expect(refused({ mode: "task", tools: [own] })?.[1]).toContain('"finish_task"');
    // Outside task mode a tool of that name is the agent's own.
    expect(refused({ tools: [own] })).toBeUndefined();
  });
});
