/**
 * executeFunctionCalls on its own, the outcomes execute-function-calls.test.ts leaves out: plain tools' schema checks,
 * how results and failures are worded, the actions and artifacts a batch carries, and the pauses besides confirmation.
 */
import { describe, expect, it } from "vitest";
import type { InvocationContext } from "../../src/agents/invocation-context.js";
import type { FunctionCall } from "../../src/content/content.js";
import { createEvent, isFinalResponse, type Event } from "../../src/events/event.js";
import { executeFunctionCalls } from "../../src/llm-agent/execute-function-calls.js";
import type { LlmAgentOptions } from "../../src/llm-agent/llm-agent-settings.js";
import { LlmAgent } from "../../src/llm-agent/llm-agent.js";
import type { ClientAnswer } from "../../src/agents/invocation-context.js";
import { pausedResponse } from "../../src/pause/paused-call.js";
import { FunctionTool } from "../../src/tools/function-tool.js";
import type { Tool } from "../../src/tools/tool.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { Runner } from "../../src/runner/runner.js";
import { SqliteSessionService } from "../../src/sqlite/index.js";
import { join } from "node:path";
import { tempDir } from "../support/temp-dir.js";
import { callBatchEvents, invocationFor, tool } from "./fixtures.js";

const dir = tempDir();

type Options = { longRunningToolIds?: readonly string[]; answers?: ReadonlyMap<string, ClientAnswer> };

/** Runs the calls against an agent made of `tools` and the given callbacks; returns what was yielded and the result. */
async function run(tools: Tool[], calls: FunctionCall[], settings: Partial<LlmAgentOptions> = {}, options: Options = {}, context?: InvocationContext) {
  const agent = new LlmAgent({ name: "worker", model: new ScriptedModel([]), tools, ...settings });
  const invocation = context ?? (await invocationFor(agent));
  const { events, result } = await callBatchEvents((emit) => executeFunctionCalls(agent, invocation, calls, new Map(tools.map((entry) => [entry.name, entry])), { ...options, emit }));
  return { yielded: events, result, responses: responsesOf(result?.responseEvent) };
}

const responsesOf = (event: Event | undefined) => (event?.content?.parts ?? []).map((part) => part.functionResponse!);

describe("executeFunctionCalls", () => {

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
    expect(responses[0]!.response!.status).toBe("error");
    expect(responses[1]!.response).toEqual({ result: 16 });
    expect(received).toEqual([{ x: 4 }]);
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
    expect(responses[0]!.response!.error).toBe('Tool "silent" failed: TypeError. Check the arguments, or try a different approach.');
    expect(responses[1]!.response!.error).toBe('Tool "stringly" failed: nope. Check the arguments, or try a different approach.');
  });

  it("ends the failure's sentence once, whether or not the thrown message ends its own", async () => {
    const { responses } = await run(
      [
        tool("full", () => {
          throw new Error("The disk is full.");
        }),
        tool("asking", () => {
          throw new Error("Is the disk full?  ");
        }),
      ],
      [
        { id: "c1", name: "full", args: {} },
        { id: "c2", name: "asking", args: {} },
      ],
    );
    expect(responses[0]!.response!.error).toBe('Tool "full" failed: The disk is full. Check the arguments, or try a different approach.');
    expect(responses[1]!.response!.error).toBe('Tool "asking" failed: Is the disk full? Check the arguments, or try a different approach.');
  });

  it("wraps primitives and dates as {result}, arrays as {results}, and answers nothing with {} as ADK does", async () => {
    const { responses } = await run(
      [tool("number", () => 42), tool("list", () => [1, 2]), tool("nothing", () => undefined), tool("date", () => new Date(0))],
      ["number", "list", "nothing", "date"].map((name) => ({ id: name, name, args: {} })),
    );
    expect(responses.map((response) => response.response)).toEqual([{ result: 42 }, { results: [1, 2] }, {}, { result: new Date(0) }]);
  });

  it("answers with an error naming the tool and where, for a result JSON would refuse or change without a word, and keeps what JSON keeps", async () => {
    class Order {
      constructor(readonly id: number, readonly placed: Date) {}
      total() {
        return 3;
      }
    }
    const cycle: Record<string, unknown> = { name: "loop" };
    cycle.self = cycle;
    const results: Record<string, () => unknown> = {
      big: () => ({ count: 10n }),
      cycle: () => cycle,
      callback: () => ({ items: [{ then: () => 1 }] }),
      map: () => new Map([["a", 1]]),
      setInside: () => ({ tags: new Set(["x"]) }),
      nan: () => ({ score: Number.NaN }),
      order: () => new Order(7, new Date(0)),
      // Found by test/runner/run-fuzz.test.ts: reading these threw inside the loop, and the run ended RUN_FAILED.
      getter: () => ({ get total() { throw new Error("not loaded"); } }),
      proxy: () => ({ rows: new Proxy({}, { ownKeys() { throw new Error("revoked"); } }) }),
      toJSON: () => ({ when: new (class Stamp { toJSON(): never { throw new Error("no clock"); } })() }),
    };
    const names = Object.keys(results);
    const { responses } = await run(names.map((name) => tool(name, results[name]!)), names.map((name) => ({ id: name, name, args: {} })));
    const errors = Object.fromEntries(responses.map((response) => [response.name, (response.response as { error?: string }).error]));
    expect(errors).toEqual({
      big: 'Tool "big" returned a result that JSON cannot keep: count is a bigint. Tell the user the tool failed; its developer must return JSON values (strings, finite numbers, booleans, null, arrays and plain objects).',
      cycle: expect.stringContaining("self refers to itself (a cycle)"),
      callback: expect.stringContaining("items[0].then is a function"),
      map: expect.stringContaining("result is a Map, which JSON keeps as {} (what it holds is lost)"),
      setInside: expect.stringContaining("tags is a Set"),
      nan: expect.stringContaining("score is NaN."),
      order: undefined,
      getter: expect.stringContaining('Tool "getter" returned a result that JSON cannot keep: could not be read (not loaded).'),
      proxy: expect.stringContaining("could not be read (revoked)"),
      toJSON: expect.stringContaining("cannot be written as JSON (no clock)"),
    });
    // A class instance is its own fields, a date what its toJSON gives, as ADK's responses once serialised.
    expect(JSON.parse(JSON.stringify(responses.find((response) => response.name === "order")!.response))).toEqual({ id: 7, placed: "1970-01-01T00:00:00.000Z" });
  });

  it("goes on past such a result on a real SQLite file, where it used to end the run as a failed store, and stores every event", async () => {
    const sessionService = new SqliteSessionService({ path: join(dir, "sessions.db") });
    const model = new ScriptedModel([functionCallsResponse({ name: "count", args: {} }), textResponse("The counter failed.")]);
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "worker", model, tools: [tool("count", () => ({ count: 10n }))] }), sessionService });
    const session = await sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("count") }));
    expect(events.map((event) => event.errorCode)).toEqual([undefined, undefined, undefined]);
    expect(JSON.stringify(model.requests[1]!.contents.at(-1))).toContain("count is a bigint");
    const stored = (await sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
    expect(stored.events).toHaveLength(4);
    await sessionService.close();
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
    expect(failed.responses[0]!.response!.status).toBe("error");
    expect(failed.result!.responseEvent.actions.artifactDelta).toEqual({ "report.txt": 0 });
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
  it("runs after-tool callbacks on a before-tool callback's answer too", async () => {
    const { responses } = await run([tool("quote", () => ({ price: 99 }))], [{ id: "q1", name: "quote", args: {} }], {
      beforeToolCallback: () => ({ price: 1, cached: true }),
      afterToolCallback: ({ response }) => ({ ...response, checked: true }),
    });
    expect(responses[0]!.response).toEqual({ price: 1, cached: true, checked: true });
  });

  it("wraps a callback's answer that is not a plain object as {result}, as it does a tool's", async () => {
    const { responses } = await run([tool("a", () => ({})), tool("b", () => { throw new Error("x"); })], [
      { id: "a1", name: "a", args: {} },
      { id: "b1", name: "b", args: {} },
    ], {
      beforeToolCallback: ({ tool: called }) => (called.name === "a" ? "from before" : undefined),
      onToolErrorCallback: () => 0,
    });
    expect(responses.map((response) => response.response)).toEqual([{ result: "from before" }, { result: 0 }]);
  });

  it("asks for confirmation only when the tool's rule says so for these arguments", async () => {
    const agent = new LlmAgent({ name: "worker", model: new ScriptedModel([]) });
    const context = await invocationFor(agent);
    const pay = new FunctionTool({
      name: "pay",
      description: "Pays.",
      parameters: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
      requireConfirmation: ({ amount }) => (amount as number) > 100,
      execute: ({ amount }) => ({ paid: amount }),
    });
    const { responses, result } = await run([pay], [
      { id: "small", name: "pay", args: { amount: 20 } },
      { id: "large", name: "pay", args: { amount: 500 } },
    ], {}, {}, context);
    expect(responses.map((response) => response.response)).toEqual([{ paid: 20 }, pausedResponse("confirmation")]);
    expect(result!.paused).toBe(true);
    expect(result!.responseEvent.longRunningToolIds).toEqual(["large"]);
  });

  it("answers with an error when the credential the client sent cannot be used, without running the tool", async () => {
    let ran = false;
    const secured = tool("secured", () => void (ran = true));
    const scheme = { type: "oauth2", flows: { authorizationCode: { authorizationUrl: "https://auth.example/authorize", tokenUrl: "https://auth.example/token" } } };
    const signIn = { authScheme: scheme, exchangedAuthCredential: { authType: "oauth2" as const, oauth2: { state: "issued-state" } } };
    const { responses } = await run([secured], [{ id: "s1", name: "secured", args: {} }], {}, {
      answers: new Map([["s1", { credential: { requested: signIn, answer: { ...signIn, exchangedAuthCredential: { authType: "oauth2", oauth2: { authResponseUri: "https://app.example/callback?code=abc&state=forged" } } } } }]]),
    });
    expect(ran).toBe(false);
    expect(responses[0]!.response).toMatchObject({ status: "error", error: expect.stringMatching(/^The credential for "secured" could not be used: The sign-in redirect carries another state/) });
  });
});
