/** executeFunctionCalls on its own: one model response's calls run, answered and merged into one event. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { InvocationContext } from "../../src/agents/invocation-context.js";
import type { FunctionCall } from "../../src/content/content.js";
import { createEvent, isFinalResponse, type Event } from "../../src/events/event.js";
import { executeFunctionCalls, type CallsResult } from "../../src/llm-agent/execute-function-calls.js";
import type { LlmAgentOptions } from "../../src/llm-agent/llm-agent-settings.js";
import { LlmAgent } from "../../src/llm-agent/llm-agent.js";
import type { ClientAnswer } from "../../src/agents/invocation-context.js";
import { REQUEST_CONFIRMATION } from "../../src/pause/client-requests.js";
import { pausedResponse } from "../../src/pause/paused-call.js";
import { FunctionTool } from "../../src/tools/function-tool.js";
import type { Tool } from "../../src/tools/tool.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { invocationFor, sleep, tool } from "./fixtures.js";

type Options = { longRunningToolIds?: readonly string[]; answers?: ReadonlyMap<string, ClientAnswer> };

/** Runs the calls against an agent made of `tools` and the given callbacks; returns what was yielded and the result. */
async function run(tools: Tool[], calls: FunctionCall[], settings: Partial<LlmAgentOptions> = {}, options: Options = {}, context?: InvocationContext) {
  const agent = new LlmAgent({ name: "worker", model: new ScriptedModel([]), tools, ...settings });
  const invocation = context ?? (await invocationFor(agent));
  const generator = executeFunctionCalls(agent, invocation, calls, new Map(tools.map((entry) => [entry.name, entry])), options);
  const yielded: Event[] = [];
  let next = await generator.next();
  while (!next.done) {
    yielded.push(next.value);
    next = await generator.next();
  }
  return { yielded, result: next.value as CallsResult | undefined, responses: responsesOf(next.value?.responseEvent) };
}

const responsesOf = (event: Event | undefined) => (event?.content?.parts ?? []).map((part) => part.functionResponse!);

describe("executeFunctionCalls", () => {
  it("runs the calls of one response concurrently: three calls of 50 ms finish well under 150 ms", async () => {
    const slow = tool("slow", async ({ n }) => {
      await sleep(50);
      return { n };
    });
    const started = performance.now();
    const { responses } = await run([slow], [1, 2, 3].map((n) => ({ id: `c${n}`, name: "slow", args: { n } })));
    const elapsed = performance.now() - started;
    expect(responses.map((response) => response.response)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(elapsed).toBeLessThan(120);
  });

  it("answers in call order even when later calls finish first", async () => {
    const finished: string[] = [];
    const delayed = tool("delayed", async ({ ms }, context) => {
      await sleep(ms as number);
      finished.push(context.functionCallId);
      return { waited: ms };
    });
    const { responses } = await run([delayed], [
      { id: "first", name: "delayed", args: { ms: 40 } },
      { id: "second", name: "delayed", args: { ms: 20 } },
      { id: "third", name: "delayed", args: { ms: 0 } },
    ]);
    expect(finished).toEqual(["third", "second", "first"]);
    expect(responses.map((response) => response.id)).toEqual(["first", "second", "third"]);
    expect(responses.map((response) => response.response)).toEqual([{ waited: 40 }, { waited: 20 }, { waited: 0 }]);
  });

  it("puts every response in one user-role event of this agent, branch and invocation, which the model is asked to read", async () => {
    const agent = new LlmAgent({ name: "worker", model: new ScriptedModel([]) });
    const context = await invocationFor(agent, { branch: "root.worker" });
    const { yielded, result } = await run([tool("ping", () => ({ pong: true }))], [{ id: "p1", name: "ping", args: {} }], {}, {}, context);
    expect(yielded).toEqual([result!.responseEvent]);
    expect(result!.paused).toBe(false);
    expect(result!.responseEvent).toMatchObject({ author: "worker", branch: "root.worker", invocationId: context.invocationId, content: { role: "user" } });
    expect(result!.responseEvent.longRunningToolIds).toBeUndefined();
    expect(isFinalResponse(result!.responseEvent)).toBe(false);
  });

  it("answers a call to an unknown tool with an error that lists the tools to call instead, and runs the others", async () => {
    const { responses } = await run([tool("search", () => ({ hits: 1 })), tool("fetch_page", () => ({}))], [
      { id: "c1", name: "serch", args: {} },
      { id: "c2", name: "search", args: {} },
    ]);
    expect(responses[0]).toEqual({
      id: "c1",
      name: "serch",
      response: { status: "error", error: 'Tool "serch" does not exist. Available tools: search, fetch_page. Call one of these instead.' },
    });
    expect(responses[1]!.response).toEqual({ hits: 1 });
  });

  it("tells the model to answer without tools when the agent has none", async () => {
    const { responses } = await run([], [{ id: "c1", name: "anything", args: {} }]);
    expect(responses[0]!.response.error).toBe('Tool "anything" does not exist. This agent has no tools; answer without calling one.');
  });

  it("answers invalid arguments with the fields to fix, without running the tool", async () => {
    let ran = false;
    const book = new FunctionTool({
      name: "book",
      description: "Books a table.",
      parameters: z.object({ people: z.number().int().min(1), date: z.string() }),
      execute: () => {
        ran = true;
        return {};
      },
    });
    const { responses } = await run([book], [{ id: "c1", name: "book", args: { people: 0 } }]);
    const response = responses[0]!.response;
    expect(ran).toBe(false);
    expect(response.status).toBe("error");
    expect(response.error).toMatch(/^Invalid arguments for tool "book": .*people.*date.*Call the tool again/);
    expect((response.invalidArguments as { field: string }[]).map((issue) => issue.field).sort()).toEqual(["date", "people"]);
  });

  it("checks a plain tool's arguments against its declared schema, and passes checked arguments on", async () => {
    const received: unknown[] = [];
    const plain: Tool = {
      name: "square",
      description: "Squares a number.",
      declaration: () => ({ name: "square", description: "Squares.", parameters: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } }),
      run: async (args) => {
        received.push(args);
        return (args.x as number) ** 2;
      },
    };
    const { responses } = await run([plain], [
      { id: "bad", name: "square", args: { x: "four" } },
      { id: "good", name: "square", args: { x: 4 } },
    ]);
    expect(responses[0]!.response.status).toBe("error");
    expect(responses[1]!.response).toEqual({ result: 16 });
    expect(received).toEqual([{ x: 4 }]);
  });

  it("answers a tool that throws with an error the model can act on, and keeps none of the state it wrote first", async () => {
    const flaky = tool("flaky", (_args, context) => {
      context.state.set("half_done", true);
      throw new Error("disk full");
    });
    const { responses, result } = await run([flaky, tool("fine", (_args, context) => void context.state.set("fine", 1))], [
      { id: "c1", name: "flaky", args: {} },
      { id: "c2", name: "fine", args: {} },
    ]);
    expect(responses[0]!.response).toEqual({ status: "error", error: 'Tool "flaky" failed: disk full. Check the arguments, or try a different approach.' });
    expect(responses[1]!.response).toEqual({ result: null });
    expect(result!.responseEvent.actions.stateDelta).toEqual({ fine: 1 });
  });

  it("names the error class when a thrown error has no message, and wraps a thrown non-Error", async () => {
    const { responses } = await run(
      [
        tool("silent", () => {
          throw new TypeError();
        }),
        tool("stringly", () => {
          throw "nope";
        }),
      ],
      [
        { id: "c1", name: "silent", args: {} },
        { id: "c2", name: "stringly", args: {} },
      ],
    );
    expect(responses[0]!.response.error).toBe('Tool "silent" failed: TypeError. Check the arguments, or try a different approach.');
    expect(responses[1]!.response.error).toBe('Tool "stringly" failed: nope. Check the arguments, or try a different approach.');
  });

  it("lets an on-tool-error callback answer for a failed call, and after-tool callbacks see that answer", async () => {
    const afterSaw: unknown[] = [];
    const { responses } = await run([tool("flaky", () => Promise.reject(new Error("rate limited")))], [{ id: "c1", name: "flaky", args: {} }], {
      onToolErrorCallback: ({ error, tool: failed }) => ({ status: "retry_later", reason: `${failed.name}: ${error.message}` }),
      afterToolCallback: ({ response }) => void afterSaw.push(response),
    });
    expect(responses[0]!.response).toEqual({ status: "retry_later", reason: "flaky: rate limited" });
    expect(afterSaw).toEqual([{ status: "retry_later", reason: "flaky: rate limited" }]);
  });

  it("wraps results that are not plain objects as {result}", async () => {
    const { responses } = await run(
      [tool("number", () => 42), tool("list", () => [1, 2]), tool("nothing", () => undefined), tool("date", () => new Date(0))],
      ["number", "list", "nothing", "date"].map((name) => ({ id: name, name, args: {} })),
    );
    expect(responses.map((response) => response.response)).toEqual([{ result: 42 }, { result: [1, 2] }, { result: null }, { result: new Date(0) }]);
  });

  it("skips the tool when a before-tool callback answers, and replaces the result when an after-tool callback does", async () => {
    const ran: string[] = [];
    const tools = [tool("cached", () => void ran.push("cached")), tool("live", () => ({ price: 10 }))];
    const { responses } = await run(tools, [
      { id: "c1", name: "cached", args: {} },
      { id: "c2", name: "live", args: { currency: "EUR" } },
    ], {
      beforeToolCallback: ({ tool: called }) => (called.name === "cached" ? { from: "cache" } : undefined),
      afterToolCallback: ({ tool: called, args, response, context }) =>
        called.name === "live" ? { ...response, currency: args.currency, call: context.functionCallId } : undefined,
    });
    expect(ran).toEqual([]);
    expect(responses.map((response) => response.response)).toEqual([{ from: "cache" }, { price: 10, currency: "EUR", call: "c2" }]);
  });

  it("merges the state of all calls in call order, the later call winning on one key, whatever the finishing order", async () => {
    const writer = tool("writer", async ({ key, value, ms }, context) => {
      await sleep(ms as number);
      context.state.set(key as string, value);
      return {};
    });
    const { result } = await run([writer], [
      { id: "c1", name: "writer", args: { key: "color", value: "red", ms: 0 } },
      { id: "c2", name: "writer", args: { key: "size", value: "L", ms: 10 } },
      { id: "c3", name: "writer", args: { key: "color", value: "blue", ms: 30 } },
    ]);
    expect(result!.responseEvent.actions.stateDelta).toEqual({ color: "blue", size: "L" });

    const reversed = await run([writer], [
      { id: "c1", name: "writer", args: { key: "color", value: "red", ms: 30 } },
      { id: "c2", name: "writer", args: { key: "color", value: "blue", ms: 0 } },
    ]);
    expect(reversed.result!.responseEvent.actions.stateDelta).toEqual({ color: "blue" });
  });

  it("carries skipSummarization, escalate and transferToAgent set by any call onto the response event", async () => {
    const tools = [
      tool("final", (_args, context) => void (context.actions.skipSummarization = true)),
      tool("stop_loop", (_args, context) => void (context.actions.escalate = true)),
      tool("hand_over", (_args, context) => void (context.actions.transferToAgent = "billing")),
      tool("plain", () => ({})),
    ];
    const { result } = await run(tools, tools.map((entry) => ({ id: entry.name, name: entry.name, args: {} })));
    expect(result!.responseEvent.actions).toMatchObject({ skipSummarization: true, escalate: true, transferToAgent: "billing" });
    expect(isFinalResponse(result!.responseEvent)).toBe(true);

    const plain = await run([tools[3]!], [{ id: "p", name: "plain", args: {} }]);
    expect(plain.result!.responseEvent.actions.skipSummarization).toBeUndefined();
    expect(plain.result!.responseEvent.actions.escalate).toBeUndefined();
    expect(plain.result!.responseEvent.actions.transferToAgent).toBeUndefined();
  });

  it("records artifacts a tool saved, also when it fails afterwards", async () => {
    const saver = tool("saver", async ({ fail }, context) => {
      await context.saveArtifact("report.txt", { text: "draft" });
      if (fail) throw new Error("after saving");
      return {};
    });
    const saved = await run([saver], [{ id: "c1", name: "saver", args: {} }]);
    expect(saved.result!.responseEvent.actions.artifactDelta).toEqual({ "report.txt": 0 });
    const failed = await run([saver], [{ id: "c1", name: "saver", args: { fail: true } }]);
    expect(failed.responses[0]!.response.status).toBe("error");
    expect(failed.result!.responseEvent.actions.artifactDelta).toEqual({ "report.txt": 0 });
  });

  it("marks the long-running calls it was told of on the response event, which ends the turn", async () => {
    const { result } = await run([tool("start_job", () => ({ status: "pending" }))], [{ id: "job-1", name: "start_job", args: {} }], {}, { longRunningToolIds: ["job-1"] });
    expect(result!.responseEvent.longRunningToolIds).toEqual(["job-1"]);
    expect(isFinalResponse(result!.responseEvent)).toBe(true);
  });

  it("stops a tool that passes its timeoutMs, even one that ignores its abort signal, with a timeout error", async () => {
    let signalled = false;
    const stubborn = tool(
      "stubborn",
      (_args, context) => {
        context.abortSignal.addEventListener("abort", () => (signalled = true));
        return new Promise(() => {});
      },
      { timeoutMs: 20 },
    );
    const started = performance.now();
    const { responses } = await run([stubborn, tool("quick", () => ({ ok: true }))], [
      { id: "c1", name: "stubborn", args: {} },
      { id: "c2", name: "quick", args: {} },
    ]);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(signalled).toBe(true);
    expect(responses[0]!.response).toEqual({
      status: "error",
      error: 'Tool "stubborn" did not finish within 20 ms and was stopped. Try again with a smaller request, or tell the user it timed out.',
    });
    expect(responses[1]!.response).toEqual({ ok: true });
  });

  it("yields no response event and returns undefined when the run is cancelled while tools run", async () => {
    const controller = new AbortController();
    const agent = new LlmAgent({ name: "worker", model: new ScriptedModel([]) });
    const context = await invocationFor(agent, { abortSignal: controller.signal });
    const hanging = tool("hanging", () => {
      setTimeout(() => controller.abort(), 5);
      return new Promise(() => {});
    });
    const { yielded, result } = await run([hanging], [{ id: "c1", name: "hanging", args: {} }], {}, {}, context);
    expect(yielded).toEqual([]);
    expect(result).toBeUndefined();
  });

  it("does not start a tool when the run was cancelled before", async () => {
    const controller = new AbortController();
    controller.abort();
    let ran = false;
    const agent = new LlmAgent({ name: "worker", model: new ScriptedModel([]) });
    const context = await invocationFor(agent, { abortSignal: controller.signal });
    const { result } = await run([tool("never", () => void (ran = true))], [{ id: "c1", name: "never", args: {} }], {}, {}, context);
    expect(ran).toBe(false);
    expect(result).toBeUndefined();
  });

  it("passes on the events a tool emits while it runs, before the response event and in order", async () => {
    const agent = new LlmAgent({ name: "worker", model: new ScriptedModel([]) });
    const context = await invocationFor(agent);
    const narrator = tool("narrator", async (_args, toolContext) => {
      await toolContext.emitEvent(createEvent({ invocationId: context.invocationId, author: "inner", content: { role: "model", parts: [{ text: "step 1" }] } }));
      await toolContext.reportProgress({ progress: 1, total: 2 });
      await toolContext.emitEvent(createEvent({ invocationId: context.invocationId, author: "inner", content: { role: "model", parts: [{ text: "step 2" }] } }));
      return { done: true };
    });
    const { yielded, result } = await run([narrator], [{ id: "n1", name: "narrator", args: {} }], {}, {}, context);
    const label = (event: Event) =>
      event.content?.parts?.[0]?.text ?? (event.customMetadata ? `progress ${(event.customMetadata.toolProgress as { progress: number }).progress}` : `response to ${event.content?.parts?.[0]?.functionResponse?.id}`);
    expect(yielded.map(label)).toEqual(["step 1", "progress 1", "step 2", "response to n1"]);
    expect(yielded[1]).toMatchObject({ partial: true, author: "worker", customMetadata: { toolProgress: { functionCallId: "n1", progress: 1, total: 2 } } });
    expect(yielded.at(-1)).toBe(result!.responseEvent);
  });

  it("pauses a call that needs confirmation: a paused response without its state, then the event asking the client", async () => {
    let ran = false;
    const refund = tool("refund", () => void (ran = true), { requireConfirmation: true });
    const { yielded, result, responses } = await run([refund, tool("lookup", (_args, context) => void context.state.set("looked", true))], [
      { id: "r1", name: "refund", args: { amount: 30 } },
      { id: "l1", name: "lookup", args: {} },
    ]);
    expect(ran).toBe(false);
    expect(result!.paused).toBe(true);
    expect(responses[0]!.response).toEqual(pausedResponse("confirmation"));
    expect(result!.responseEvent.longRunningToolIds).toEqual(["r1"]);
    expect(result!.responseEvent.actions.stateDelta).toEqual({ looked: true });
    expect(result!.responseEvent.actions.requestedToolConfirmations.r1).toMatchObject({ confirmed: false, hint: expect.stringContaining('"refund"') });
    expect(yielded).toHaveLength(2);
    const ask = yielded[1]!;
    const askCall = ask.content!.parts![0]!.functionCall!;
    expect(askCall.name).toBe(REQUEST_CONFIRMATION);
    expect(askCall.args).toMatchObject({ originalFunctionCall: { id: "r1", name: "refund", args: { amount: 30 } } });
    expect(ask.longRunningToolIds).toEqual([askCall.id]);
  });

  it("runs a confirmed call with the person's decision in toolConfirmation, and refuses a declined one without running it", async () => {
    const decisions: unknown[] = [];
    const refund = tool("refund", (_args, context) => {
      decisions.push(context.toolConfirmation);
      return { refunded: true };
    }, { requireConfirmation: true });
    const approved = await run([refund], [{ id: "r1", name: "refund", args: {} }], {}, { answers: new Map([["r1", { confirmation: { confirmed: true, hint: "ok" } }]]) });
    expect(approved.responses[0]!.response).toEqual({ refunded: true });
    expect(approved.result!.paused).toBe(false);
    expect(decisions).toEqual([{ confirmed: true, hint: "ok" }]);

    const declined = await run([refund], [{ id: "r1", name: "refund", args: {} }], {}, { answers: new Map([["r1", { confirmation: { confirmed: false } }]]) });
    expect(declined.responses[0]!.response).toEqual({
      status: "error",
      error: 'The user declined the call to "refund", so it did not run. Do not call it again for this request unless the user asks.',
    });
    expect(decisions).toHaveLength(1);
  });

  it("pauses a call whose tool asked for a credential, and one that waits for the client through an inner agent", async () => {
    const needsKey = tool("needs_key", (_args, context) => {
      context.state.set("tried", true);
      context.requestCredential({ authScheme: { type: "apiKey", name: "key", in: "header" } });
      return { status: "pending" };
    });
    const waitsInside = tool("inner_agent", (_args, context) => {
      context.pausedForClient = true;
      return {};
    });
    const { result, responses, yielded } = await run([needsKey, waitsInside], [
      { id: "k1", name: "needs_key", args: {} },
      { id: "a1", name: "inner_agent", args: {} },
    ]);
    expect(responses.map((response) => response.response)).toEqual([pausedResponse("credential"), pausedResponse("client")]);
    expect(result!.paused).toBe(true);
    expect(result!.responseEvent.longRunningToolIds).toEqual(["k1", "a1"]);
    expect(result!.responseEvent.actions.stateDelta).toEqual({});
    expect(yielded.at(-1)!.content!.parts!.map((part) => part.functionCall!.name)).toEqual(["adk_request_credential"]);
  });
});
