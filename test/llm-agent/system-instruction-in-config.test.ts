import { describe, expect, it } from "vitest";
import { getText, InMemoryRunner, LlmAgent } from "../../src/index.js";
import { createLlmRequest, systemInstructionText } from "../../src/models/llm-request.js";
import { collect, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

async function runOnce(agent: LlmAgent) {
  const runner = new InMemoryRunner({ agent, appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  return collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Hi") }));
}

describe("request.config.systemInstruction, where ADK keeps the instruction", () => {
  it("holds the instruction a model callback reads, and what the callback writes there is what the model gets", async () => {
    const model = new ScriptedModel([textResponse("ok")]);
    let seen: unknown;
    const agent = new LlmAgent({
      name: "assistant",
      model,
      instruction: "Be brief.",
      disallowTransferToParent: true,
      disallowTransferToPeers: true,
      beforeModelCallback: ({ request }) => {
        seen = request.config.systemInstruction;
        request.config.systemInstruction = `${String(request.config.systemInstruction)}\n\nAnswer in French.`;
        return undefined;
      },
    });
    const events = await runOnce(agent);
    expect(getText(events.at(-1)!.content)).toBe("ok");
    expect(seen).toBe("Be brief.");
    expect(model.requests[0]!.systemInstruction).toBe("Be brief.\n\nAnswer in French.");
  });

  it("takes a genai Content as the instruction, as ADK callbacks may set it", async () => {
    const model = new ScriptedModel([textResponse("ok")]);
    const agent = new LlmAgent({
      name: "assistant",
      model,
      beforeModelCallback: ({ request }) => {
        request.config.systemInstruction = { role: "system", parts: [{ text: "One." }, { text: "Two." }] };
        return undefined;
      },
    });
    await runOnce(agent);
    expect(model.requests[0]!.systemInstruction).toBe("One.\n\nTwo.");
  });

  it("is one value with request.systemInstruction: setting either changes both, and clearing it removes it", () => {
    const request = createLlmRequest({ contents: [], systemInstruction: "First." });
    expect(request.config.systemInstruction).toBe("First.");
    request.systemInstruction = "Second.";
    expect(request.config.systemInstruction).toBe("Second.");
    request.config.systemInstruction = ["Third.", { text: "Fourth." }];
    expect(request.systemInstruction).toBe("Third.\n\nFourth.");
    request.systemInstruction = "";
    expect("systemInstruction" in request.config).toBe(false);
    expect(JSON.parse(JSON.stringify(request))).toMatchObject({ systemInstruction: "", config: {} });
  });

  it("reads the text of every form @google/genai allows", () => {
    expect(systemInstructionText(undefined)).toBe("");
    expect(systemInstructionText("plain")).toBe("plain");
    expect(systemInstructionText({ text: "a part" })).toBe("a part");
    expect(systemInstructionText({ parts: [{ text: "x" }, { inlineData: { mimeType: "image/png", data: "" } }, { text: "y" }] })).toBe("x\n\ny");
  });
});
