/**
 * A plugin costs a run only the hooks it overrides: a hook left as `BasePlugin`'s own answers nothing, so it is
 * neither called nor awaited, and the loop builds no context for it.
 */
import { createHook } from "node:async_hooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { BasePlugin, FunctionTool, LlmAgent, PluginManager, Runner } from "../../src/index.js";
import { functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

class CountRuns extends BasePlugin {
  runs = 0;
  constructor() {
    super("count_runs");
  }
  override async afterRunCallback() {
    this.runs++;
  }
}

class Quiet extends BasePlugin {
  constructor() {
    super("quiet");
  }
}

const echo = new FunctionTool({ name: "echo", description: "Echoes its input.", parameters: z.object({ i: z.number() }), execute: ({ i }) => ({ i }) });

/** Runs `turns` turns of a model calling `echo` then answering, with `plugins`; returns the runner. */
async function conversation(plugins: BasePlugin[], turns: number) {
  const model = new ScriptedModel(Array.from({ length: turns }, (_, turn) => [functionCallsResponse({ name: "echo", args: { i: turn } }), textResponse(`answer ${turn}`)]).flat());
  const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "agent", model, tools: [echo] }), plugins });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events: unknown[] = [];
  for (let turn = 0; turn < turns; turn++) {
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage(`turn ${turn}`) })) events.push(event);
  }
  return { runner, events };
}

/** How many promises a conversation of `turns` turns makes, counted by Node's async hooks. */
async function promisesOf(plugins: BasePlugin[], turns: number): Promise<number> {
  let count = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "PROMISE") count++;
    },
  });
  hook.enable();
  try {
    await conversation(plugins, turns);
  } finally {
    hook.disable();
  }
  return count;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("plugin hooks a plugin does not override", () => {
  it("are told apart from those it does, including a hook set on the plugin after it was registered", () => {
    const counting = new CountRuns();
    const manager = new PluginManager([counting, new Quiet()]);
    expect(manager.overrides("afterRunCallback")).toBe(true);
    expect(manager.overrides("beforeModelCallback")).toBe(false);
    expect(manager.overrides("onEventCallback")).toBe(false);
    expect(new PluginManager([]).overrides("afterRunCallback")).toBe(false);
    (counting as unknown as { onEventCallback: () => Promise<undefined> }).onEventCallback = async () => undefined;
    expect(manager.overrides("onEventCallback")).toBe(true);
  });

  it("are never called in a run, while the hook it overrides runs once per run", async () => {
    const inherited = vi.spyOn(BasePlugin.prototype, "beforeModelCallback");
    const onEvent = vi.spyOn(BasePlugin.prototype, "onEventCallback");
    const counting = new CountRuns();
    const { events } = await conversation([counting, new Quiet()], 3);
    expect(events).toHaveLength(9);
    expect(counting.runs).toBe(3);
    expect(inherited).not.toHaveBeenCalled();
    expect(onEvent).not.toHaveBeenCalled();
  });

  it("cost a run nothing: a plugin overriding only afterRunCallback adds a few promises a run, not a few per event and call", async () => {
    // Warm up the paths once, so that lazily loaded modules do not count.
    await conversation([new CountRuns()], 2);
    const turns = 10;
    const without = await promisesOf([], turns);
    const withPlugin = await promisesOf([new CountRuns(), new Quiet()], turns);
    const perRun = (withPlugin - without) / turns;
    console.log(`promises for ${turns} runs: ${without} without plugins, ${withPlugin} with one overriding afterRunCallback and one overriding nothing (${perRun.toFixed(1)} more a run)`);
    // The afterRunCallback itself (8 on Node 20: the manager's hook, its loop, the plugin's own async method and the
    // awaits on them). Before hooks left as BasePlugin's were skipped, the same plugins cost 150 a run.
    expect(perRun).toBeLessThanOrEqual(10);
  });
});
