/** callModel and runCallbacks on their own, beside request-and-model-call.test.ts: error codes, callbacks' answers and state, what the model is given. */
import { describe, expect, it } from "vitest";
import { CallbackContext } from "../../src/agents/callback-context.js";
import { callModel, streamModelCall } from "../../src/llm-agent/call-model.js";
import { runCallbacks } from "../../src/llm-agent/callbacks.js";
import { LlmAgent } from "../../src/llm-agent/llm-agent.js";
import type { LlmRequest } from "../../src/models/llm-request.js";
import type { LlmResponse } from "../../src/models/llm-response.js";
import type { Model } from "../../src/models/model.js";
import { ScriptedModel, textResponse } from "../../src/testing/index.js";
import { invocationFor, modelCallEvents, textOf } from "./fixtures.js";

const request = (): LlmRequest => ({ contents: [{ role: "user", parts: [{ text: "hi" }] }], systemInstruction: "Be brief.", functionDeclarations: [], config: {} });

describe("callModel", () => {
  it("carries the model's usage and finish reason and the invocation's branch onto the event, and counts the call", async () => {
    const model = new ScriptedModel([{ ...textResponse("Hello."), usageMetadata: { totalTokenCount: 7 }, finishReason: "STOP" }]);
    const agent = new LlmAgent({ name: "greeter", model });
    const context = await invocationFor(agent, { branch: "root.greeter" });
    const events = await modelCallEvents(callModel(agent, context, model, request()));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ author: "greeter", invocationId: context.invocationId, branch: "root.greeter", usageMetadata: { totalTokenCount: 7 }, finishReason: "STOP" });
    expect(textOf(events[0])).toBe("Hello.");
    expect(events[0]!.partial).toBeUndefined();
    expect(context.counters.llmCalls).toBe(1);
    expect(model.requests[0]!.systemInstruction).toBe("Be brief.");
  });

  it("runs no after-model callback on a before-model callback's answer", async () => {
    const model = new ScriptedModel([]);
    let afterRan = false;
    const agent = new LlmAgent({
      name: "cached",
      model,
      beforeModelCallback: () => textResponse("From the cache."),
      afterModelCallback: () => {
        afterRan = true;
        return undefined;
      },
    });
    const events = await modelCallEvents(callModel(agent, await invocationFor(agent), model, request()));
    expect(textOf(events[0])).toBe("From the cache.");
    expect(model.requests).toHaveLength(0);
    expect(afterRan).toBe(false);
  });

  it("keeps a toolsmith error's own code on the error event", async () => {
    const model = new ScriptedModel([]); // exhausted: throws ScriptError SCRIPT_EXHAUSTED
    const agent = new LlmAgent({ name: "fragile", model });
    const [failed] = await modelCallEvents(callModel(agent, await invocationFor(agent), model, request()));
    expect(failed).toMatchObject({ errorCode: "SCRIPT_EXHAUSTED", errorMessage: expect.stringContaining("no step left") });
  });

  it("turns a thrown non-Error into an error event too", async () => {
    const model: Model = {
      name: "odd",
      // eslint-disable-next-line require-yield
      async *generateContent() {
        throw "plain string failure";
      },
    };
    const agent = new LlmAgent({ name: "fragile", model });
    const [failed] = await modelCallEvents(callModel(agent, await invocationFor(agent), model, request()));
    expect(failed).toMatchObject({ errorCode: "MODEL_ERROR", errorMessage: "plain string failure" });
  });

  it("lets an on-model-error callback answer for the failed call, and passes that answer through after-model callbacks", async () => {
    const model = new ScriptedModel([new Error("timeout")]);
    const errors: string[] = [];
    const agent = new LlmAgent({
      name: "resilient",
      model,
      onModelErrorCallback: ({ error, request }) => {
        errors.push(`${error.message} / ${request.systemInstruction}`);
        return textResponse("Sorry, try again later.");
      },
      afterModelCallback: ({ response }) => ({ ...response, customMetadata: { checked: true } }),
    });
    const [answer] = await modelCallEvents(callModel(agent, await invocationFor(agent), model, request()));
    expect(errors).toEqual(["timeout / Be brief."]);
    expect(textOf(answer)).toBe("Sorry, try again later.");
    expect(answer!.errorCode).toBeUndefined();
    expect(answer!.customMetadata).toEqual({ checked: true });
  });

  it("gives after-model callbacks the error when the call failed and no on-model-error callback answered, and lets them replace the error event (seed 001)", async () => {
    const seen: string[] = [];
    const failingModel = new ScriptedModel([new Error("overloaded"), new Error("overloaded")]);
    const replacing = new LlmAgent({
      name: "fallback",
      model: failingModel,
      afterModelCallback: ({ response, error }) => {
        seen.push(`${error?.message} / ${response.errorCode}`);
        return error ? textResponse("The model is busy; please try again in a minute.") : undefined;
      },
    });
    const [answer] = await modelCallEvents(callModel(replacing, await invocationFor(replacing), failingModel, request()));
    expect(seen).toEqual(["overloaded / MODEL_ERROR"]);
    expect(textOf(answer)).toBe("The model is busy; please try again in a minute.");
    expect(answer!.errorCode).toBeUndefined();
    const passing = new LlmAgent({ name: "observer", model: failingModel, afterModelCallback: () => undefined });
    const [failed] = await modelCallEvents(callModel(passing, await invocationFor(passing), failingModel, request()));
    expect(failed).toMatchObject({ errorCode: "MODEL_ERROR", errorMessage: "overloaded" });
  });

  it("yields an error event when the model streams chunks but never a complete response", async () => {
    const model: Model = {
      name: "silent",
      async *generateContent() {
        yield { partial: true, content: { role: "model", parts: [{ text: "half" }] } } satisfies LlmResponse;
      },
    };
    const agent = new LlmAgent({ name: "quiet", model });
    const events = await modelCallEvents(callModel(agent, await invocationFor(agent), model, request()));
    expect(events).toEqual([expect.objectContaining({ errorCode: "MODEL_ERROR", errorMessage: 'Model "silent" ended its response without content.' })]);
  });

  it("records state that model callbacks write on the model event's actions", async () => {
    const model = new ScriptedModel([textResponse("ok")]);
    const agent = new LlmAgent({
      name: "counter",
      model,
      beforeModelCallback: ({ context }) => {
        context.state.set("calls", ((context.state.get("calls") as number | undefined) ?? 0) + 1);
        return undefined;
      },
      afterModelCallback: ({ context }) => {
        context.state.set("last_model", "scripted");
        return undefined;
      },
    });
    const context = await invocationFor(agent, { state: { calls: 4 } });
    const [answer] = await modelCallEvents(callModel(agent, context, model, request()));
    expect(answer!.actions.stateDelta).toEqual({ calls: 5, last_model: "scripted" });
    expect(context.session.state.calls).toBe(4); // the runner applies the delta when it stores the event
  });

  it("yields no error event for a model that fails because the run was cancelled", async () => {
    const failing = new ScriptedModel([new Error("socket closed")]);
    const aborted = new AbortController();
    aborted.abort();
    const agent = new LlmAgent({ name: "cancelled", model: failing });
    expect(await modelCallEvents(callModel(agent, await invocationFor(agent, { abortSignal: aborted.signal }), failing, request()))).toEqual([]);
  });

  it("passes the invocation's abort signal to the model, and asks it to stream only through streamModelCall", async () => {
    const seen: unknown[] = [];
    const model: Model = {
      name: "spy",
      async *generateContent(_request, options) {
        seen.push(options.stream, options.abortSignal);
        yield textResponse("ok");
      },
    };
    const agent = new LlmAgent({ name: "spied", model });
    const context = await invocationFor(agent, { runConfig: { streamingMode: "sse" } });
    await modelCallEvents(callModel(agent, context, model, request()));
    await modelCallEvents(streamModelCall(agent, context, model, request()));
    expect(seen).toEqual([false, context.abortSignal, true, context.abortSignal]);
  });
});

describe("runCallbacks", () => {
  it("returns undefined when there are no callbacks, or none answers", async () => {
    expect(await runCallbacks(undefined, {})).toBeUndefined();
    expect(await runCallbacks([() => undefined, async () => undefined], {})).toBeUndefined();
  });

  it("runs callbacks in order and stops at the first that answers, counting 0, '', false and null as answers", async () => {
    for (const answer of [0, "", false, null]) {
      const ran: string[] = [];
      const result = await runCallbacks<object, unknown>(
        [
          () => void ran.push("first"),
          async () => {
            ran.push("second");
            return answer;
          },
          () => {
            ran.push("third");
            return "late";
          },
        ],
        {},
      );
      expect(result).toBe(answer);
      expect(ran).toEqual(["first", "second"]);
    }
  });

  it("passes the same parameters to each callback and accepts a single callback", async () => {
    const params = { value: 2 };
    expect(await runCallbacks(({ value }: { value: number }) => value * 10, params)).toBe(20);
    const received: unknown[] = [];
    await runCallbacks(
      [(p: typeof params) => void received.push(p), (p: typeof params) => void received.push(p)],
      params,
    );
    expect(received).toEqual([params, params]);
  });

  it("lets a thrown error through to the caller", async () => {
    await expect(runCallbacks(() => { throw new Error("bad callback"); }, {})).rejects.toThrow("bad callback");
  });

  it("gives callbacks a context whose state writes land in its actions", async () => {
    const agent = new LlmAgent({ name: "a", model: new ScriptedModel([]) });
    const context = new CallbackContext(await invocationFor(agent));
    await runCallbacks((params: { context: CallbackContext }) => void params.context.state.set("seen", true), { context });
    expect(context.actions.stateDelta).toEqual({ seen: true });
  });
});
