import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getText, InMemoryRunner, isToolsmithError, LlmAgent, registerModelProvider } from "../../src/index.js";
import { ollamaBaseUrl } from "../../src/models/builtin-model-providers.js";
import { loadAdapter } from "../../src/models/load-adapter.js";
import { resolveModel } from "../../src/models/model-registry.js";
import { collect, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { anthropicWire } from "./support/anthropic-wire.js";
import { geminiWire } from "./support/gemini-wire.js";
import { openAIChatWire } from "./support/openai-chat-wire.js";
import { openAIResponsesWire } from "./support/openai-responses-wire.js";
import { startProviderServer, type ProviderServer } from "./support/provider-server.js";

const CREDENTIALS = ["GOOGLE_API_KEY", "GEMINI_API_KEY", "GOOGLE_GEMINI_BASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "OLLAMA_HOST"];

async function ask(model: string) {
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "assistant", model, instruction: "Be brief." }), appName: "names" });
  const session = await runner.sessionService.createSession({ appName: "names", userId: "u1" });
  return collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage("Hi") }));
}

describe("LlmAgent with a model given by name", () => {
  let server: ProviderServer;
  beforeEach(async () => {
    for (const name of CREDENTIALS) vi.stubEnv(name, "");
    server = await startProviderServer();
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await server.close();
  });

  it.each([
    { model: "gemini-2.5-flash", env: { GEMINI_API_KEY: "k", GOOGLE_GEMINI_BASE_URL: "{url}" }, wire: geminiWire, path: "/v1beta/models/gemini-2.5-flash:generateContent" },
    { model: "openai/gpt-4.1", env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "{url}/v1" }, wire: openAIResponsesWire, path: "/v1/responses" },
    { model: "anthropic/claude-sonnet-4-6", env: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "{url}" }, wire: anthropicWire, path: "/v1/messages" },
    { model: "ollama/qwen3", env: { OLLAMA_HOST: "{url}" }, wire: openAIChatWire, path: "/v1/chat/completions" },
    { model: "openai-compatible/meta-llama/Llama-3.1-8B-Instruct", env: { OPENAI_BASE_URL: "{url}/v1" }, wire: openAIChatWire, path: "/v1/chat/completions" },
  ])("talks to $model through its adapter, configured from the environment", async ({ model, env, wire, path }) => {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value.replace("{url}", server.url));
    server.enqueue(wire.text("Hello."));
    const events = await ask(model);

    expect(getText(events.at(-1)!.content)).toBe("Hello.");
    expect(server.requests.map((request) => request.url)).toEqual([path]);
    const sentModel = server.requests[0]!.body?.model;
    if (sentModel !== undefined) expect(sentModel).toBe(model.slice(model.indexOf("/") + 1));
  });

  it.each([
    { model: "gemini-2.5-flash", variable: "GOOGLE_API_KEY or GEMINI_API_KEY or GOOGLE_GENAI_API_KEY" },
    { model: "openai/gpt-4.1", variable: "OPENAI_API_KEY" },
    { model: "anthropic/claude-sonnet-4-6", variable: "ANTHROPIC_API_KEY" },
  ])("refuses $model without an API key, naming the variable to set", async ({ model, variable }) => {
    const failure = await resolveModel(model).catch((error: unknown) => error);
    expect(isToolsmithError(failure) && failure.code).toBe("MISSING_API_KEY");
    expect((failure as Error).message).toContain(`Set the environment variable ${variable}`);
    // Inside a run it ends the run with that error as an event; runAsync does not throw.
    const events = await ask(model);
    expect(events.at(-1)).toMatchObject({ errorCode: "MISSING_API_KEY", errorMessage: expect.stringContaining(variable) });
    expect(server.requests).toHaveLength(0);
  });

  it("refuses openai-compatible/… without OPENAI_BASE_URL, naming the variable", async () => {
    await expect(resolveModel("openai-compatible/qwen3")).rejects.toMatchObject({ code: "MISSING_BASE_URL", message: expect.stringContaining("OPENAI_BASE_URL") });
  });

  it("lists the known families when no provider recognises a name", async () => {
    await expect(resolveModel("mistral-large")).rejects.toMatchObject({ code: "UNKNOWN_MODEL", message: expect.stringContaining('"openai/…", "anthropic/…", "ollama/…"') });
  });

  it("lets a registered provider take over a family", async () => {
    const scripted = new ScriptedModel([textResponse("From my provider.")], { name: "house" });
    registerModelProvider(/^housemodel\//, () => scripted);
    const events = await ask("housemodel/one");
    expect(getText(events.at(-1)!.content)).toBe("From my provider.");
  });

  it("names the package to install when an adapter's SDK is missing", async () => {
    const failure = await loadAdapter({ load: () => import("@toolsmith-test/sdk-that-is-not-installed" as string), packageName: "@toolsmith-test/sdk-that-is-not-installed", modelName: "x/y" }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "MISSING_MODEL_PACKAGE", message: expect.stringContaining("npm install @toolsmith-test/sdk-that-is-not-installed") });
  });

  it("reads OLLAMA_HOST as a URL or host:port, defaulting to Ollama's local port", () => {
    expect(ollamaBaseUrl(undefined)).toBe("http://127.0.0.1:11434/v1");
    expect(ollamaBaseUrl("0.0.0.0:11434")).toBe("http://0.0.0.0:11434/v1");
    expect(ollamaBaseUrl("https://ollama.internal/")).toBe("https://ollama.internal/v1");
    expect(ollamaBaseUrl("http://127.0.0.1:9999/v1")).toBe("http://127.0.0.1:9999/v1");
  });
});
