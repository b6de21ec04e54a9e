import { describe, expect, it } from "vitest";
import { call, drain, runOnBoth, runTurn, text, type Framework } from "./side-by-side.js";


/** A plugin written once against ADK's BasePlugin, recording every hook it sees. */
function recordingPlugin(f: Framework, log: string[]) {
  const Base: new (name: string) => object = f.BasePlugin;
  class Recorder extends Base {
    constructor() {
      super("recorder");
    }
    async onUserMessageCallback() {
      log.push("plugin:onUserMessage");
      return undefined;
    }
    async beforeRunCallback() {
      log.push("plugin:beforeRun");
      return undefined;
    }
    async onEventCallback({ event }: { event: { author: string } }) {
      log.push(`plugin:onEvent(${event.author})`);
      return undefined;
    }
    async afterRunCallback() {
      log.push("plugin:afterRun");
    }
    async beforeAgentCallback({ agent }: { agent: { name: string } }) {
      log.push(`plugin:beforeAgent(${agent.name})`);
      return undefined;
    }
    async afterAgentCallback({ agent }: { agent: { name: string } }) {
      log.push(`plugin:afterAgent(${agent.name})`);
      return undefined;
    }
    async beforeModelCallback() {
      log.push("plugin:beforeModel");
      return undefined;
    }
    async afterModelCallback() {
      log.push("plugin:afterModel");
      return undefined;
    }
    async beforeToolCallback({ tool }: { tool: { name: string } }) {
      log.push(`plugin:beforeTool(${tool.name})`);
      return undefined;
    }
    async afterToolCallback({ tool }: { tool: { name: string } }) {
      log.push(`plugin:afterTool(${tool.name})`);
      return undefined;
    }
  }
  return new Recorder();
}

describe("plugins, side by side with @google/adk 2.0", () => {
  it("run every hook in ADK's order, plugins before the agent's own callbacks", async () => {
    const script = [call("get_weather", { city: "Paris" }), text("Sunny.")];
    const logs: Record<string, string[]> = { adk: [], toolsmith: [] };
    const { adk, toolsmith } = await runOnBoth(script, async (f, model) => {
      const log = f.BasePlugin === (await import("@google/adk")).BasePlugin ? logs.adk! : logs.toolsmith!;
      const weather = new f.FunctionTool({ name: "get_weather", description: "Weather.", execute: async ({ city }: { city: string }) => ({ city, sky: "sunny" }) });
      const agent = new f.LlmAgent({
        name: "forecaster",
        model,
        tools: [weather],
        beforeAgentCallback: () => void log.push("agent:beforeAgent"),
        afterAgentCallback: () => void log.push("agent:afterAgent"),
        beforeModelCallback: () => void log.push("agent:beforeModel"),
        afterModelCallback: () => void log.push("agent:afterModel"),
        beforeToolCallback: () => void log.push("agent:beforeTool"),
        afterToolCallback: () => void log.push("agent:afterTool"),
      });
      return runTurn(f, agent, "weather?", { plugins: [recordingPlugin(f, log)] });
    });
    expect(toolsmith.events).toEqual(adk.events);
    // ADK 2.0 never calls a plugin's before/after agent hooks (its PluginManager has them, nothing calls them);
    // toolsmith calls them as ADK Python does, first thing around each agent. Everything else is in ADK's order.
    const withoutPluginAgentHooks = logs.toolsmith!.filter((entry) => !entry.startsWith("plugin:beforeAgent") && !entry.startsWith("plugin:afterAgent"));
    expect(withoutPluginAgentHooks).toEqual(logs.adk);
    expect(logs.toolsmith).toEqual([
      "plugin:onUserMessage",
      "plugin:beforeRun",
      "plugin:beforeAgent(forecaster)",
      "agent:beforeAgent",
      "plugin:beforeModel",
      "agent:beforeModel",
      "plugin:afterModel",
      "agent:afterModel",
      "plugin:onEvent(forecaster)",
      "plugin:beforeTool(get_weather)",
      "agent:beforeTool",
      "plugin:afterTool(get_weather)",
      "agent:afterTool",
      "plugin:onEvent(forecaster)",
      "plugin:beforeModel",
      "agent:beforeModel",
      "plugin:afterModel",
      "agent:afterModel",
      "plugin:onEvent(forecaster)",
      "plugin:afterAgent(forecaster)",
      "agent:afterAgent",
      "plugin:afterRun",
    ]);
  });

  it("let a SecurityPlugin's policy deny a call: the model gets ADK's error and the tool does not run", async () => {
    const script = [call("delete_everything"), text("I was not allowed.")];
    const ran: string[] = [];
    const { adk, toolsmith } = await runOnBoth(script, async (f, model) => {
      const dangerous = new f.FunctionTool({ name: "delete_everything", description: "Deletes.", execute: async () => { ran.push("ran"); return { deleted: true }; } });
      const policyEngine = { evaluate: async () => ({ outcome: f.PolicyOutcome.DENY, reason: "too dangerous" }) };
      return runTurn(f, new f.LlmAgent({ name: "janitor", model, tools: [dangerous] }), "weather?", { plugins: [new f.SecurityPlugin({ policyEngine })] });
    });
    // ADK also writes its bookkeeping of checked calls into the session state; toolsmith binds the decision
    // to the call instead (docs/adk-compat.md, plugins), so the state stays the application's.
    const adkWithoutBookkeeping = adk.events.map(({ stateDelta, ...event }) => {
      const { orcas_tool_call_security_check_states: bookkeeping, ...rest } = stateDelta ?? {};
      if (stateDelta === undefined) return event;
      return bookkeeping === undefined || Object.keys(rest).length > 0 ? { ...event, stateDelta: rest } : event;
    });
    expect(adk.events.some((event) => event.stateDelta?.orcas_tool_call_security_check_states)).toBe(true);
    expect(toolsmith.events).toEqual(adkWithoutBookkeeping);
    expect(ran).toEqual([]);
    expect(JSON.stringify(toolsmith.events[1]!.content)).toContain("This tool call is rejected by policy engine. Reason: too dangerous");
  });

  it("let a LoggingPlugin log without changing the run", async () => {
    const script = [text("Hello.")];
    const { adk, toolsmith } = await runOnBoth(script, async (f, model) => runTurn(f, new f.LlmAgent({ name: "greeter", model }), "weather?", { plugins: [new f.LoggingPlugin()] }));
    expect(toolsmith.events).toEqual(adk.events);
  });
});

describe("GlobalInstructionPlugin, side by side with @google/adk 2.0", () => {
  it("puts the global instruction, with state filled in, before each agent's own", async () => {
    const script = [text("Bonjour.")];
    const { adk, toolsmith } = await runOnBoth(script, async (f, model) => {
      const runner = new f.InMemoryRunner({ agent: new f.LlmAgent({ name: "greeter", model, instruction: "Greet the user." }), appName: "app", plugins: [new f.GlobalInstructionPlugin("Always answer in {language}.")] });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u", state: { language: "French" } });
      return { runner, events: await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Hi" }] } })) };
    });
    expect(toolsmith.requests.map((request) => request.systemInstruction)).toEqual(adk.requests.map((request) => request.systemInstruction));
    expect(toolsmith.requests[0]!.systemInstruction).toMatch(/^Always answer in French\.\n\n/);
    expect(toolsmith.events).toEqual(adk.events);
  });
});
