import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentTool, LlmAgent, registerModelProvider, SequentialAgent } from "../../src/index.js";
import { ConfigurationError } from "../../src/errors/toolsmith-error.js";
import { API_KEY_VARIABLES } from "../../src/models/api-key.js";
import { resolveModel, unknownModelMessage } from "../../src/models/model-registry.js";
import { MODEL_CREDENTIAL_VARIABLES } from "../../src/server/model-credentials.js";
import { modelRequirements, modelWarnings } from "../../src/server/model-requirements.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { exampleApi } from "./helpers.js";

const FIXTURES = "test/fixtures/model-apps";
const scripted = () => new ScriptedModel([], { name: "scripted" });
const GEMINI_WARNING = "gemini_app needs GOOGLE_API_KEY or GEMINI_API_KEY or GOOGLE_GENAI_API_KEY (or, for Vertex AI, GOOGLE_GENAI_USE_ENTERPRISE=true with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION) for gemini-2.5-flash: set one and restart toolsmith.";

/** Every variable a built-in model family reads, unset for the test (vitest restores them afterwards). */
function unsetModelVariables(): void {
  for (const name of MODEL_CREDENTIAL_VARIABLES) vi.stubEnv(name, undefined);
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("modelRequirements", () => {
  it("needs nothing for an agent whose model is an instance, such as a ScriptedModel", () => {
    const root = new LlmAgent({ name: "helper", model: scripted() });
    expect(modelRequirements({ app: "helper_app", root, environment: {} })).toEqual({
      app: "helper_app",
      models: [{ model: "scripted", source: "instance", agents: ["helper"], oneOf: [], ready: true }],
      warnings: [],
    });
  });

  it("names GOOGLE_API_KEY or GEMINI_API_KEY for a gemini- model when neither is set", () => {
    const root = new LlmAgent({ name: "weather_agent", model: "gemini-2.5-flash" });
    const requirements = modelRequirements({ app: "weather_app", root, environment: {} });
    expect(requirements.models).toEqual([{ model: "gemini-2.5-flash", source: "builtin", agents: ["weather_agent"], oneOf: ["GOOGLE_API_KEY", "GEMINI_API_KEY", "GOOGLE_GENAI_API_KEY"], ready: false }]);
    expect(requirements.warnings).toEqual(["weather_app needs GOOGLE_API_KEY or GEMINI_API_KEY or GOOGLE_GENAI_API_KEY (or, for Vertex AI, GOOGLE_GENAI_USE_ENTERPRISE=true with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION) for gemini-2.5-flash: set one and restart toolsmith."]);
  });

  it("is satisfied by either Gemini key, and counts an empty value as unset", () => {
    const root = new LlmAgent({ name: "weather_agent", model: "gemini-2.5-flash" });
    expect(modelRequirements({ app: "w", root, environment: { GEMINI_API_KEY: "k" } }).warnings).toEqual([]);
    expect(modelRequirements({ app: "w", root, environment: { GOOGLE_API_KEY: "k" } }).models[0]!.ready).toBe(true);
    expect(modelRequirements({ app: "w", root, environment: { GOOGLE_API_KEY: "" } }).models[0]!.ready).toBe(false);
  });

  it.each([
    ["openai/gpt-4.1", ["OPENAI_API_KEY"]],
    ["anthropic/claude-sonnet-4-5", ["ANTHROPIC_API_KEY"]],
    ["openai-compatible/qwen3", ["OPENAI_BASE_URL"]],
    ["ollama/llama3.2", []],
  ])("knows what %s needs", (model, oneOf) => {
    const root = new LlmAgent({ name: "agent", model });
    const requirements = modelRequirements({ app: "app", root, environment: {} });
    expect(requirements.models[0]).toMatchObject({ model, source: "builtin", oneOf, ready: oneOf.length === 0 });
    expect(requirements.warnings).toEqual(oneOf.length ? [`app needs ${oneOf[0]} for ${model}: set it and restart toolsmith.`] : []);
    expect(modelRequirements({ app: "app", root, environment: Object.fromEntries(oneOf.map((name) => [name, "set"])) }).warnings).toEqual([]);
  });

  it("walks sub-agents, workflow agents and the agents behind AgentTools, and gives an agent without a model its ancestor's", () => {
    const researcher = new LlmAgent({ name: "researcher", model: "gemini-2.5-flash", subAgents: [new LlmAgent({ name: "summarizer" })] });
    const root = new LlmAgent({
      name: "lead",
      model: scripted(),
      tools: [new AgentTool({ agent: researcher })],
      subAgents: [
        new LlmAgent({ name: "writer", model: "anthropic/claude-sonnet-4-5" }),
        new LlmAgent({ name: "helper" }),
        new SequentialAgent({ name: "pipeline", subAgents: [new LlmAgent({ name: "drafter", model: "gemini-2.5-pro" }), new LlmAgent({ name: "checker" })] }),
        new LlmAgent({ name: "local", model: "ollama/llama3.2" }),
      ],
    });
    const requirements = modelRequirements({ app: "team", root, environment: {} });
    expect(requirements.models.map(({ model, agents, ready }) => ({ model, agents, ready }))).toEqual([
      { model: "scripted", agents: ["lead", "helper", "checker"], ready: true },
      { model: "anthropic/claude-sonnet-4-5", agents: ["writer"], ready: false },
      { model: "gemini-2.5-pro", agents: ["drafter"], ready: false },
      { model: "ollama/llama3.2", agents: ["local"], ready: true },
      { model: "gemini-2.5-flash", agents: ["researcher", "summarizer"], ready: false },
    ]);
    // Models that need the same variables share one sentence.
    expect(requirements.warnings).toEqual([
      "team needs ANTHROPIC_API_KEY for anthropic/claude-sonnet-4-5: set it and restart toolsmith.",
      "team needs GOOGLE_API_KEY or GEMINI_API_KEY or GOOGLE_GENAI_API_KEY (or, for Vertex AI, GOOGLE_GENAI_USE_ENTERPRISE=true with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION) for gemini-2.5-pro, gemini-2.5-flash: set one and restart toolsmith.",
    ]);
  });

  it("says what to do about a model name no provider recognises and an agent with no model at all", () => {
    const root = new LlmAgent({ name: "lead", model: "gpt-4.1", tools: [new AgentTool({ agent: new LlmAgent({ name: "orphan" }) })] });
    const requirements = modelRequirements({ app: "odd", root, environment: {} });
    expect(requirements.models).toEqual([{ model: "gpt-4.1", source: "unknown", agents: ["lead"], oneOf: [], ready: false }]);
    expect(requirements.warnings).toEqual([
      'odd: agent "orphan" has no model and no ancestor with one: pass model to new LlmAgent({ … }).',
      `odd: ${unknownModelMessage("gpt-4.1")}`,
    ]);
    expect(requirements.warnings[1]).toContain('Use "gemini-…", "openai/…"');
  });

  it("trusts a provider registered with registerModelProvider, whose needs toolsmith cannot know", () => {
    registerModelProvider(/^requirements-test\//, () => scripted());
    const root = new LlmAgent({ name: "agent", model: "requirements-test/any" });
    expect(modelRequirements({ app: "app", root, environment: {} })).toMatchObject({ models: [{ source: "registered", oneOf: [], ready: true }], warnings: [] });
  });

  it("reports exactly the variables the model adapters read", async () => {
    unsetModelVariables();
    const families = [
      { name: "gemini-2.5-flash", variables: API_KEY_VARIABLES.Gemini },
      { name: "openai/gpt-4.1", variables: API_KEY_VARIABLES.OpenAI },
      { name: "anthropic/claude-sonnet-4-5", variables: API_KEY_VARIABLES.Anthropic },
      { name: "openai-compatible/qwen3", variables: ["OPENAI_BASE_URL"] },
    ];
    for (const { name, variables } of families) {
      const [reported] = modelRequirements({ app: "app", root: new LlmAgent({ name: "agent", model: name }) }).models;
      expect(reported!.oneOf).toEqual(variables);
      // Unset, the adapter refuses and names the same variables; set (to a dummy, no request is made), it builds the model.
      const refusal = await resolveModel(name).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(ConfigurationError);
      expect((refusal as Error).message).toContain(variables.join(" or "));
      vi.stubEnv(variables[0]!, variables[0] === "OPENAI_BASE_URL" ? "http://127.0.0.1:9/v1" : "dummy-key");
      expect((await resolveModel(name)).name).toBeTruthy();
      expect(modelRequirements({ app: "app", root: new LlmAgent({ name: "agent", model: name }) }).models[0]!.ready).toBe(true);
    }
  });
});

describe("modelWarnings (the startup note of toolsmith web and api-server)", () => {
  it("warns only about apps whose models need an unset variable", async () => {
    unsetModelVariables();
    const { registry } = await exampleApi({ agentsDir: FIXTURES });
    expect(await modelWarnings({ registry })).toEqual([GEMINI_WARNING]);
    expect(await modelWarnings({ registry, environment: { GEMINI_API_KEY: "set" } })).toEqual([]);
  });

  it("has nothing to say about the examples, which all run without keys", async () => {
    unsetModelVariables();
    const { registry } = await exampleApi();
    expect(registry.listApps().length).toBeGreaterThan(0);
    expect(await modelWarnings({ registry })).toEqual([]);
  });

  it("skips an app that fails to load, which says why when it is opened", async () => {
    const { registry } = await exampleApi({ agentsDir: "test/fixtures/agents" });
    expect(registry.listApps()).toContain("broken");
    await expect(modelWarnings({ registry })).resolves.toEqual([]);
  });
});

describe("GET /apps/{app}/requirements", () => {
  it("warns about the Gemini key while neither is set, and not once one is, showing names but never values", async () => {
    unsetModelVariables();
    const { call } = await exampleApi({ agentsDir: FIXTURES });
    const unset = await call("/apps/gemini_app/requirements");
    expect(unset.status).toBe(200);
    expect(await unset.json()).toEqual({
      app: "gemini_app",
      models: [{ model: "gemini-2.5-flash", source: "builtin", agents: ["weather_agent"], oneOf: ["GOOGLE_API_KEY", "GEMINI_API_KEY", "GOOGLE_GENAI_API_KEY"], ready: false }],
      warnings: [GEMINI_WARNING],
    });
    vi.stubEnv("GOOGLE_API_KEY", "secret-value-123");
    const set = await (await call("/apps/gemini_app/requirements")).text();
    expect(JSON.parse(set)).toMatchObject({ models: [{ ready: true }], warnings: [] });
    expect(set).not.toContain("secret-value-123");
  });

  it("has no warning for an app whose model is a ScriptedModel", async () => {
    unsetModelVariables();
    const { call } = await exampleApi({ agentsDir: FIXTURES });
    expect(await (await call("/apps/scripted_app/requirements")).json()).toEqual({
      app: "scripted_app",
      models: [{ model: "scripted", source: "instance", agents: ["scripted_agent"], oneOf: [], ready: true }],
      warnings: [],
    });
  });

  it("answers 404 for an app the agents directory does not hold", async () => {
    const { call } = await exampleApi({ agentsDir: FIXTURES });
    const response = await call("/apps/nope/requirements");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: "APP_NOT_FOUND" });
  });

  it("needs the bearer token like every other endpoint", async () => {
    const { call } = await exampleApi({ agentsDir: FIXTURES, tokens: { "t-1": "alice" } });
    expect((await call("/apps/scripted_app/requirements")).status).toBe(401);
    expect((await call("/apps/scripted_app/requirements", { headers: { authorization: "Bearer t-1" } })).status).toBe(200);
  });
});

describe("GET /toolsmith/info", () => {
  it("lists which model credentials are set, by name and never by value", async () => {
    unsetModelVariables();
    vi.stubEnv("ANTHROPIC_API_KEY", "secret-value-456");
    const { call } = await exampleApi();
    const body = await (await call("/toolsmith/info")).text();
    expect(JSON.parse(body)).toMatchObject({ name: "toolsmith", modelCredentials: { configured: ["ANTHROPIC_API_KEY"] } });
    expect(body).not.toContain("secret-value-456");
  });
});
