import { describe, expect, it } from "vitest";
import { ConfigurationError, FunctionTool, State, InMemorySessionService, LlmAgent, Runner, StateValueError, getFunctionResponses } from "../../src/index.js";
import type { LlmAgentOptions } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { withoutIdentity } from "../support/identity.js";

const setState = new FunctionTool({
  name: "set_state",
  description: "Sets state.",
  parameters: { type: "object", properties: { key: { type: "string" }, value: {} }, required: ["key"] },
  execute: ({ key, value }, context) => {
    context.state.set(key as string, value);
    return { ok: true };
  },
});

async function start(options: Omit<LlmAgentOptions, "name">, sessionService = new InMemorySessionService(), userId = "u") {
  const agent = new LlmAgent({ name: "agent", ...options });
  const runner = new Runner({ appName: "app", agent, sessionService });
  const session = await sessionService.createSession({ appName: "app", userId });
  return { runner, session, run: (text = "go") => collect(runner.runAsync({ userId, sessionId: session.id, newMessage: userMessage(text) })) };
}

function setCyclicValue() {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  return new State({}, {}).set("loop", cyclic);
}

describe("state", () => {
  it("shares app: keys across the app, user: keys across the user's sessions, and never stores temp: keys", async () => {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel([
      functionCallsResponse(
        { name: "set_state", args: { key: "app:motd", value: "hello" } },
        { name: "set_state", args: { key: "user:tier", value: "gold" } },
        { name: "set_state", args: { key: "temp:scratch", value: 1 } },
        { name: "set_state", args: { key: "draft", value: "x" } },
      ),
      (request) => textResponse(`seen ${request.contents.length}`),
    ]);
    const first = await start({ model, tools: [setState] }, sessionService, "alice");
    const events = await first.run();
    // As in ADK, the caller gets the event as stored: without its temp: keys (they lasted for the invocation).
    expect(events[1]!.actions.stateDelta).toEqual({ "app:motd": "hello", "user:tier": "gold", draft: "x" });

    const again = await sessionService.getSession({ appName: "app", userId: "alice", sessionId: first.session.id });
    expect(again!.state).toEqual({ "app:motd": "hello", "user:tier": "gold", draft: "x" });
    expect(again!.events[2]!.actions.stateDelta).toEqual({ "app:motd": "hello", "user:tier": "gold", draft: "x" });

    const aliceOther = await sessionService.createSession({ appName: "app", userId: "alice" });
    expect(aliceOther.state).toEqual({ "app:motd": "hello", "user:tier": "gold" });
    const bob = await sessionService.createSession({ appName: "app", userId: "bob" });
    expect(bob.state).toEqual({ "app:motd": "hello" });
  });

  it("lets later steps of the same invocation read temp: keys", async () => {
    let seen: unknown;
    const read = new FunctionTool({ name: "read", description: "Reads.", execute: (_args, context) => (seen = context.state.get("temp:scratch")) });
    const model = new ScriptedModel([
      functionCallsResponse({ name: "set_state", args: { key: "temp:scratch", value: 7 } }),
      functionCallsResponse({ name: "read" }),
      textResponse("ok"),
    ]);
    const { run } = await start({ model, tools: [setState, read] });
    await run();
    expect(seen).toBe(7);
  });

  it("gives the tool an error result when it sets a value that is not JSON, and keeps none of its state changes", async () => {
    const bad = new FunctionTool({
      name: "bad",
      description: "Bad.",
      execute: (_args, context) => {
        context.state.set("ok_key", 1);
        context.state.set("when", new Map());
      },
    });
    const model = new ScriptedModel([functionCallsResponse({ name: "bad" }), textResponse("sorry")]);
    const { run, runner, session } = await start({ model, tools: [bad] });
    const events = await run();
    const [response] = getFunctionResponses(events[1]!.content);
    expect(response!.response!.error).toContain('State key "when" cannot be stored: is a Map, not a plain object');
    expect(events[1]!.actions.stateDelta).toEqual({});
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    expect(stored!.state).toEqual({});
    expect(() => setCyclicValue()).toThrow(StateValueError);
  });

  it("fills {key} and {key?} in the instruction from state and refuses a missing required key", async () => {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel([textResponse("ok")]);
    const agent = new LlmAgent({ name: "agent", model, instruction: 'Hi {user:name}, tier {tier?}. JSON: {"a": 1} {not a key}' });
    const runner = new Runner({ appName: "app", agent, sessionService });
    const session = await sessionService.createSession({ appName: "app", userId: "u", state: { "user:name": "Ada" } });
    await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("hi") }));
    expect(withoutIdentity(model.requests[0]!.systemInstruction)).toBe('Hi Ada, tier . JSON: {"a": 1} {not a key}');

    const strict = new LlmAgent({ name: "agent", model: new ScriptedModel([]), instruction: "Plan for {plan}" });
    const strictRunner = new Runner({ appName: "app", agent: strict, sessionService });
    const failed = await collect(strictRunner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("hi") }));
    expect(failed.at(-1)).toMatchObject({ errorCode: "MISSING_STATE_KEY", errorMessage: expect.stringMatching(/uses \{plan\}/) });
  });

  it("stores the final text under outputKey", async () => {
    const model = new ScriptedModel([textResponse("Paris is sunny.")]);
    const { run, runner, session } = await start({ model, outputKey: "summary" });
    await run();
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    expect(stored!.state.summary).toBe("Paris is sunny.");
  });
});

describe("callbacks", () => {
  it("skips the model when a before-model callback returns a response", async () => {
    const model = new ScriptedModel([]);
    const { run } = await start({ model, beforeModelCallback: () => textResponse("cached answer") });
    const events = await run();
    expect(events.at(-1)!.content!.parts![0]!.text).toBe("cached answer");
    expect(model.requests).toHaveLength(0);
  });

  it("runs callbacks in order until one returns a value, counting falsy values other than undefined", async () => {
    const calls: string[] = [];
    const tool = new FunctionTool({ name: "t", description: "t", execute: () => "real" });
    const model = new ScriptedModel([functionCallsResponse({ name: "t" }), textResponse("ok")]);
    const { run } = await start({
      model,
      tools: [tool],
      beforeToolCallback: [
        () => void calls.push("first"),
        () => {
          calls.push("second");
          return 0;
        },
        () => {
          calls.push("third");
          return { never: true };
        },
      ],
    });
    const events = await run();
    expect(calls).toEqual(["first", "second"]);
    expect(getFunctionResponses(events[1]!.content)[0]!.response).toEqual({ result: 0 });
  });

  it("replaces results with after-tool and after-model callbacks", async () => {
    const tool = new FunctionTool({ name: "t", description: "t", execute: () => ({ secret: "s3cr3t", value: 1 }) });
    const model = new ScriptedModel([functionCallsResponse({ name: "t" }), textResponse("raw")]);
    const { run } = await start({
      model,
      tools: [tool],
      afterToolCallback: ({ response }) => ({ ...response, secret: "[redacted]" }),
      afterModelCallback: ({ response }) => (response.content?.parts?.[0]?.text === "raw" ? textResponse("polished") : undefined),
    });
    const events = await run();
    expect(getFunctionResponses(events[1]!.content)[0]!.response).toEqual({ secret: "[redacted]", value: 1 });
    expect(events.at(-1)!.content!.parts![0]!.text).toBe("polished");
  });

  it("recovers from a tool error and a model error through on-error callbacks", async () => {
    const tool = new FunctionTool({ name: "t", description: "t", execute: () => { throw new Error("boom"); } });
    const model = new ScriptedModel([functionCallsResponse({ name: "t" }), new Error("503 from provider")]);
    const { run } = await start({
      model,
      tools: [tool],
      onToolErrorCallback: ({ error }) => ({ fallback: error.message }),
      onModelErrorCallback: ({ error }) => textResponse(`Model unavailable (${error.message}).`),
    });
    const events = await run();
    expect(getFunctionResponses(events[1]!.content)[0]!.response).toEqual({ fallback: "boom" });
    expect(events.at(-1)!.content!.parts![0]!.text).toBe("Model unavailable (503 from provider).");
  });

  it("ends the turn with an error event when the model fails and no callback answers, keeping the stored history", async () => {
    const model = new ScriptedModel([new Error("401 invalid API key")]);
    const { run, runner, session } = await start({ model });
    const events = await run("hello");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ errorCode: "MODEL_ERROR", errorMessage: "401 invalid API key" });
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    expect(stored!.events.map((event) => event.author)).toEqual(["user", "agent"]);
    expect(stored!.events[0]!.content!.parts![0]!.text).toBe("hello");
  });

  it("rejects two tools with the same name as a configuration error", () => {
    const one = new FunctionTool({ name: "same", description: "1", execute: () => 1 });
    const two = new FunctionTool({ name: "same", description: "2", execute: () => 2 });
    expect(() => new LlmAgent({ name: "agent", model: new ScriptedModel([]), tools: [one, two] })).toThrow(ConfigurationError);
    expect(() => new LlmAgent({ name: "agent", model: new ScriptedModel([]), tools: [one, two] })).toThrow(/more than one tool named "same"/);
  });
});
