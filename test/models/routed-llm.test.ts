import { describe, expect, it } from "vitest";
import { InMemoryRunner, LlmAgent, RoutedLlm, type LlmRequest, type LlmResponse, type Model } from "../../src/index.js";
import { refusal } from "../support/refusal.js";
import { ScriptedModel, textResponse } from "../../src/testing/index.js";

/** `RoutedLlm` on its own: what it refuses, when it fails over and when it must not. */

/** A model that yields `before` responses and then throws, counting its calls. */
function failing(name: string, before: LlmResponse[] = [], error = new Error(`${name} is down`)) {
  const model = {
    name,
    calls: 0,
    async *generateContent() {
      model.calls++;
      for (const response of before) yield response;
      throw error;
    },
  };
  return model;
}

async function answerOf(model: Model, options: { stream?: boolean; abortSignal?: AbortSignal } = {}) {
  const responses: LlmResponse[] = [];
  const request: LlmRequest = { contents: [{ role: "user", parts: [{ text: "hi" }] }], tools: [] } as unknown as LlmRequest;
  for await (const response of model.generateContent(request, { stream: options.stream ?? false, abortSignal: options.abortSignal })) responses.push(response);
  return responses;
}


describe("RoutedLlm", () => {
  it("refuses to be made without models, without a router, with something that is not a model, or with an option it does not have", () => {
    const ok = new ScriptedModel([]);
    expect(refusal(() => new RoutedLlm({ models: [], router: () => "x" }))).toEqual({ code: "INVALID_ROUTING", message: "RoutedLlm needs at least one model to route to." });
    expect(refusal(() => new RoutedLlm({ models: [ok], router: undefined as never }))).toEqual({ code: "INVALID_ROUTING", message: "RoutedLlm needs a router: a function that returns the key of the model to use." });
    expect(refusal(() => new RoutedLlm({ models: { a: "gemini-2.5-flash" as never }, router: () => "a" }))).toEqual({ code: "INVALID_ROUTING", message: 'RoutedLlm\'s model "a" is not a model: give BaseLlm instances or toolsmith models.' });
    expect(refusal(() => new RoutedLlm({ models: [ok], router: () => "x", fallback: "y" } as never))).toEqual({ code: "UNSUPPORTED_OPTION", message: 'RoutedLlm has no option "fallback": it takes models, router, modelName. Check its spelling.' });
  });

  it("does not fail over once the picked model has begun to answer: the error stands", async () => {
    const partial = failing("streamer", [{ content: { role: "model", parts: [{ text: "Once" }] }, partial: true }]);
    const spare = new ScriptedModel([textResponse("never")]);
    const routed = new RoutedLlm({ models: { streamer: partial, spare }, router: (_models, _request, failure) => (failure ? "spare" : "streamer") });
    await expect(answerOf(routed, { stream: true })).rejects.toThrow("streamer is down");
    expect(spare.requests).toHaveLength(0);
  });

  it("does not fail over a call the caller cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    const spare = new ScriptedModel([textResponse("never")]);
    const routed = new RoutedLlm({ models: { down: failing("down"), spare }, router: (_models, _request, failure) => (failure ? "spare" : "down") });
    await expect(answerOf(routed, { abortSignal: controller.signal })).rejects.toThrow("down is down");
    expect(spare.requests).toHaveLength(0);
  });

  it("tries each model at most once, however the router answers, and ends the agent's turn with the last error as an error event", async () => {
    const models = { a: failing("a"), b: failing("b"), c: failing("c") };
    const order = ["a", "b", "a", "c"];
    const routed = new RoutedLlm({ models, router: () => order.shift() });
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "assistant", model: routed, instruction: "Help." }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = [];
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "hi" }] } })) events.push(event);
    expect([models.a.calls, models.b.calls, models.c.calls]).toEqual([1, 1, 0]);
    expect(events.map((event) => [event.errorCode, event.errorMessage])).toEqual([["MODEL_ERROR", expect.stringContaining("b is down")]]);
  });

  it("refuses a key that is none of its models, naming them", async () => {
    const routed = new RoutedLlm({ models: [new ScriptedModel([])], router: () => "gpt-9" });
    await expect(answerOf(routed)).rejects.toThrow(/the router picked "gpt-9", which is none of its models \(scripted-model\)/);
    const none = new RoutedLlm({ models: [new ScriptedModel([])], router: () => undefined });
    await expect(answerOf(none)).rejects.toThrow(/the router picked no model for the request/);
  });
});
