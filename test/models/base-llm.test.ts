import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BaseLlm, getText, InMemoryRunner, isBaseLlm, LlmAgent, LLMRegistry, type LlmRequest, type LlmResponse } from "../../src/index.js";
import { Gemini } from "../../src/models/gemini/index.js";
import { collect, userMessage } from "../../src/testing/index.js";
import { geminiWire } from "./support/gemini-wire.js";
import { startProviderServer, type ProviderServer } from "./support/provider-server.js";

/** A model written as ADK programs write theirs: it answers with the last user text, reversed. */
class ReversingLlm extends BaseLlm {
  static override readonly supportedModels = [/reverser-.*/];
  readonly requests: LlmRequest[] = [];

  async *generateContentAsync(request: LlmRequest, stream?: boolean): AsyncGenerator<LlmResponse, void> {
    this.requests.push(request);
    const text = getText(request.contents.at(-1)).split("").reverse().join("");
    if (stream) yield { content: { role: "model", parts: [{ text: text.slice(0, 2) }] }, partial: true };
    yield { content: { role: "model", parts: [{ text }] } };
  }
}

async function ask(agent: LlmAgent, text: string, streamingMode: "none" | "sse" = "none") {
  const runner = new InMemoryRunner({ agent, appName: "llms" });
  const session = await runner.sessionService.createSession({ appName: "llms", userId: "u1" });
  return collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage(text), runConfig: { streamingMode } }));
}

describe("BaseLlm, ADK's base class for models", () => {
  it("serves an agent as its model: the subclass sees the request and its answer becomes the agent's", async () => {
    const model = new ReversingLlm({ model: "reverser-1" });
    const events = await ask(new LlmAgent({ name: "assistant", model, instruction: "Reverse." }), "abc");
    expect(getText(events.at(-1)!.content)).toBe("cba");
    expect(model.requests).toHaveLength(1);
    expect(model.name).toBe("reverser-1");
    expect(isBaseLlm(model)).toBe(true);
    expect(isBaseLlm({ name: "x", generateContent() {} })).toBe(false);
  });

  it("is asked to stream when the run streams, and its partial responses reach the caller", async () => {
    const events = await ask(new LlmAgent({ name: "assistant", model: new ReversingLlm({ model: "reverser-1" }) }), "hello", "sse");
    expect(events.filter((event) => event.partial).map((event) => getText(event.content))).toEqual(["ol"]);
    expect(getText(events.at(-1)!.content)).toBe("olleh");
  });

  it("a model that does not implement connect refuses a live connection, naming itself and what to do", async () => {
    await expect(new ReversingLlm({ model: "reverser-1" }).connect({} as LlmRequest)).rejects.toMatchObject({
      code: "LIVE_UNSUPPORTED",
      message: 'Model "reverser-1" (ReversingLlm) cannot run live: it does not implement connect(). Use a model that does (Gemini\'s live models), or runAsync.',
    });
  });
});

describe("LLMRegistry", () => {
  it("makes registered classes by name, and agents given the name as a string use them", async () => {
    LLMRegistry.register(ReversingLlm);
    expect(LLMRegistry.resolve("reverser-7")).toBe(ReversingLlm);
    const made = LLMRegistry.newLlm("reverser-7");
    expect(made).toBeInstanceOf(ReversingLlm);
    expect(made.model).toBe("reverser-7");
    const events = await ask(new LlmAgent({ name: "assistant", model: "reverser-2" }), "xyz");
    expect(getText(events.at(-1)!.content)).toBe("zyx");
  });

  it("matches the whole name, as ADK does", () => {
    LLMRegistry.register(ReversingLlm);
    expect(() => LLMRegistry.resolve("my-reverser-1")).toThrow(/No class registered with LLMRegistry serves "my-reverser-1"/);
  });

  it("says how to use a built-in provider when asked for a name it serves, which is not a registered class", () => {
    expect(() => LLMRegistry.newLlm("gemini-2.5-flash")).toThrow(
      expect.objectContaining({
        code: "UNKNOWN_MODEL",
        message: `"gemini-2.5-flash" is served by toolsmith's built-in provider, which is not a class in LLMRegistry (it loads its SDK when first used): give the name to the agent (model: "gemini-2.5-flash"), or make the model with its class (new Gemini({ model: "gemini-2.5-flash" }) from "toolsmith/models/gemini" for Gemini).`,
      }),
    );
  });

  it("says which names a provider serves when nothing serves the name asked for", () => {
    expect(() => LLMRegistry.newLlm("unknown-model-9")).toThrow(expect.objectContaining({ code: "UNKNOWN_MODEL", message: expect.stringMatching(/^No class registered with LLMRegistry serves "unknown-model-9"\. No model provider recognises "unknown-model-9"\. Use "gemini-…"/) }));
  });
});

describe("Gemini, ADK's Gemini class", () => {
  let server: ProviderServer;
  beforeEach(async () => {
    vi.stubEnv("GOOGLE_API_KEY", "");
    vi.stubEnv("GEMINI_API_KEY", "test-key");
    server = await startProviderServer();
    vi.stubEnv("GOOGLE_GEMINI_BASE_URL", server.url);
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await server.close();
  });

  it("talks to the Gemini API through @google/genai, with ADK's default model", async () => {
    server.enqueue(geminiWire.text("Hello from Gemini."));
    const model = new Gemini();
    expect(model.model).toBe("gemini-2.5-flash");
    const events = await ask(new LlmAgent({ name: "assistant", model }), "Hi");
    expect(getText(events.at(-1)!.content)).toBe("Hello from Gemini.");
    expect(server.requests.map((request) => request.url)).toEqual(["/v1beta/models/gemini-2.5-flash:generateContent"]);
  });

  it("refuses a misspelt option, naming the ones it takes, rather than fall back to the Gemini API without a word", () => {
    expect(() => new Gemini({ model: "gemini-2.5-pro", vertexAi: true } as never)).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_OPTION", message: 'Gemini has no option "vertexAi": it takes model, apiKey, vertexai, project, location, headers, useInteractionsApi. Check its spelling.' }),
    );
  });

  it("refuses useInteractionsApi by name instead of ignoring it", () => {
    expect(() => new Gemini({ model: "gemini-2.5-pro", useInteractionsApi: true })).toThrow(expect.objectContaining({ code: "UNSUPPORTED_OPTION", message: expect.stringContaining("new Gemini({ useInteractionsApi }) is not supported") }));
  });

  it("sends its headers with every request (Vertex AI's options: gemini-vertex.test.ts)", async () => {
    server.enqueue(geminiWire.text("Hi."));
    const model = new Gemini({ model: "gemini-2.5-flash", apiKey: "test-key", headers: { "x-team": "support" } });
    await ask(new LlmAgent({ name: "assistant", model }), "Hi");
    expect(server.requests[0]!.headers["x-team"]).toBe("support");
  });
});
