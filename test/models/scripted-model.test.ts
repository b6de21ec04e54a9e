/** ScriptedModel (toolsmith/testing) played directly: what each kind of step gives, and how a cancelled call ends. */
import { describe, expect, it } from "vitest";
import type { LlmRequest, LlmResponse } from "../../src/index.js";
import { createLlmRequest } from "../../src/models/llm-request.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse } from "../../src/testing/index.js";

const request = (): LlmRequest => createLlmRequest({ model: "scripted", contents: [{ role: "user", parts: [{ text: "hi" }] }] });
const play = (model: ScriptedModel, options: { stream?: boolean; abortSignal?: AbortSignal } = {}) => collect(model.generateContent(request(), { stream: options.stream ?? false, abortSignal: options.abortSignal }));

describe("ScriptedModel", () => {
  it("answers each call with its next step, a copy the loop may change without changing the script", async () => {
    const scripted = functionCallsResponse({ name: "echo", args: { i: 1 } });
    const model = new ScriptedModel([scripted, textResponse("done")]);
    const [first] = await play(model);
    first!.content!.parts![0]!.functionCall!.id = "given-by-the-loop";
    expect(scripted.content!.parts![0]!.functionCall).toEqual({ name: "echo", args: { i: 1 } });
    expect(await play(model)).toEqual([textResponse("done")]);
    model.assertComplete();
  });

  it("copies a __proto__ key in a step as data, as JSON.parse makes it from a real model's answer, never as the copy's prototype", async () => {
    // Assigned, the key became the copy's prototype: the run then met other arguments than a real model sends, and the argument fuzz never tried the key it listed.
    const args = JSON.parse('{"a": 1, "__proto__": {"polluted": true}}') as Record<string, unknown>;
    const model = new ScriptedModel([functionCallsResponse({ name: "echo", args }), [functionCallsResponse({ name: "echo", args })]]);
    for (const options of [{}, { stream: true }]) {
      const responses = await play(model, options);
      const played = responses.at(-1)!.content!.parts![0]!.functionCall!.args!;
      expect(Object.getPrototypeOf(played)).toBe(Object.prototype);
      expect(Object.keys(played)).toEqual(["a", "__proto__"]);
      expect((played as { polluted?: unknown }).polluted).toBeUndefined();
      expect(JSON.stringify(played)).toBe('{"a":1,"__proto__":{"polluted":true}}');
    }
  });

  it("plays a function step with the request it was given, and throws an Error step", async () => {
    const seen: string[] = [];
    const model = new ScriptedModel([(given) => (seen.push(given.contents[0]!.parts![0]!.text!), textResponse("from a function")), new Error("the model is down")]);
    expect(await play(model)).toEqual([textResponse("from a function")]);
    expect(seen).toEqual(["hi"]);
    await expect(play(model)).rejects.toThrow("the model is down");
  });

  it("streams chunks as partial responses, then the whole, when the call streams; only the whole when it does not", async () => {
    const chunks: LlmResponse[] = [textResponse("Hel"), textResponse("lo")];
    const streamed = await play(new ScriptedModel([chunks]), { stream: true });
    expect(streamed.map((response) => [response.partial ?? false, response.content?.parts?.[0]?.text])).toEqual([
      [true, "Hel"],
      [true, "lo"],
      [false, "Hello"],
    ]);
    expect(await play(new ScriptedModel([chunks]))).toEqual([{ content: { role: "model", parts: [{ text: "Hello" }] } }]);
  });

  it("throws the abort reason instead of answering a call cancelled before it, whatever the step", async () => {
    const cancelled = new AbortController();
    const reason = new Error("the caller stopped");
    cancelled.abort(reason);
    for (const step of [textResponse("never"), () => textResponse("never"), [textResponse("nev"), textResponse("er")]]) {
      await expect(play(new ScriptedModel([step]), { abortSignal: cancelled.signal })).rejects.toBe(reason);
    }
  });

  it("records each request as it was at the call, and says which call found no step left", async () => {
    const model = new ScriptedModel([textResponse("one")]);
    const sent = request();
    await collect(model.generateContent(sent, { stream: false }));
    sent.contents.push({ role: "user", parts: [{ text: "added later" }] });
    expect(model.requests[0]!.contents).toHaveLength(1);
    await expect(play(model)).rejects.toMatchObject({ code: "SCRIPT_EXHAUSTED", message: "ScriptedModel received request 2 but has no step left. Add a step for it." });
  });
});
