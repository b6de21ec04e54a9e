/** EventChannel and pausedCallsToResume, beyond loop-internals.test.ts: many emitters, late events, and which paused calls a resume picks. */
import { describe, expect, it } from "vitest";
import type { ClientAnswer } from "../../src/agents/invocation-context.js";
import type { Event } from "../../src/events/event.js";
import { EventChannel } from "../../src/llm-agent/event-channel.js";
import { LlmAgent } from "../../src/llm-agent/llm-agent.js";
import { pausedCallsToResume } from "../../src/llm-agent/resume-paused-calls.js";
import { pausedResponse } from "../../src/pause/paused-call.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { callEvent, invocationFor, responseEvent, say, sleep, textOf } from "./fixtures.js";

describe("EventChannel", () => {
  it("delivers the events of several concurrent emitters, each emitter's in its own order", async () => {
    const channel = new EventChannel();
    const emitter = async (name: string, count: number, pause: number) => {
      for (let index = 0; index < count; index++) {
        await sleep(pause);
        await channel.emit(say(name, `${name}${index}`));
      }
    };
    const work = Promise.all([emitter("a", 3, 1), emitter("b", 3, 2), emitter("c", 2, 0)]);
    const taken: string[] = [];
    for await (const event of channel.drain(work)) taken.push(textOf(event));
    expect(taken).toHaveLength(8);
    for (const name of ["a", "b", "c"]) expect(taken.filter((text) => text.startsWith(name))).toEqual(taken.filter((text) => text.startsWith(name)).sort());
  });

  it("holds an emitter until the reader takes its event, so a slow reader slows the tools down", async () => {
    const channel = new EventChannel();
    const progress: string[] = [];
    const work = (async () => {
      await channel.emit(say("t", "one"));
      progress.push("emitter past one");
      await channel.emit(say("t", "two"));
      progress.push("emitter past two");
    })();
    for await (const event of channel.drain(work)) {
      progress.push(`reader took ${textOf(event)}`);
      await sleep(5);
      progress.push(`reader done with ${textOf(event)}`);
    }
    expect(progress).toEqual(["reader took one", "reader done with one", "emitter past one", "reader took two", "reader done with two", "emitter past two"]);
  });

  it("still delivers an event emitted in the work's very last step", async () => {
    const channel = new EventChannel();
    const work = (async () => {
      await sleep(5);
      void channel.emit(say("t", "last words"));
    })();
    const taken: Event[] = [];
    for await (const event of channel.drain(work)) taken.push(event);
    expect(taken.map(textOf)).toEqual(["last words"]);
  });

  it("waits for the work even while nothing is emitted, and ends when it is done", async () => {
    const channel = new EventChannel();
    let finished = false;
    const work = sleep(20).then(() => (finished = true));
    const started = performance.now();
    for await (const _event of channel.drain(work)) throw new Error("nothing was emitted");
    expect(finished).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
  });
});

describe("EventChannel.emitsBefore", () => {
  it("answers false when the work ends without emitting, and true as soon as an event waits, before the work ends", async () => {
    const quiet = new EventChannel();
    expect(await quiet.emitsBefore(sleep(5))).toBe(false);
    const chatty = new EventChannel();
    let workDone = false;
    const work = (async () => {
      await chatty.emit(say("t", "first"));
      await sleep(20);
      workDone = true;
    })();
    expect(await chatty.emitsBefore(work)).toBe(true);
    expect(workDone).toBe(false);
    const taken: string[] = [];
    for await (const event of chatty.drain(work)) taken.push(textOf(event));
    expect(taken).toEqual(["first"]);
    expect(workDone).toBe(true);
  });

  it("leaves a drain started after it its own wake-up: events emitted while the drain waits all arrive, in order", async () => {
    const channel = new EventChannel();
    const work = (async () => {
      await channel.emit(say("t", "one"));
      await sleep(5);
      await channel.emit(say("t", "two"));
      await sleep(5);
      void channel.emit(say("t", "three"));
    })();
    expect(await channel.emitsBefore(work)).toBe(true);
    const taken: string[] = [];
    for await (const event of channel.drain(work)) taken.push(textOf(event));
    expect(taken).toEqual(["one", "two", "three"]);
  });

  it("answers true for an event already waiting, and false for work that fails without emitting", async () => {
    const channel = new EventChannel();
    void channel.emit(say("t", "early"));
    expect(await channel.emitsBefore(sleep(50))).toBe(true);
    const failing = new EventChannel();
    expect(await failing.emitsBefore(Promise.reject(new Error("the work failed")))).toBe(false);
  });
});

describe("pausedCallsToResume", () => {
  const agent = new LlmAgent({ name: "shop", model: new ScriptedModel([]) });
  const resumeMessage = { role: "user" as const, parts: [{ text: "answers" }] };
  const confirmed = (...ids: string[]) => new Map<string, ClientAnswer>(ids.map((id) => [id, { confirmation: { confirmed: true } }]));

  it("resumes nothing in an invocation that answers no pause, even with paused calls in the history", async () => {
    const events = [callEvent("shop", [{ id: "c1", name: "refund" }]), responseEvent("shop", "c1", "refund", pausedResponse("client"))];
    const context = await invocationFor(agent, { events, resumeAnswers: confirmed("c1") });
    const { calls, answers } = pausedCallsToResume(context, "shop");
    expect(calls).toEqual([]);
    expect(answers.get("c1")).toEqual({ confirmation: { confirmed: true } });
  });

  it("gives an empty map of answers when the runner read none", async () => {
    const context = await invocationFor(agent, { resumeMessage });
    expect(pausedCallsToResume(context, "shop")).toEqual({ calls: [], answers: new Map() });
  });

  it("resumes answered calls in the order the model made them, with their arguments", async () => {
    const events = [
      callEvent("shop", [{ id: "b", name: "refund", args: { order: 2 } }, { id: "a", name: "refund", args: { order: 1 } }]),
      { ...responseEvent("shop", "b", "refund", pausedResponse("confirmation")), content: { role: "user", parts: ["b", "a"].map((id) => ({ functionResponse: { id, name: "refund", response: pausedResponse("confirmation") } })) } },
    ];
    const context = await invocationFor(agent, { events, resumeMessage, resumeAnswers: confirmed("a", "b") });
    expect(pausedCallsToResume(context, "shop").calls).toEqual([
      { id: "b", name: "refund", args: { order: 2 } },
      { id: "a", name: "refund", args: { order: 1 } },
    ]);
  });

  it("resumes a call waiting for a credential once it is answered, and not before", async () => {
    const events = [callEvent("shop", [{ id: "k", name: "charge" }]), responseEvent("shop", "k", "charge", pausedResponse("credential"))];
    const answered = await invocationFor(agent, { events, resumeMessage, resumeAnswers: new Map([["k", { credential: { answer: { authScheme: { type: "apiKey" } } } }]]) });
    expect(pausedCallsToResume(answered, "shop").calls.map((call) => call.id)).toEqual(["k"]);
    const unanswered = await invocationFor(agent, { events, resumeMessage, resumeAnswers: new Map() });
    expect(pausedCallsToResume(unanswered, "shop").calls).toEqual([]);
  });

  it("leaves alone calls that did not pause, the client requests themselves, and calls without an id", async () => {
    const events = [
      callEvent("shop", [{ id: "done", name: "lookup" }, { name: "no_id" }]),
      responseEvent("shop", "done", "lookup", { found: true }),
      callEvent("shop", [{ id: "ask", name: "adk_request_confirmation", args: {} }]),
      responseEvent("shop", "ask", "adk_request_confirmation", pausedResponse("client")),
    ];
    const context = await invocationFor(agent, { events, resumeMessage, resumeAnswers: confirmed("done", "ask") });
    expect(pausedCallsToResume(context, "shop").calls).toEqual([]);
  });

  it("sees only the calls of its own branch, as the agent's model would", async () => {
    const events = [
      callEvent("shop", [{ id: "left", name: "refund" }], { branch: "fan.left" }),
      say("refunder", "asks", { branch: "fan.left.shop.refund@left" }),
      responseEvent("shop", "left", "refund", pausedResponse("client"), { branch: "fan.left" }),
      callEvent("shop", [{ id: "right", name: "refund" }], { branch: "fan.right" }),
      say("refunder", "asks", { branch: "fan.right.shop.refund@right" }),
      responseEvent("shop", "right", "refund", pausedResponse("client"), { branch: "fan.right" }),
    ];
    const context = await invocationFor(agent, { events, resumeMessage, branch: "fan.left" });
    expect(pausedCallsToResume(context, "shop").calls.map((call) => call.id)).toEqual(["left"]);
  });

  it("takes up a call whose agent or node run as a tool waits, but never a long-running tool's call, whose result the client gives", async () => {
    const events = [
      callEvent("shop", [{ id: "ticket", name: "open_ticket" }, { id: "refund:1", name: "refund" }]),
      say("refunder", "asks", { branch: "shop.refund@refund_1" }),
      { ...responseEvent("shop", "ticket", "open_ticket", pausedResponse("client")), content: { role: "user", parts: ["ticket", "refund:1"].map((id) => ({ functionResponse: { id, name: id === "ticket" ? "open_ticket" : "refund", response: pausedResponse("client") } })) } },
    ];
    const context = await invocationFor(agent, { events, resumeMessage });
    expect(pausedCallsToResume(context, "shop").calls.map((call) => call.id)).toEqual(["refund:1"]);
  });

  it("reads a call's latest response even when another agent stored it", async () => {
    const events = [
      callEvent("shop", [{ id: "c1", name: "refund" }]),
      responseEvent("shop", "c1", "refund", pausedResponse("client")),
      responseEvent("repair", "c1", "refund", { status: "error", error: "The run stopped before this call finished." }),
    ];
    const context = await invocationFor(agent, { events, resumeMessage });
    expect(pausedCallsToResume(context, "shop").calls).toEqual([]);
  });
});
