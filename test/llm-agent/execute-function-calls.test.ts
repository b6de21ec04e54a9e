/** executeFunctionCalls on its own: one model response's calls, run without the loop or a runner around them. */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createInvocationContext, type InvocationContext } from "../../src/agents/invocation-context.js";
import type { FunctionCall } from "../../src/content/content.js";
import type { Event } from "../../src/events/event.js";
import { executeFunctionCalls } from "../../src/llm-agent/execute-function-calls.js";
import { callBatchEvents } from "./fixtures.js";
import { LlmAgent, type LlmAgentOptions } from "../../src/llm-agent/llm-agent.js";
import { InMemorySessionService } from "../../src/sessions/in-memory-session-service.js";
import { FunctionTool } from "../../src/tools/function-tool.js";
import type { Tool } from "../../src/tools/tool.js";
import { ScriptedModel } from "../../src/testing/index.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An agent, a fresh session and an invocation context for it, and its tools by name. */
async function setUp(tools: Tool[], options: Partial<LlmAgentOptions> = {}, abortSignal?: AbortSignal) {
  const agent = new LlmAgent({ name: "worker", model: new ScriptedModel([]), tools, ...options });
  const sessionService = new InMemorySessionService();
  const session = await sessionService.createSession({ appName: "app", userId: "u" });
  const context = createInvocationContext({ agent, session, sessionService, abortSignal });
  return { agent, context, toolsByName: new Map(tools.map((tool) => [tool.name, tool])) };
}

/** Runs the calls and returns their events, as the loop yields them, and what was returned. */
function execute(setup: { agent: LlmAgent; context: InvocationContext; toolsByName: Map<string, Tool> }, calls: FunctionCall[], options: Omit<Parameters<typeof executeFunctionCalls>[4], "emit"> = {}) {
  return callBatchEvents((emit) => executeFunctionCalls(setup.agent, setup.context, calls, setup.toolsByName, { ...options, emit }));
}

const responsesOf = (event: Event) => (event.content?.parts ?? []).map((part) => part.functionResponse!);

const echo = new FunctionTool({ name: "echo", description: "Echoes.", parameters: z.object({ text: z.string() }), execute: ({ text }) => ({ text }) });

describe("executeFunctionCalls", () => {
  it("runs the calls of one response concurrently: each starts before any finishes", async () => {
    // The order of starts and ends shows the overlap whatever the machine's speed; the time is printed.
    const steps: string[] = [];
    const slow = new FunctionTool({
      name: "slow",
      description: "Waits.",
      parameters: z.object({ i: z.number() }),
      execute: async ({ i }) => {
        steps.push(`start ${i}`);
        await sleep(60);
        steps.push(`end ${i}`);
        return { i };
      },
    });
    const setup = await setUp([slow]);
    const started = performance.now();
    const { result } = await execute(setup, [0, 1, 2].map((i) => ({ id: `c${i}`, name: "slow", args: { i } })));
    console.log(`three 60 ms calls in ${(performance.now() - started).toFixed(0)} ms (one after another would take 180)`);
    expect(steps.slice(0, 3).sort()).toEqual(["start 0", "start 1", "start 2"]);
    expect(steps.slice(3).sort()).toEqual(["end 0", "end 1", "end 2"]);
    expect(responsesOf(result!.responseEvent).map((response) => response.response)).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
  });

  it("answers in call order, whatever order the calls finish in", async () => {
    const delayed = new FunctionTool({
      name: "delayed",
      description: "Waits as long as asked.",
      parameters: z.object({ ms: z.number() }),
      execute: async ({ ms }) => {
        await sleep(ms);
        return { ms };
      },
    });
    const { result } = await execute(await setUp([delayed]), [
      { id: "a", name: "delayed", args: { ms: 40 } },
      { id: "b", name: "delayed", args: { ms: 1 } },
      { id: "c", name: "delayed", args: { ms: 20 } },
    ]);
    expect(responsesOf(result!.responseEvent).map((response) => [response.id, response.response])).toEqual([
      ["a", { ms: 40 }],
      ["b", { ms: 1 }],
      ["c", { ms: 20 }],
    ]);
  });

  it("stores one event for all responses, authored by the agent with the user's role, in the agent's branch", async () => {
    const setup = await setUp([echo]);
    const { events, result } = await execute(setup, [{ id: "c1", name: "echo", args: { text: "hi" } }]);
    expect(events).toEqual([result!.responseEvent]);
    expect(result).toMatchObject({ paused: false, responseEvent: { author: "worker", invocationId: setup.context.invocationId, content: { role: "user" } } });
    expect(responsesOf(result!.responseEvent)).toEqual([{ id: "c1", name: "echo", response: { text: "hi" } }]);
  });

  it("answers a call to a tool that does not exist with an error naming the tools there are", async () => {
    const { result } = await execute(await setUp([echo]), [{ id: "c1", name: "ecko", args: {} }]);
    expect(responsesOf(result!.responseEvent)[0]!.response).toEqual({
      status: "error",
      error: 'Tool "ecko" does not exist. Available tools: echo. Call one of these instead.',
    });
  });

  it("tells a model whose agent has no tools to answer without one", async () => {
    const { result } = await execute(await setUp([]), [{ id: "c1", name: "anything", args: {} }]);
    expect(String(responsesOf(result!.responseEvent)[0]!.response!.error)).toBe('Tool "anything" does not exist. This agent has no tools; answer without calling one.');
  });

  it("never runs a tool with invalid arguments, and says which field is wrong", async () => {
    let ran = false;
    const strict = new FunctionTool({
      name: "strict",
      description: "Needs a number.",
      parameters: z.object({ count: z.number() }),
      execute: () => {
        ran = true;
        return {};
      },
    });
    const { result } = await execute(await setUp([strict]), [{ id: "c1", name: "strict", args: { count: "three" } }]);
    expect(ran).toBe(false);
    const response = responsesOf(result!.responseEvent)[0]!.response!;
    expect(response.status).toBe("error");
    expect(String(response.error)).toContain("count");
  });

  it("turns a thrown error into a result the model can act on, and keeps no state the failed call wrote", async () => {
    const failing = new FunctionTool({
      name: "failing",
      description: "Writes state, then fails.",
      execute: (_args, context) => {
        context.state.set("half_done", true);
        throw new Error("disk full");
      },
    });
    const { result } = await execute(await setUp([failing]), [{ id: "c1", name: "failing", args: {} }]);
    expect(responsesOf(result!.responseEvent)[0]!.response).toEqual({ status: "error", error: 'Tool "failing" failed: disk full. Check the arguments, or try a different approach.' });
    expect(result!.responseEvent.actions.stateDelta).toEqual({});
  });

  it("merges state written by parallel calls in call order: for one key, the later call wins", async () => {
    const writer = new FunctionTool({
      name: "write",
      description: "Writes a key.",
      parameters: z.object({ key: z.string(), value: z.string(), ms: z.number() }),
      execute: async ({ key, value, ms }, context) => {
        await sleep(ms);
        context.state.set(key, value);
        return { wrote: value };
      },
    });
    const { result } = await execute(await setUp([writer]), [
      { id: "a", name: "write", args: { key: "color", value: "red", ms: 30 } },
      { id: "b", name: "write", args: { key: "color", value: "blue", ms: 1 } },
      { id: "c", name: "write", args: { key: "size", value: "L", ms: 10 } },
    ]);
    expect(result!.responseEvent.actions.stateDelta).toEqual({ color: "blue", size: "L" });
  });

  it("lets a before-tool callback answer instead of the tool, and an after-tool callback replace the result", async () => {
    let ran = 0;
    const counted = new FunctionTool({
      name: "counted",
      description: "Counts its runs.",
      execute: () => {
        ran++;
        return { from: "tool" };
      },
    });
    const skipping = await setUp([counted], { beforeToolCallback: () => ({ from: "cache" }) });
    expect(responsesOf((await execute(skipping, [{ id: "c1", name: "counted", args: {} }])).result!.responseEvent)[0]!.response).toEqual({ from: "cache" });
    expect(ran).toBe(0);
    const replacing = await setUp([counted], { afterToolCallback: ({ response }) => ({ ...response, checked: true }) });
    expect(responsesOf((await execute(replacing, [{ id: "c1", name: "counted", args: {} }])).result!.responseEvent)[0]!.response).toEqual({ from: "tool", checked: true });
    expect(ran).toBe(1);
  });

  it("lets an on-tool-error callback recover from a thrown error", async () => {
    const failing = new FunctionTool({ name: "failing", description: "Fails.", execute: () => Promise.reject(new Error("boom")) });
    const setup = await setUp([failing], { onToolErrorCallback: ({ error }) => ({ recovered: error.message }) });
    expect(responsesOf((await execute(setup, [{ id: "c1", name: "failing", args: {} }])).result!.responseEvent)[0]!.response).toEqual({ recovered: "boom" });
  });

  it("gives after-tool callbacks the thrown error with the error result when no on-tool-error callback answered, and lets them replace it (seed 001)", async () => {
    const failing = new FunctionTool({ name: "failing", description: "Fails.", execute: () => Promise.reject(new Error("disk full")) });
    const seen: Array<[string | undefined, unknown]> = [];
    const setup = await setUp([failing, echo], {
      afterToolCallback: ({ response, error }) => {
        seen.push([error?.message, response.status]);
        return error ? { status: "error", message: `Could not save: ${error.message}. Try a smaller file.` } : undefined;
      },
    });
    const { result } = await execute(setup, [{ id: "c1", name: "failing", args: {} }, { id: "c2", name: "echo", args: { text: "ok" } }]);
    // The calls run concurrently, so the callbacks run in either order.
    expect(seen).toHaveLength(2);
    expect(seen).toEqual(expect.arrayContaining([["disk full", "error"], [undefined, undefined]]));
    expect(responsesOf(result!.responseEvent).map((response) => response.response)).toEqual([{ status: "error", message: "Could not save: disk full. Try a smaller file." }, { text: "ok" }]);
  });

  it("stops a tool at its timeout with an error result, even when the tool ignores its abort signal", async () => {
    const stuck = new FunctionTool({ name: "stuck", description: "Never ends.", timeoutMs: 30, execute: () => new Promise(() => undefined) });
    const started = performance.now();
    const { result } = await execute(await setUp([stuck]), [{ id: "c1", name: "stuck", args: {} }]);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(responsesOf(result!.responseEvent)[0]!.response).toEqual({
      status: "error",
      error: 'Tool "stuck" did not finish within 30 ms and was stopped. Try again with a smaller request, or tell the user it timed out.',
    });
  });

  it("returns nothing, and stores nothing, when the run is cancelled while tools run", async () => {
    const cancel = new AbortController();
    const slow = new FunctionTool({ name: "slow", description: "Waits.", execute: () => sleep(1_000).then(() => ({ late: true })) });
    const setup = await setUp([slow], {}, cancel.signal);
    setTimeout(() => cancel.abort(), 20);
    const { events, result } = await execute(setup, [{ id: "c1", name: "slow", args: {} }]);
    expect({ events, result }).toEqual({ events: [], result: undefined });
  });

  it("pauses a call that needs confirmation without running it, and asks the client in a second event", async () => {
    let ran = false;
    const guarded = new FunctionTool({
      name: "transfer_money",
      description: "Moves money.",
      parameters: z.object({ amount: z.number() }),
      requireConfirmation: ({ amount }) => amount > 100,
      execute: () => {
        ran = true;
        return { done: true };
      },
    });
    const { events, result } = await execute(await setUp([guarded]), [{ id: "c1", name: "transfer_money", args: { amount: 500 } }]);
    expect(ran).toBe(false);
    expect(result!.paused).toBe(true);
    expect(result!.responseEvent.longRunningToolIds).toEqual(["c1"]);
    expect(events).toHaveLength(2);
    const request = events[1]!.content!.parts![0]!.functionCall!;
    expect(request).toMatchObject({ name: "adk_request_confirmation", args: { originalFunctionCall: { id: "c1", name: "transfer_money", args: { amount: 500 } } } });
    expect(events[1]!.longRunningToolIds).toEqual([request.id]);
  });

  it("runs a confirmed call, and answers a declined one without running it", async () => {
    const runs: number[] = [];
    const guarded = new FunctionTool({
      name: "transfer_money",
      description: "Moves money.",
      parameters: z.object({ amount: z.number() }),
      requireConfirmation: true,
      execute: ({ amount }) => {
        runs.push(amount);
        return { moved: amount };
      },
    });
    const setup = await setUp([guarded]);
    const confirmed = await execute(setup, [{ id: "c1", name: "transfer_money", args: { amount: 5 } }], { answers: new Map([["c1", { confirmation: { confirmed: true } }]]) });
    expect(responsesOf(confirmed.result!.responseEvent)[0]!.response).toEqual({ moved: 5 });
    const declined = await execute(setup, [{ id: "c2", name: "transfer_money", args: { amount: 7 } }], { answers: new Map([["c2", { confirmation: { confirmed: false } }]]) });
    expect(String(responsesOf(declined.result!.responseEvent)[0]!.response!.error)).toBe('The user declined the call to "transfer_money", so it did not run. Do not call it again for this request unless the user asks.');
    expect(runs).toEqual([5]);
  });

  it("answers long-running calls with their pending results without pausing, as ADK does", async () => {
    const job = new FunctionTool({ name: "start_job", description: "Starts a job.", isLongRunning: true, execute: () => ({ status: "pending", ticket: "T-1" }) });
    const { result } = await execute(await setUp([job, echo]), [
      { id: "j", name: "start_job", args: {} },
      { id: "e", name: "echo", args: { text: "x" } },
    ]);
    expect(result!.paused).toBe(false);
    expect(result!.responseEvent.longRunningToolIds).toBeUndefined();
    expect(responsesOf(result!.responseEvent).map((response) => response.response)).toEqual([{ status: "pending", ticket: "T-1" }, { text: "x" }]);
  });

  it("yields what a tool emits while it runs before the response event", async () => {
    const reporter = new FunctionTool({
      name: "reporter",
      description: "Reports progress.",
      execute: async (_args, context) => {
        await context.reportProgress({ progress: 1, total: 2, message: "half" });
        return { done: true };
      },
    });
    const { events, result } = await execute(await setUp([reporter]), [{ id: "c1", name: "reporter", args: {} }]);
    expect(events).toHaveLength(2);
    expect(events[1]).toBe(result!.responseEvent);
    expect(events[0]).toMatchObject({ partial: true, author: "worker", customMetadata: { toolProgress: { functionCallId: "c1", progress: 1, total: 2, message: "half" } } });
  });

  it("leaves no abort listener on the run's signal once its calls finish, however many calls a run makes", async () => {
    const cancel = new AbortController();
    const setup = await setUp([echo], {}, cancel.signal);
    for (let round = 0; round < 50; round++) await execute(setup, [{ id: `a${round}`, name: "echo", args: { text: "x" } }, { id: `b${round}`, name: "echo", args: { text: "y" } }]);
    expect(getEventListeners(cancel.signal, "abort")).toHaveLength(0);
  });

  it("turns a tool that throws before returning a promise into an error result the model can act on", async () => {
    const eager = { name: "eager", description: "Throws at once.", declaration: () => ({ name: "eager", description: "Throws at once.", parameters: { type: "object", properties: {} } }), run: () => { throw new Error("no disk"); } } as unknown as Tool;
    const { result } = await execute(await setUp([eager]), [{ id: "c1", name: "eager", args: {} }]);
    expect(responsesOf(result!.responseEvent)[0]!.response).toEqual({ status: "error", error: 'Tool "eager" failed: no disk. Check the arguments, or try a different approach.' });
  });

  it("stops a call still running when the run is cancelled, and takes the call's listener off the signal", async () => {
    const cancel = new AbortController();
    const stuck = new FunctionTool({ name: "stuck", description: "Never ends.", execute: () => new Promise(() => undefined) });
    const setup = await setUp([stuck], {}, cancel.signal);
    const running = execute(setup, [{ id: "c1", name: "stuck", args: {} }]);
    await sleep(10);
    expect(getEventListeners(cancel.signal, "abort")).toHaveLength(1);
    cancel.abort();
    expect(await running).toEqual({ events: [], result: undefined });
  });

  it("lets fifty parallel calls each listen on the run's signal without Node's listener-leak warning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const listening = new FunctionTool({
        name: "listening",
        description: "Listens for cancellation, as a spawned process or a fetch does.",
        parameters: z.object({ i: z.number() }),
        execute: async ({ i }, context) => {
          context.abortSignal.addEventListener("abort", () => undefined, { once: true });
          await sleep(5);
          return { i };
        },
      });
      const { result } = await execute(await setUp([listening]), Array.from({ length: 50 }, (_, i) => ({ id: `c${i}`, name: "listening", args: { i } })));
      await new Promise((resolve) => setImmediate(resolve));
      expect(responsesOf(result!.responseEvent)).toHaveLength(50);
      expect(warnings.filter((name) => name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
