import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getText, InMemoryRunner, LlmAgent } from "../../src/index.js";
import { OpenAIChatModel } from "../../src/models/openai/index.js";
import { collect, userMessage } from "../../src/testing/index.js";
import { json, sse, startProviderServer, type ProviderServer } from "./support/provider-server.js";

const base = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "qwen3" };
const chunk = (delta: object, finishReason: string | null = null) => ({ data: { ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] } });

describe("OpenAI-compatible servers that return the model's reasoning", () => {
  let server: ProviderServer;
  beforeEach(async () => {
    server = await startProviderServer();
  });
  afterEach(async () => {
    await server.close();
  });

  async function ask(stream: boolean) {
    const model = new OpenAIChatModel({ model: "qwen3", baseURL: `${server.url}/v1` });
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "thinker", model }), appName: "r" });
    const session = await runner.sessionService.createSession({ appName: "r", userId: "u1" });
    return collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage("2+2?"), runConfig: { streamingMode: stream ? "sse" : "none" } }));
  }

  it("streams vLLM's reasoning_content as thought events and keeps it apart from the answer", async () => {
    server.enqueue((_request, response) => sse(response, [chunk({ role: "assistant", reasoning_content: "Two plus " }), chunk({ reasoning_content: "two." }), chunk({ content: "4" }), chunk({}, "stop"), { data: "[DONE]" }]));
    const events = await ask(true);

    expect(events.filter((event) => event.partial).map((event) => event.content!.parts![0])).toEqual([
      { text: "Two plus ", thought: true },
      { text: "two.", thought: true },
      { text: "4" },
    ]);
    expect(events.at(-1)!.content!.parts).toEqual([{ text: "Two plus two.", thought: true, partMetadata: { reasoningField: "reasoning_content" } }, { text: "4" }]);
    expect(getText(events.at(-1)!.content)).toBe("4");
  });

  it("reads Ollama's reasoning field in a complete answer", async () => {
    server.enqueue((_request, response) =>
      json(response, 200, { ...base, object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: "4", reasoning: "Simple sum." }, finish_reason: "stop" }] }),
    );
    const events = await ask(false);

    expect(events.at(-1)!.content!.parts).toEqual([{ text: "Simple sum.", thought: true, partMetadata: { reasoningField: "reasoning" } }, { text: "4" }]);
  });
});
