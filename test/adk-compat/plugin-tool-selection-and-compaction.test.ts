import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BasePlugin, ContextCompactionTrigger, FunctionTool, InMemoryRunner, LlmAgent, TokenBasedContextCompactor, type Context, type InvocationContext, type Tool } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { call, drain, runOn, runOnBoth, text, type Framework } from "./side-by-side.js";

/**
 * ADK 2's plugin hooks `beforeToolSelection`, `beforeContextCompaction` and `afterContextCompaction`, which
 * toolsmith refused by name before: run on `@google/adk` 2.0 and on toolsmith with the same plugin.
 */

/** A plugin, written once against ADK's BasePlugin, that keeps only the tools named and records what it was offered. */
function keepingPlugin(f: Framework, keep: readonly string[], seen: string[][]) {
  const Base: new (name: string) => object = f.BasePlugin;
  class Keeper extends Base {
    constructor() {
      super("keeper");
    }
    async beforeToolSelection({ tools }: { tools: Record<string, { name: string }> }) {
      seen.push(Object.keys(tools).sort());
      return Object.fromEntries(Object.entries(tools).filter(([name]) => keep.includes(name)));
    }
  }
  return new Keeper();
}

function mathTools(f: Framework) {
  return ["add", "subtract", "multiply"].map((name) => new f.FunctionTool({ name, description: `Does ${name}.`, parameters: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }: { a: number; b: number }) => ({ result: name === "add" ? a + b : name === "subtract" ? a - b : a * b }) }));
}

describe("beforeToolSelection, side by side with @google/adk 2.0", () => {
  it("offers the model only the tools a plugin keeps, at every call, the transfer tool aside", async () => {
    const seen: Record<string, string[][]> = { adk: [], toolsmith: [] };
    const { adk, toolsmith } = await runOnBoth([call("add", { a: 2, b: 3 }), text("5")], async (f, model) => {
      const log = f.FunctionTool === FunctionTool ? seen.toolsmith! : seen.adk!;
      const helper = new f.LlmAgent({ name: "helper", model, description: "Helps." });
      const agent = new f.LlmAgent({ name: "calculator", model, tools: mathTools(f), subAgents: [helper] });
      const runner = new f.InMemoryRunner({ agent, appName: "app", plugins: [keepingPlugin(f, ["add", "multiply"], log)] });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      return { runner, events: await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "2 + 3?" }] } })) };
    });
    expect(toolsmith.requests.map((request) => request.tools.sort())).toEqual(adk.requests.map((request) => request.tools.sort()));
    expect(toolsmith.requests[0]!.tools).toEqual(["add", "multiply", "transfer_to_agent"]);
    expect(seen.toolsmith).toEqual(seen.adk);
    expect(seen.toolsmith).toEqual([["add", "multiply", "subtract"], ["add", "multiply", "subtract"]]);
    expect(toolsmith.events).toEqual(adk.events);
  });

  it("is not asked for an agent without tools, on both", async () => {
    const seen: Record<string, string[][]> = { adk: [], toolsmith: [] };
    const { adk, toolsmith } = await runOnBoth([text("Hello.")], async (f, model) => {
      const log = f.FunctionTool === FunctionTool ? seen.toolsmith! : seen.adk!;
      const runner = new f.InMemoryRunner({ agent: new f.LlmAgent({ name: "greeter", model }), appName: "app", plugins: [keepingPlugin(f, [], log)] });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      return { runner, events: await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Hi" }] } })) };
    });
    expect([seen.toolsmith, seen.adk]).toEqual([[], []]);
    expect(toolsmith.events).toEqual(adk.events);
  });
});

describe("beforeToolSelection", () => {
  async function runWith(plugin: BasePlugin, script: ConstructorParameters<typeof ScriptedModel>[0]) {
    const model = new ScriptedModel(script);
    const tools = ["add", "subtract"].map((name) => new FunctionTool({ name, description: name, parameters: z.object({ a: z.number() }), execute: ({ a }) => ({ ran: name, a }) }));
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "calculator", model, tools }), appName: "app", plugins: [plugin] });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    return { events, model, state: stored!.state };
  }

  it("does not run a tool it left out when the model calls it anyway: the model is told which tools there are", async () => {
    class OnlyAdd extends BasePlugin {
      override async beforeToolSelection({ tools }: { callbackContext: Context; tools: Readonly<Record<string, Tool>> }) {
        return { add: tools.add! };
      }
    }
    const { events } = await runWith(new OnlyAdd("only_add"), [functionCallsResponse({ name: "subtract", args: { a: 1 } }), textResponse("I cannot subtract.")]);
    const answer = events[1]!.content!.parts![0]!.functionResponse!.response as Record<string, unknown>;
    expect(answer.status).toBe("error");
    expect(String(answer.error)).toContain("subtract");
    expect(String(answer.error)).toContain("add");
    expect(JSON.stringify(events)).not.toContain('"ran":"subtract"');
  });

  it("stores what the plugin writes to the state with the model call's event", async () => {
    class Counting extends BasePlugin {
      override async beforeToolSelection({ callbackContext }: { callbackContext: Context; tools: Readonly<Record<string, Tool>> }) {
        callbackContext.state.set("selections", ((callbackContext.state.get("selections") as number | undefined) ?? 0) + 1);
        return undefined;
      }
    }
    const { events, state } = await runWith(new Counting("counting"), [functionCallsResponse({ name: "add", args: { a: 1 } }), textResponse("Done.")]);
    expect(events.filter((event) => event.author === "calculator" && event.actions.stateDelta.selections !== undefined).map((event) => event.actions.stateDelta.selections)).toEqual([1, 2]);
    expect(state.selections).toBe(2);
  });

  it("ends the run with PLUGIN_FAILED, saying what to return, when a plugin returns a list of names", async () => {
    class Listing extends BasePlugin {
      override async beforeToolSelection() {
        return ["add"] as unknown as Readonly<Record<string, Tool>>;
      }
    }
    const { events, model } = await runWith(new Listing("listing"), [textResponse("never")]);
    expect(events.at(-1)).toMatchObject({ errorCode: "PLUGIN_FAILED", errorMessage: expect.stringContaining("returned a list: return the tools to keep as a record by name") });
    expect(model.requests).toHaveLength(0);
  });
});

describe("beforeContextCompaction and afterContextCompaction", () => {
  /** Six turns over an agent whose compactor's budget the conversation passes, the plugin recording its hooks. */
  async function conversation(f: Framework, model: string, log: string[]) {
    const Base: new (name: string) => object = f.BasePlugin;
    class Watcher extends Base {
      constructor() {
        super("watcher");
      }
      async beforeContextCompaction({ trigger, invocationContext }: { trigger: string; invocationContext: { session: { events: unknown[] } } }) {
        log.push(`before(${trigger}) ${invocationContext.session.events.length}`);
      }
      async afterContextCompaction({ trigger }: { trigger: string }) {
        log.push(`after(${trigger})`);
      }
    }
    const summarizer = new f.LlmSummarizer({ llm: f.LLMRegistry.newLlm(model) });
    const agent = new f.LlmAgent({ name: "assistant", model, contextCompactors: [new f.TokenBasedContextCompactor({ tokenThreshold: 250, eventRetentionSize: 2, summarizer })] });
    const runner = new f.InMemoryRunner({ agent, appName: "app", plugins: [new Watcher()] });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events: unknown[] = [];
    for (let turn = 1; turn <= 6; turn++) events.push(...(await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: `question ${turn}: ${"some detail ".repeat(12)}` }] } }))));
    return { runner, events };
  }
  type Request = { contents: Array<{ parts: Array<{ text?: string }> }>; config?: { systemInstruction?: unknown } };
  const script = () =>
    Array.from({ length: 40 }, () => (request: unknown) => {
      const asked = request as Request;
      if (!asked.config?.systemInstruction && /conversation/.test(asked.contents[0]?.parts[0]?.text ?? "")) return text("SUMMARY");
      return { ...text("answer"), usageMetadata: { promptTokenCount: Math.ceil(JSON.stringify(asked.contents).length / 3) } };
    });

  it("are called around each compaction with the Auto trigger, on both (toolsmith compacts a request earlier, as documented)", async () => {
    const logs: Record<string, string[]> = { adk: [], toolsmith: [] };
    await runOn("adk", script(), (f, model) => conversation(f, model, logs.adk!));
    await runOn("toolsmith", script(), (f, model) => conversation(f, model, logs.toolsmith!));
    console.log(`compaction hooks: ADK ${JSON.stringify(logs.adk)}; toolsmith ${JSON.stringify(logs.toolsmith)}`);
    const pairs = (log: string[]) => log.map((entry) => entry.replace(/ \d+$/, ""));
    for (const log of [logs.adk!, logs.toolsmith!]) {
      expect(log.length).toBeGreaterThan(0);
      expect(pairs(log)).toEqual(Array.from({ length: log.length / 2 }, () => ["before(Auto)", "after(Auto)"]).flat());
    }
  });

  it("pass the compactor's own trigger, and end the run with PLUGIN_FAILED when a hook throws, the history left whole", async () => {
    const triggers: string[] = [];
    class Failing extends BasePlugin {
      override async beforeContextCompaction({ trigger }: { invocationContext: InvocationContext; trigger: ContextCompactionTrigger }) {
        triggers.push(trigger);
        throw new Error("no compaction today");
      }
    }
    const compactor = Object.assign(new TokenBasedContextCompactor({ tokenThreshold: 1, eventRetentionSize: 1, summarizer: { summarize: async () => ({ role: "model", parts: [{ text: "S" }] }) } as never }), { trigger: ContextCompactionTrigger.Manual });
    const model = new ScriptedModel([textResponse("one"), textResponse("two")]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "assistant", model, contextCompactors: [compactor] }), appName: "app", plugins: [new Failing("failing")] });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("first question, long enough to pass one token") }));
    const second = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("second") }));
    expect(triggers).toEqual(["Manual"]);
    expect(second.at(-1)).toMatchObject({ errorCode: "PLUGIN_FAILED", errorMessage: expect.stringContaining('Plugin "failing" failed in beforeContextCompaction: no compaction today.') });
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    expect(stored!.events.filter((event) => (event as { isCompacted?: boolean }).isCompacted)).toEqual([]);
    expect(stored!.events.map((event) => event.content?.parts?.[0]?.text).filter(Boolean)).toEqual(["first question, long enough to pass one token", "one", "second"]);
  });
});
