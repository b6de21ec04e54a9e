import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";

const model = new ScriptedModel([]);

describe("LlmAgent options", () => {
  it.each([
    ["globalInstruction", "Be kind.", "GlobalInstructionPlugin"],
    ["requestProcessors", [], "beforeModelCallback"],
    ["responseProcessors", [], "afterModelCallback"],
    ["mode", "chat", "task mode"],
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
});
