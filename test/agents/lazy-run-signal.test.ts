/**
 * A run's `AbortSignal` is made when something first reads it (Node 20 takes about 2.4 µs to make one, a third of a
 * model turn): the invocation context's `abortSignal`, a tool context's and a model call's options all hand out the
 * same signal, made at the first read, aborted when the run is, even when it is read after the abort. Code of the
 * run's own (the loop, the scripted model) asks the cancellation instead and makes none.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Context, FunctionTool, InMemorySessionService, LlmAgent, Runner, type GenerateContentOptions, InvocationContext, type LlmRequest, type LlmResponse, type Model } from "../../src/index.js";
import { callOptionsWithLazySignal, RunCancellation, signalAborted } from "../../src/agents/run-cancellation.js";
import { createInvocationContext, deriveInvocationContext, forAgent, invocationAborted, invocationCancellation } from "../../src/agents/invocation-context.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

/** Counts the AbortSignals made while a test runs: every one comes from an AbortController's `signal`. */
let signalsMade = 0;
const NodeAbortController = globalThis.AbortController;
beforeEach(() => {
  signalsMade = 0;
  globalThis.AbortController = class CountingAbortController extends NodeAbortController {
    #counted = false;
    override get signal(): AbortSignal {
      if (!this.#counted) signalsMade++;
      this.#counted = true;
      return super.signal;
    }
  };
});
afterEach(() => {
  globalThis.AbortController = NodeAbortController;
});

async function runTurn(agent: LlmAgent, abortSignal?: AbortSignal) {
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: "app", agent, sessionService });
  const session = await sessionService.createSession({ appName: "app", userId: "u" });
  return collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go"), abortSignal }));
}

function contextFor(cancellation = new RunCancellation()): InvocationContext {
  const agent = new LlmAgent({ name: "root", model: new ScriptedModel([]) });
  const sessionService = new InMemorySessionService();
  return createInvocationContext({ agent, sessionService, session: { id: "s", appName: "app", userId: "u", state: {}, events: [], lastUpdateTime: 0 }, cancellation });
}

describe("a run's signal, made when first read", () => {
  it("is never made by a run whose model and tools do not read it", async () => {
    const echo = new FunctionTool({ name: "echo", description: "Echoes.", parameters: z.object({ i: z.number() }), execute: ({ i }) => ({ i }) });
    const model = new ScriptedModel([functionCallsResponse({ name: "echo", args: { i: 1 } }), textResponse("done")]);
    const events = await runTurn(new LlmAgent({ name: "a", model, tools: [echo] }));
    expect(events.map((event) => event.content?.parts?.[0]?.text ?? Object.keys(event.content?.parts?.[0] ?? {})[0])).toEqual(["functionCall", "functionResponse", "done"]);
    expect(signalsMade).toBe(0);
  });

  it("is one signal for the tool context, the invocation context and the model call, made once, and fires when the caller aborts", async () => {
    const caller = new AbortController();
    const seen: { tool?: AbortSignal; invocation?: AbortSignal; model: AbortSignal[]; afterAbort?: [boolean, unknown] } = { model: [] };
    const reason = new Error("the user closed the page");
    const waits = new FunctionTool({
      name: "waits",
      description: "Waits until the run is cancelled.",
      parameters: z.object({}),
      execute: (_args, context) => {
        seen.tool = context.abortSignal;
        seen.invocation = context.invocationContext.abortSignal;
        caller.abort(reason);
        seen.afterAbort = [context.abortSignal.aborted, context.abortSignal.reason];
        return {};
      },
    });
    const readingModel: Model = {
      name: "reads-its-signal",
      async *generateContent(_request: LlmRequest, options: GenerateContentOptions): AsyncGenerator<LlmResponse> {
        seen.model.push(options.abortSignal!);
        yield functionCallsResponse({ name: "waits", args: {} });
      },
    };
    await runTurn(new LlmAgent({ name: "a", model: readingModel, tools: [waits] }), caller.signal);
    signalsMade -= 1; // the caller's own
    expect(seen.model).toHaveLength(1);
    expect(seen.tool).toBe(seen.model[0]);
    expect(seen.invocation).toBe(seen.model[0]);
    expect(signalsMade).toBe(1);
    expect(seen.tool!.aborted).toBe(true);
    expect(seen.tool!.reason).toBe(reason);
    // The tool saw the abort at once, on the signal it held before the abort.
    expect(seen.afterAbort).toEqual([true, reason]);
  });

  it("is made already aborted, with the run's reason, when first read after the abort", () => {
    const cancellation = new RunCancellation();
    const context = contextFor(cancellation);
    cancellation.abort("stopped before anyone looked");
    expect(signalsMade).toBe(0);
    expect(invocationAborted(context)).toBe(true);
    expect(context.abortSignal.aborted).toBe(true);
    expect(context.abortSignal.reason).toBe("stopped before anyone looked");
    expect(context.abortSignal).toBe(cancellation.signal);
    expect(signalsMade).toBe(1);
  });

  it("gives an abort without a reason the AbortError Node gives, on the signal and to callbacks alike, read before or after", () => {
    const early = new RunCancellation();
    const earlySignal = early.signal;
    const heard: unknown[] = [];
    early.onAbort((reason) => heard.push(reason));
    early.abort();
    const late = new RunCancellation();
    late.abort();
    // Heard after the abort, before anything made the signal: the reason the signal is then made with.
    let lateReason: unknown;
    late.onAbort((reason) => (lateReason = reason));
    expect(late.hasSignal).toBe(false);
    for (const reason of [earlySignal.reason, heard[0], lateReason, late.signal.reason]) {
      expect(reason).toBeInstanceOf(DOMException);
      expect((reason as DOMException).name).toBe("AbortError");
    }
    expect(heard[0]).toBe(earlySignal.reason);
    expect(late.signal.reason).toBe(lateReason);
  });
});

describe("invocation contexts with a lazy signal", () => {
  it("are copied for another agent or trace scope without making the signal, and the copy hands out the same one", () => {
    const context = contextFor();
    const child = new LlmAgent({ name: "child", model: new ScriptedModel([]) });
    const copy = forAgent(context, child, "root.child");
    const deeper = deriveInvocationContext(copy, { historyRoot: "root.child" });
    expect([copy.agent.name, copy.branch, deeper.historyRoot, deeper.invocationId]).toEqual(["child", "root.child", "root.child", context.invocationId]);
    expect(deeper.counters).toBe(context.counters);
    expect(signalsMade).toBe(0);
    expect(deeper.abortSignal).toBe(context.abortSignal);
    expect(copy.abortSignal).toBe(context.abortSignal);
    expect(signalsMade).toBe(1);
  });

  it("are copied ADK's way, new InvocationContext({ ...context, branch }), without making the signal, and the copy follows the run", () => {
    const cancellation = new RunCancellation();
    const context = contextFor(cancellation);
    // The signal is an accessor of the class, not a key: a spread does not read it.
    expect(Object.keys(context)).not.toContain("abortSignal");
    const copy = new InvocationContext({ ...context, branch: "mine" });
    expect(signalsMade).toBe(0);
    expect(invocationCancellation(copy)).toBe(cancellation);
    cancellation.abort("over");
    expect(invocationAborted(copy)).toBe(true);
    expect(copy.abortSignal.reason).toBe("over");
    expect(copy.abortSignal).toBe(context.abortSignal);
  });

  it("refuse a field the class does not have when a context made by hand is copied, rather than drop it", () => {
    const cancellation = new RunCancellation();
    const context = contextFor(cancellation);
    const handMade = { ...context, tenant: "acme" } as unknown as InvocationContext;
    const child = new LlmAgent({ name: "child", model: new ScriptedModel([]) });
    expect(() => forAgent(handMade, child)).toThrow('InvocationContext has no option "tenant"');
    expect(() => context.clone({ tenant: "acme" } as never)).toThrow('InvocationContext has no option "tenant"');
    // A copy of the class's own fields is taken as it is.
    expect(forAgent({ ...context } as unknown as InvocationContext, child).abortSignal).toBe(cancellation.signal);
  });

  it("follow a signal of the caller's own put in a copy, not the run's, and pass it on to copies of the copy", () => {
    const cancellation = new RunCancellation();
    const context = contextFor(cancellation);
    const own = new NodeAbortController();
    const copy = context.clone({ abortSignal: own.signal });
    expect(invocationCancellation(copy)).toBeUndefined();
    cancellation.abort("the run's");
    expect(invocationAborted(copy)).toBe(false);
    own.abort("mine");
    expect(invocationAborted(copy)).toBe(true);
    // Derived from the copy, by toolsmith or ADK's way, the caller's signal is kept.
    expect(forAgent(copy, context.agent).abortSignal).toBe(own.signal);
    expect(new InvocationContext({ ...copy, branch: "b" }).abortSignal).toBe(own.signal);
  });

  it("keep a caller's signal as it is when the context is made with one", () => {
    const own = new NodeAbortController();
    const agent = new LlmAgent({ name: "root", model: new ScriptedModel([]) });
    const context = createInvocationContext({ agent, sessionService: new InMemorySessionService(), session: { id: "s", appName: "app", userId: "u", state: {}, events: [], lastUpdateTime: 0 }, abortSignal: own.signal });
    expect(context.abortSignal).toBe(own.signal);
    expect(invocationCancellation(context)).toBeUndefined();
    own.abort("stop");
    expect(invocationAborted(context)).toBe(true);
  });
});

describe("tool contexts", () => {
  it("hand out the signal they were given (a deadline's), else the invocation's, read only when asked", () => {
    const cancellation = new RunCancellation();
    const invocation = contextFor(cancellation);
    const plain = new Context({ invocation, functionCallId: "c1" });
    expect(signalsMade).toBe(0);
    expect(plain.abortSignal).toBe(cancellation.signal);
    const deadline = new RunCancellation(cancellation);
    const timed = new Context({ invocation, functionCallId: "c2", abortSignal: deadline.signal });
    expect(timed.abortSignal).toBe(deadline.signal);
    deadline.abort("too slow");
    expect([timed.abortSignal.aborted, plain.abortSignal.aborted]).toEqual([true, false]);
  });
});

describe("model call options with a lazy signal", () => {
  it("are asked whether the run was aborted without making the signal, and a copy by spread keeps the signal", () => {
    const cancellation = new RunCancellation();
    const options = callOptionsWithLazySignal(false, cancellation);
    expect(Object.keys(options)).toEqual(["stream", "abortSignal"]);
    expect(signalAborted(options)).toBe(false);
    cancellation.abort("cancelled");
    expect(signalAborted(options)).toBe(true);
    expect(signalsMade).toBe(0);
    // A model wrapping another passes a copy on: the copy holds the (aborted) signal itself.
    const passedOn: GenerateContentOptions = { ...options, stream: true };
    expect(passedOn.abortSignal).toBe(cancellation.signal);
    expect(signalAborted(passedOn)).toBe(true);
    const withoutSignal: GenerateContentOptions = { stream: false };
    expect(signalAborted(withoutSignal)).toBe(false);
  });

  it("stop the scripted model once the run is cancelled, with the run's reason", async () => {
    const cancellation = new RunCancellation();
    const model = new ScriptedModel([textResponse("never")]);
    cancellation.abort(new Error("cancelled by the caller"));
    const request: LlmRequest = { contents: [userMessage("hi")], systemInstruction: "", functionDeclarations: [], config: {} };
    await expect(collect(model.generateContent(request, callOptionsWithLazySignal(false, cancellation)))).rejects.toThrow("cancelled by the caller");
  });
});
