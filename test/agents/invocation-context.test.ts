import { describe, expect, it } from "vitest";
import { ActiveStreamingTool, InvocationContext, InMemorySessionService, LiveRequestQueue, LlmAgent, PluginManager, Runner, ToolsmithError, type Session } from "../../src/index.js";
import { createInvocationContext, invocationAborted } from "../../src/agents/invocation-context.js";
import { collect, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

const session = (): Session => ({ id: "s1", appName: "shop", userId: "ann", state: {}, events: [], lastUpdateTime: 0 });
const agent = new LlmAgent({ name: "root" });
const make = (params: Record<string, unknown> = {}) => new InvocationContext({ agent, session: session(), sessionService: new InMemorySessionService(), ...params });

describe("new InvocationContext(params)", () => {
  it("fills in ADK's defaults: an e- id, the run settings' defaults, a new count, a trace scope and an unended invocation", () => {
    const context = make();
    expect(context.invocationId).toMatch(/^e-[0-9a-f-]{36}$/);
    expect(context.runConfig).toEqual({ streamingMode: "none", maxLlmCalls: 500, streamAgentToolEvents: false, saveInputBlobsAsArtifacts: false, pauseOnToolCalls: false, saveLiveBlob: false, plainTextToolConfirmation: false });
    expect(context.counters).toEqual({ llmCalls: 0 });
    expect(context.trace).toBeDefined();
    expect(context.endInvocation).toBe(false);
    expect([context.appName, context.userId]).toEqual(["shop", "ann"]);
    expect(context.abortSignal.aborted).toBe(false);
  });

  it("checks runConfig as runAsync does", () => {
    expect(() => make({ runConfig: { maxLlmCals: 3 } })).toThrow('runConfig has no option "maxLlmCals"');
  });

  it("refuses a parameter it does not know, naming it and what it takes", () => {
    const thrown = (() => {
      try {
        make({ sesion: session() });
      } catch (error) {
        return error as ToolsmithError;
      }
    })();
    expect(thrown).toBeInstanceOf(ToolsmithError);
    expect(thrown!.code).toBe("UNSUPPORTED_OPTION");
    expect(thrown!.message).toMatch(/^InvocationContext has no option "sesion": it takes invocationId, agent, session, .* Check its spelling\.$/);
  });

  it("keeps a live run's queue, handle and streaming tools (shared by copies), takes ADK's transcription cache as nothing, and keeps its graph-workflow ones", () => {
    const queue = new LiveRequestQueue();
    const live = make({ liveRequestQueue: queue, liveSessionResumptionHandle: "h-1" });
    expect([live.liveRequestQueue, live.liveSessionResumptionHandle]).toEqual([queue, "h-1"]);
    expect([live.clone().liveRequestQueue, live.clone().liveSessionResumptionHandle]).toEqual([queue, "h-1"]);
    const streams = { monitor: new ActiveStreamingTool() };
    const streaming = make({ activeStreamingTools: streams });
    expect(streaming.activeStreamingTools).toBe(streams);
    expect(streaming.clone().activeStreamingTools).toBe(streams);
    expect(make({ transcriptionCache: undefined }).agent).toBe(agent);
    // A graph workflow's agent nodes read their instruction's placeholders, isolation scope and NodeTool depth from it.
    expect(make({ workflowInstructionScope: { input: { topic: "tea" }, outputsByNode: {} } }).workflowInstructionScope).toEqual({ input: { topic: "tea" }, outputsByNode: {} });
    const scoped = make({ isolationScope: "scope", nodeToolDepth: 2 });
    expect([scoped.isolationScope, scoped.nodeToolDepth]).toEqual(["scope", 2]);
    expect([scoped.clone().isolationScope, scoped.clone().nodeToolDepth]).toEqual(["scope", 2]);
    expect([make().isolationScope, make().nodeToolDepth]).toEqual([undefined, 0]);
  });

  it("takes ADK's pluginManager as its plugins", () => {
    const plugins = new PluginManager([]);
    expect(make({ pluginManager: plugins }).plugins).toBe(plugins);
  });

  it("reads its plugins back as pluginManager, which copies keep, and hooks that answer nothing without plugins", async () => {
    const plugins = new PluginManager([]);
    const withPlugins = make({ pluginManager: plugins });
    expect(withPlugins.pluginManager).toBe(plugins);
    expect(withPlugins.clone().pluginManager).toBe(plugins);
    expect(new InvocationContext({ ...withPlugins }).pluginManager).toBe(plugins);
    const without = make();
    expect(without.plugins).toBeUndefined();
    const hooks = without.pluginManager;
    expect(await hooks.runBeforeModelCallback({ callbackContext: {}, llmRequest: { contents: [] } as never })).toBeUndefined();
    expect(await hooks.runBeforeToolCallback({ tool: { name: "t" }, toolArgs: {}, toolContext: {} })).toBeUndefined();
    expect(await hooks.runAfterContextCompaction({ invocationContext: without, trigger: "auto" })).toBeUndefined();
    // One shared set of hooks, which nobody can change for every other context.
    expect(make().pluginManager).toBe(hooks);
    expect(Object.isFrozen(hooks)).toBe(true);
  });

  it("ends the whole invocation when made with endInvocation: true, and leaves it as it is with false", () => {
    const context = make();
    const ending = new InvocationContext({ ...context, endInvocation: true });
    expect(context.endInvocation).toBe(true);
    new InvocationContext({ ...context, endInvocation: false });
    expect([context.endInvocation, ending.endInvocation]).toEqual([true, true]);
  });

  it("counts model calls with incrementLlmCallCount, shared by its copies, and throws LLM_CALLS_LIMIT_EXCEEDED past maxLlmCalls", () => {
    const context = make({ runConfig: { maxLlmCalls: 2 } });
    const copy = context.clone({ branch: "root.child" });
    context.incrementLlmCallCount();
    copy.incrementLlmCallCount();
    expect(context.counters.llmCalls).toBe(2);
    expect(() => copy.incrementLlmCallCount()).toThrow(expect.objectContaining({ code: "LLM_CALLS_LIMIT_EXCEEDED", message: expect.stringContaining("Raise runConfig.maxLlmCalls") }));
    const unbounded = make({ runConfig: { maxLlmCalls: 0 } });
    for (let call = 0; call < 1_000; call++) unbounded.incrementLlmCallCount();
    expect(unbounded.counters.llmCalls).toBe(1_000);
  });

  it("hands out a signal given to it as its own, which copies keep, while the run's cancellation stays the invocation's", () => {
    const own = new AbortController();
    const context = make({ abortSignal: own.signal });
    expect(context.abortSignal).toBe(own.signal);
    expect(context.clone().abortSignal).toBe(own.signal);
    own.abort("stop");
    expect(invocationAborted(context.clone({ branch: "b" }))).toBe(true);
  });

  it("is what the runner gives agents, and a plain object given to an agent is copied into the class", async () => {
    const seen: unknown[] = [];
    const model = new ScriptedModel([textResponse("hi"), textResponse("again")]);
    const watched = new LlmAgent({ name: "watched", model, beforeModelCallback: ({ context }) => void seen.push(context.invocationContext) });
    const sessionService = new InMemorySessionService();
    const stored = await sessionService.createSession({ appName: "app", userId: "u" });
    await collect(new Runner({ appName: "app", agent: watched, sessionService }).runAsync({ userId: "u", sessionId: stored.id, newMessage: userMessage("go") }));
    expect(seen[0]).toBeInstanceOf(InvocationContext);
    const runnerContext = seen[0] as InvocationContext;
    const plain = { ...runnerContext, invocationId: "e-plain" } as unknown as InvocationContext;
    const events = await collect(watched.runAsync(plain));
    expect(events.map((event) => event.content?.parts?.[0]?.text)).toEqual(["again"]);
    expect(seen[1]).toBeInstanceOf(InvocationContext);
    expect((seen[1] as InvocationContext).invocationId).toBe("e-plain");
  });

  it("gives every context the same fields in the same order, made directly, by the factory or copied", () => {
    const direct = make();
    const made = createInvocationContext({ agent, session: session(), sessionService: new InMemorySessionService() });
    const copied = made.clone({ agent: new LlmAgent({ name: "other" }) });
    const adkWay = new InvocationContext({ ...made, branch: "x" });
    const keys = Object.keys(direct);
    for (const context of [made, copied, adkWay]) expect(Object.keys(context)).toEqual(keys);
    expect(keys).not.toContain("abortSignal");
  });
});
