/** The invocation context factory and the Runner around the loop: defaults, shared counters, which agent runs, what is stored. */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { FunctionTool } from "../../src/tools/function-tool.js";
import { createInvocationContext, forAgent, invocationAborted, invocationCancellation, InvocationContext } from "../../src/agents/invocation-context.js";
import { RunCancellation } from "../../src/agents/run-cancellation.js";
import { SequentialAgent } from "../../src/agents/sequential-agent.js";
import { SessionNotFoundError } from "../../src/errors/toolsmith-error.js";
import { LlmAgent } from "../../src/llm-agent/llm-agent.js";
import { InMemoryRunner, Runner } from "../../src/runner/runner.js";
import { InMemorySessionService } from "../../src/sessions/in-memory-session-service.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { sleep, tool } from "./fixtures.js";
import { withoutIdentity } from "../support/identity.js";

const session = { id: "s", appName: "app", userId: "u", state: {}, events: [], lastUpdateTime: 0 };
const plainAgent = new LlmAgent({ name: "plain" });

describe("createInvocationContext", () => {
  it("gives a fresh e- id, no streaming, a limit of 500 model calls, new counters and a signal that never fires", () => {
    const first = createInvocationContext({ agent: plainAgent, session, sessionService: new InMemorySessionService() });
    const second = createInvocationContext({ agent: plainAgent, session, sessionService: new InMemorySessionService() });
    expect(first.invocationId).toMatch(/^e-/);
    expect(first.invocationId).not.toBe(second.invocationId);
    expect(first.runConfig).toEqual({ streamingMode: "none", maxLlmCalls: 500, streamAgentToolEvents: false, saveInputBlobsAsArtifacts: false, pauseOnToolCalls: false, saveLiveBlob: false, plainTextToolConfirmation: false });
    expect(first.counters).toEqual({ llmCalls: 0 });
    expect(first.counters).not.toBe(second.counters);
    expect(first.endInvocation).toBe(false);
    expect(first.abortSignal.aborted).toBe(false);
  });

  it("keeps what it was given, filling only the run settings left out", () => {
    const controller = new AbortController();
    const context = createInvocationContext({
      agent: plainAgent,
      session,
      sessionService: new InMemorySessionService(),
      invocationId: "e-given",
      branch: "root.plain",
      runConfig: { maxLlmCalls: 3 },
      abortSignal: controller.signal,
      userContent: userMessage("hi"),
    });
    expect(context).toMatchObject({ invocationId: "e-given", branch: "root.plain", runConfig: { streamingMode: "none", maxLlmCalls: 3 }, userContent: userMessage("hi") });
    expect(context.abortSignal).toBe(controller.signal);
    expect(createInvocationContext({ agent: plainAgent, session, sessionService: new InMemorySessionService(), runConfig: { streamingMode: "sse" } }).runConfig).toEqual({ streamingMode: "sse", maxLlmCalls: 500, streamAgentToolEvents: false, saveInputBlobsAsArtifacts: false, pauseOnToolCalls: false, saveLiveBlob: false, plainTextToolConfirmation: false });
  });
});

describe("invocationAborted and invocationCancellation", () => {
  const make = (init: { abortSignal?: AbortSignal; cancellation?: RunCancellation }) => createInvocationContext({ agent: plainAgent, session, sessionService: new InMemorySessionService(), ...init });

  it("answer from the run's cancellation when it made the context's signal, for the context and every agent's copy of it", () => {
    const cancellation = new RunCancellation();
    const context = make({ cancellation });
    const copy = forAgent(context, new LlmAgent({ name: "other" }));
    expect(context.abortSignal).toBe(cancellation.signal);
    expect(invocationCancellation(context)).toBe(cancellation);
    expect(invocationCancellation(copy)).toBe(cancellation);
    expect([invocationAborted(context), invocationAborted(copy)]).toEqual([false, false]);
    cancellation.abort("stopped");
    expect([invocationAborted(context), invocationAborted(copy), context.abortSignal.aborted]).toEqual([true, true, true]);
  });

  it("answer from the signal when the context was given a signal of its own, or a copy swapped it", () => {
    const controller = new AbortController();
    const given = make({ abortSignal: controller.signal });
    expect(invocationCancellation(given)).toBeUndefined();
    const made = make({});
    const swapped = made.clone({ abortSignal: controller.signal });
    // The copy keeps the memo (and its cancellation) but not its signal: the cancellation no longer answers for it.
    expect(invocationCancellation(made)).toBeDefined();
    expect(invocationCancellation(swapped)).toBeUndefined();
    controller.abort("caller");
    expect([invocationAborted(given), invocationAborted(swapped), invocationAborted(made)]).toEqual([true, true, false]);
    // A context built by hand (a plain object, which the types no longer allow), without a memo, reads its signal.
    const byHand = { ...made, memo: undefined, abortSignal: made.abortSignal } as unknown as InvocationContext;
    invocationCancellation(made)!.abort("run");
    expect(invocationAborted(byHand)).toBe(true);
  });
});

describe("forAgent", () => {
  it("runs another agent in the same invocation: same id, counters and end flag, the branch kept unless given", () => {
    const context = createInvocationContext({ agent: plainAgent, session, sessionService: new InMemorySessionService(), branch: "root" });
    const other = new LlmAgent({ name: "other" });
    const same = forAgent(context, other);
    const branched = forAgent(context, other, "root.other");
    expect(same.agent).toBe(other);
    expect(same.invocationId).toBe(context.invocationId);
    expect(same.counters).toBe(context.counters);
    expect(same.branch).toBe("root");
    expect(branched.branch).toBe("root.other");
    expect(context.agent).toBe(plainAgent);
    // One end flag for the invocation: set on the sub-agent's copy, the parent's context reads it too.
    expect(same.endInvocation).toBe(false);
    same.endInvocation = true;
    expect(context.endInvocation).toBe(true);
    expect(branched.endInvocation).toBe(true);
  });

  it("shares the end flag also once the run's signal was made (copies by spread)", () => {
    const context = createInvocationContext({ agent: plainAgent, session, sessionService: new InMemorySessionService() });
    expect(context.abortSignal.aborted).toBe(false);
    const copy = forAgent(context, new LlmAgent({ name: "other" }));
    copy.endInvocation = true;
    expect(context.endInvocation).toBe(true);
  });

  it("shares the end flag and the run's signal with a copy made ADK's way, new InvocationContext({ ...context, agent }), or by clone", () => {
    const context = createInvocationContext({ agent: plainAgent, session, sessionService: new InMemorySessionService() });
    const other = new LlmAgent({ name: "other" });
    const adkWay = new InvocationContext({ ...context, agent: other });
    const cloned = context.clone({ branch: "root.other" });
    expect([adkWay.agent, adkWay.invocationId, adkWay.counters, cloned.branch, cloned.agent]).toEqual([other, context.invocationId, context.counters, "root.other", plainAgent]);
    // The spread did not read the run's signal (an accessor of the class), so it is still unmade, and all three hand out the same one.
    expect(invocationCancellation(context)!.hasSignal).toBe(false);
    expect([adkWay.abortSignal, cloned.abortSignal]).toEqual([context.abortSignal, context.abortSignal]);
    cloned.endInvocation = true;
    expect([context.endInvocation, adkWay.endInvocation]).toEqual([true, true]);
  });
});

describe("Runner", () => {
  async function start(agent: LlmAgent | SequentialAgent) {
    const runner = new Runner({ appName: "app", agent });
    const created = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const say = (text: string) => collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: userMessage(text) }));
    const stored = async () => (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: created.id }))!;
    return { runner, sessionId: created.id, say, stored };
  }

  it("runs twelve nested runs a tool fans out under its signal with one listener on that signal and no listener-leak warning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      let listenersWhileFannedOut = -1;
      const fan = new FunctionTool({
        name: "fan",
        description: "Asks twelve helpers at once.",
        execute: async (_args, context) => {
          const answers = Array.from({ length: 12 }, async (_, index) => {
            const helper = new InMemoryRunner({ agent: new LlmAgent({ name: `helper_${index}`, model: new ScriptedModel([async () => (await sleep(20), textResponse(`helper ${index}`))]) }) });
            const session = await helper.sessionService.createSession({ appName: helper.appName, userId: "u" });
            const events = await collect(helper.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("help"), abortSignal: context.abortSignal }));
            return events.at(-1)?.content?.parts?.[0]?.text;
          });
          await sleep(5);
          listenersWhileFannedOut = getEventListeners(context.abortSignal, "abort").length;
          return { answers: await Promise.all(answers) };
        },
      });
      const { say } = await start(new LlmAgent({ name: "a", model: new ScriptedModel([functionCallsResponse({ name: "fan", args: {} }), textResponse("done")]), tools: [fan] }));
      const events = await say("go");
      await new Promise((resolve) => setImmediate(resolve));
      expect(events[1]!.content!.parts![0]!.functionResponse!.response).toEqual({ answers: Array.from({ length: 12 }, (_, index) => `helper ${index}`) });
      expect(listenersWhileFannedOut).toBe(1);
      expect(warnings.filter((name) => name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("refuses a session that does not exist", async () => {
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "a", model: new ScriptedModel([]) }) });
    expect(runner.appName).toBe("InMemoryRunner");
    await expect(collect(runner.runAsync({ userId: "u", sessionId: "missing", newMessage: userMessage("hi") }))).rejects.toBeInstanceOf(SessionNotFoundError);
  });

  it("refuses a state change that is not JSON before storing anything", async () => {
    const model = new ScriptedModel([textResponse("never")]);
    const { runner, sessionId, stored } = await start(new LlmAgent({ name: "a", model }));
    await expect(collect(runner.runAsync({ userId: "u", sessionId, newMessage: userMessage("hi"), stateDelta: { when: new Date() } }))).rejects.toThrow(/when/);
    expect((await stored()).events).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });

  it("stores the user's message with its state change before the agent runs, and yields every event it stores", async () => {
    const model = new ScriptedModel([(request) => textResponse(`I see ${JSON.stringify(request.contents.at(-1)!.parts![0]!.text)}.`)]);
    const agent = new LlmAgent({ name: "a", model, instruction: "Mode {mode}." });
    const { runner, sessionId, stored } = await start(agent);
    const events = await collect(runner.runAsync({ userId: "u", sessionId, newMessage: userMessage("hi"), stateDelta: { mode: "terse" } }));
    const session = await stored();
    expect(withoutIdentity(model.requests[0]!.systemInstruction)).toBe("Mode terse.");
    expect(session.events.map((event) => event.author)).toEqual(["user", "a"]);
    expect(session.events[0]!.actions.stateDelta).toEqual({ mode: "terse" });
    expect(session.events.slice(1).map((event) => event.id)).toEqual(events.map((event) => event.id));
    expect(new Set(session.events.map((event) => event.invocationId)).size).toBe(1);
  });

  it("lets the agent continue without a new message, storing no user event", async () => {
    const model = new ScriptedModel([textResponse("first"), textResponse("continued")]);
    const { runner, sessionId, say, stored } = await start(new LlmAgent({ name: "a", model }));
    await say("hi");
    const events = await collect(runner.runAsync({ userId: "u", sessionId }));
    expect(events.map((event) => event.content!.parts![0]!.text)).toEqual(["continued"]);
    expect((await stored()).events.map((event) => event.author)).toEqual(["user", "a", "a"]);
  });

  it("sends the next message back to the root when the agent that answered may not hand back to its parent", async () => {
    const rootModel = new ScriptedModel([functionCallsResponse({ name: "transfer_to_agent", args: { agent_name: "kiosk" } }), textResponse("Root again.")]);
    const kiosk = new LlmAgent({ name: "kiosk", model: new ScriptedModel([textResponse("Kiosk here.")]), disallowTransferToParent: true });
    const { say } = await start(new LlmAgent({ name: "root", model: rootModel, subAgents: [kiosk] }));
    expect((await say("hi")).at(-1)!.author).toBe("kiosk");
    expect((await say("again")).map((event) => event.author)).toEqual(["root"]);
  });

  it("starts a workflow agent from the top each time, not at the child that answered last", async () => {
    const first = new LlmAgent({ name: "first", model: new ScriptedModel([textResponse("one"), textResponse("three")]) });
    const second = new LlmAgent({ name: "second", model: new ScriptedModel([textResponse("two"), textResponse("four")]) });
    const { say } = await start(new SequentialAgent({ name: "pipeline", subAgents: [first, second] }));
    expect((await say("go")).map((event) => event.author)).toEqual(["first", "second"]);
    expect((await say("again")).map((event) => event.author)).toEqual(["first", "second"]);
  });

  it("passes the run settings to the loop: past maxLlmCalls the stored history ends with the error event", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "again", args: {} }), functionCallsResponse({ name: "again", args: {} })]);
    const { runner, sessionId, stored } = await start(new LlmAgent({ name: "a", model, tools: [tool("again", () => ({}))] }));
    const events = await collect(runner.runAsync({ userId: "u", sessionId, newMessage: userMessage("go"), runConfig: { maxLlmCalls: 1 } }));
    expect(events.at(-1)!.errorCode).toBe("LLM_CALLS_LIMIT_EXCEEDED");
    expect((await stored()).events.at(-1)!.errorCode).toBe("LLM_CALLS_LIMIT_EXCEEDED");
    expect(model.remainingSteps).toBe(1);
  });

  it("aborts the tools still running when the caller stops reading", async () => {
    let aborted: unknown;
    const watcher = tool("watcher", async (_args, context) => {
      context.abortSignal.addEventListener("abort", () => (aborted = context.abortSignal.reason));
      await context.reportProgress({ progress: 0 });
      await sleep(200);
      return {};
    });
    const model = new ScriptedModel([functionCallsResponse({ name: "watcher", args: {} })]);
    const { runner, sessionId } = await start(new LlmAgent({ name: "a", model, tools: [watcher] }));
    for await (const event of runner.runAsync({ userId: "u", sessionId, newMessage: userMessage("go") })) {
      if (event.partial) break;
    }
    expect(aborted).toBeInstanceOf(Error);
    expect((aborted as Error).message).toBe("The run was stopped by its caller.");
  });

  it("closes a streaming model's response when the caller stops reading at a partial event, and stores no answer", async () => {
    let chunksRead = 0;
    let closed = false;
    let signalOnClose: AbortSignal | undefined;
    const model = {
      name: "streaming",
      async *generateContent(_request: unknown, options: { abortSignal?: AbortSignal }) {
        try {
          for (let index = 0; index < 1_000; index++) {
            chunksRead++;
            yield { partial: true, content: { role: "model" as const, parts: [{ text: `chunk ${index} ` }] } };
            await sleep(1);
          }
          yield textResponse("never reached");
        } finally {
          closed = true;
          signalOnClose = options.abortSignal;
        }
      },
    };
    const { runner, sessionId } = await start(new LlmAgent({ name: "a", model }));
    for await (const event of runner.runAsync({ userId: "u", sessionId, newMessage: userMessage("go"), runConfig: { streamingMode: "sse" } })) {
      if (event.partial) break;
    }
    for (let wait = 0; wait < 100 && !closed; wait++) await sleep(5);
    expect(closed).toBe(true);
    expect(signalOnClose?.aborted).toBe(true);
    expect(chunksRead).toBeLessThan(5);
    const stored = await runner.sessionService.getSession({ appName: runner.appName, userId: "u", sessionId });
    expect(stored!.events.map((event) => event.author)).toEqual(["user"]);
  });
});
