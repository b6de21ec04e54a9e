/**
 * ADK's `App`: an agent with the plugins that go with it, given to `Runner` and `InMemoryRunner` as `app`;
 * `validateAppName`, `isApp` and the resumability setting. Side by side with ADK in
 * test/adk-compat/programs/33-app-with-plugins; loading an exported App is in test/server/app-exports.test.ts.
 */
import { describe, expect, it } from "vitest";
import {
  App,
  BasePlugin,
  createResumabilityConfig,
  FunctionTool,
  InMemoryRunner,
  InMemorySessionService,
  isApp,
  LlmAgent,
  Runner,
  validateAppName,
  type Agent,
  type RunnerOptions,
} from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { refusal } from "../support/refusal.js";

/** Records, in `log`, each tool call it sees under its own name. */
class CallRecorder extends BasePlugin {
  constructor(name: string, readonly log: string[]) {
    super(name);
  }
  override async beforeToolCallback({ tool }: { tool: { name: string } }) {
    this.log.push(`${this.name}: ${tool.name}`);
    return undefined;
  }
}

function weatherAgent(name = "weather_agent") {
  const getWeather = new FunctionTool({ name: "get_weather", description: "Weather.", parameters: { type: "object", properties: {} }, execute: () => ({ report: "sunny" }) });
  return new LlmAgent({ name, model: new ScriptedModel([functionCallsResponse({ name: "get_weather", args: {} }), textResponse("Sunny.")]), tools: [getWeather] });
}


describe("App", () => {
  it("holds the root agent, a copy of the plugins and the resumability setting", () => {
    const rootAgent = weatherAgent();
    const plugins = [new CallRecorder("audit", [])];
    const app = new App({ name: "weather", rootAgent, plugins, resumabilityConfig: { isResumable: true } });
    plugins.push(new CallRecorder("later", []));
    expect(app.name).toBe("weather");
    expect(app.rootAgent).toBe(rootAgent);
    expect(app.plugins.map((plugin) => plugin.name)).toEqual(["audit"]);
    expect(app.resumabilityConfig).toEqual({ isResumable: true });
    expect(new App({ name: "bare", rootAgent }).plugins).toEqual([]);
  });

  it("takes app names by ADK's rule and refuses others with a message saying what to change", () => {
    for (const name of ["weather", "Weather_App-2", "a"]) expect(() => validateAppName(name)).not.toThrow();
    expect(refusal(() => validateAppName("1st-app"))).toEqual({ code: "INVALID_APP_NAME", message: 'Invalid app name "1st-app": start it with a letter and use only letters, digits, "_" and "-".' });
    expect(refusal(() => new App({ name: "weather app", rootAgent: weatherAgent() })).code).toBe("INVALID_APP_NAME");
    expect(refusal(() => new App({ name: "", rootAgent: weatherAgent() })).code).toBe("INVALID_APP_NAME");
    expect(refusal(() => new App({ name: "user", rootAgent: weatherAgent() }))).toEqual({ code: "INVALID_APP_NAME", message: 'The app name "user" is reserved for the person\'s own messages: choose another.' });
  });

  it("refuses an app without a root agent, as a JavaScript caller can build one", () => {
    expect(refusal(() => new App({ name: "empty" } as unknown as { name: string; rootAgent: Agent }))).toEqual({
      code: "NO_ROOT_AGENT",
      message: 'App "empty" has no rootAgent: pass the agent it runs, new App({ name, rootAgent }).',
    });
  });

  it("is told from other values by isApp, including an App of another copy of toolsmith", () => {
    expect(isApp(new App({ name: "weather", rootAgent: weatherAgent() }))).toBe(true);
    expect(isApp(weatherAgent())).toBe(false);
    expect(isApp({ name: "weather", rootAgent: weatherAgent(), plugins: [] })).toBe(false);
    expect(isApp(null)).toBe(false);
    // Another install's App class carries the same registered brand.
    expect(isApp({ [Symbol.for("toolsmith.app")]: true, name: "weather", rootAgent: weatherAgent(), plugins: [] })).toBe(true);
  });
});

describe("resumabilityConfig", () => {
  it("is isResumable: false unless given, as ADK makes it", () => {
    expect(createResumabilityConfig()).toEqual({ isResumable: false });
    expect(createResumabilityConfig({ isResumable: true })).toEqual({ isResumable: true });
  });

  it("is taken when it asks for what toolsmith does, and refused when it asks runs not to resume by the owner of the answered call", () => {
    const rootAgent = weatherAgent();
    const runner = new Runner({ appName: "weather", agent: rootAgent, resumabilityConfig: createResumabilityConfig({ isResumable: true }) });
    expect(runner.resumabilityConfig).toEqual({ isResumable: true });
    const expected = {
      code: "UNSUPPORTED_OPTION",
      message: "resumabilityConfig.isResumable is false, but toolsmith always resumes a paused run with the agent that owns the answered call. Leave resumabilityConfig out or set isResumable: true.",
    };
    expect(refusal(() => new Runner({ appName: "weather", agent: rootAgent, resumabilityConfig: createResumabilityConfig() }))).toEqual(expected);
    expect(refusal(() => new App({ name: "weather", rootAgent, resumabilityConfig: { isResumable: false } }))).toEqual(expected);
    expect(refusal(() => new InMemoryRunner({ agent: rootAgent, resumabilityConfig: { isResumable: false } }))).toEqual(expected);
  });
});

describe("Runner({ app })", () => {
  it("takes the app's name and agent, runs the app's plugins before its own, and stores the session under the app's name", async () => {
    const log: string[] = [];
    const app = new App({ name: "weather", rootAgent: weatherAgent(), plugins: [new CallRecorder("app_audit", log)], resumabilityConfig: { isResumable: true } });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ app, sessionService, plugins: [new CallRecorder("runner_audit", log)] });
    expect(runner.appName).toBe("weather");
    expect(runner.agent).toBe(app.rootAgent);
    expect(runner.resumabilityConfig).toEqual({ isResumable: true });
    const session = await sessionService.createSession({ appName: "weather", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Weather?") }));
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("Sunny.");
    expect(log).toEqual(["app_audit: get_weather", "runner_audit: get_weather"]);
    expect((await sessionService.getSession({ appName: "weather", userId: "u", sessionId: session.id }))!.events).toHaveLength(4);
  });

  it("lets the app's name and agent win over appName and agent given beside it, as ADK does", () => {
    const app = new App({ name: "weather", rootAgent: weatherAgent() });
    const runner = new Runner({ app, appName: "ignored_by_adk_too", agent: weatherAgent("other_agent") });
    expect([runner.appName, runner.agent.name]).toEqual(["weather", "weather_agent"]);
  });

  it("makes an InMemoryRunner from an app, with the app's name instead of InMemoryRunner", async () => {
    const log: string[] = [];
    const runner = new InMemoryRunner({ app: new App({ name: "weather", rootAgent: weatherAgent(), plugins: [new CallRecorder("app_audit", log)] }) });
    expect(runner.appName).toBe("weather");
    expect(new InMemoryRunner({ agent: weatherAgent() }).appName).toBe("InMemoryRunner");
    const session = await runner.sessionService.createSession({ appName: "weather", userId: "u" });
    await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Weather?") }));
    expect(log).toEqual(["app_audit: get_weather"]);
  });

  it("refuses options with neither an app nor an agent, or no app name, as a JavaScript caller can pass them", () => {
    expect(refusal(() => new Runner({ appName: "weather" } as unknown as RunnerOptions))).toEqual({
      code: "NO_ROOT_AGENT",
      message: "The runner has no agent: pass new Runner({ appName, agent }) or new Runner({ app }).",
    });
    expect(refusal(() => new Runner({ agent: weatherAgent() } as unknown as RunnerOptions)).code).toBe("INVALID_APP_NAME");
  });
});
