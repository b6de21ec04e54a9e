/** The LLM loop's internals on their own: contents from history, the event channel, and finding the calls to resume. */
import { describe, expect, it } from "vitest";
import { createInvocationContext } from "../../src/agents/invocation-context.js";
import type { FunctionCall } from "../../src/content/content.js";
import { createEvent, type Event, type EventInit } from "../../src/events/event.js";
import { buildContents } from "../../src/llm-agent/build-contents.js";
import { EventChannel } from "../../src/llm-agent/event-channel.js";
import { LlmAgent } from "../../src/llm-agent/llm-agent.js";
import { pausedCallsToResume } from "../../src/llm-agent/resume-paused-calls.js";
import { pausedResponse } from "../../src/pause/paused-call.js";
import { InMemorySessionService } from "../../src/sessions/in-memory-session-service.js";
import { textResponse } from "../../src/testing/index.js";
import { ScriptedModel } from "../../src/testing/index.js";

const event = (init: Omit<EventInit, "invocationId">): Event => createEvent({ invocationId: "inv", ...init });
const say = (author: string, text: string, extra: Partial<EventInit> = {}) => event({ author, content: { role: author === "user" ? "user" : "model", parts: [{ text }] }, ...extra });
const call = (author: string, functionCall: FunctionCall, extra: Partial<EventInit> = {}) => event({ author, content: { role: "model", parts: [{ functionCall }] }, ...extra });
const respond = (author: string, id: string, name: string, response: Record<string, unknown>, extra: Partial<EventInit> = {}) =>
  event({ author, content: { role: "user", parts: [{ functionResponse: { id, name, response } }] }, ...extra });

describe("buildContents", () => {
  it("keeps the agent's and the user's turns, and retells another agent's turns as context the model did not say", () => {
    const contents = buildContents([say("user", "hi"), say("greeter", "Hello!"), call("helper", { id: "c1", name: "look", args: { q: 1 } }), respond("helper", "c1", "look", { found: true })], "greeter", {});
    expect(contents).toEqual([
      { role: "user", parts: [{ text: "hi" }] },
      { role: "model", parts: [{ text: "Hello!" }] },
      { role: "user", parts: [{ text: "For context:" }, { text: '[helper] called tool `look` with parameters: {"q":1}' }] },
      { role: "user", parts: [{ text: "For context:" }, { text: '[helper] tool `look` returned result: {"found":true}' }] },
    ]);
  });

  it("leaves out partial chunks, errors, other branches and the calls made to the client", () => {
    const contents = buildContents(
      [
        say("a", "chunk", { partial: true }),
        event({ author: "a", errorCode: "MODEL_ERROR", errorMessage: "x", content: { role: "model", parts: [{ text: "broken" }] } }),
        say("a", "in a parallel branch", { branch: "root.b" }),
        call("a", { id: "r1", name: "adk_request_confirmation", args: {} }),
        say("a", "mine", { branch: "root.a" }),
      ],
      "a",
      { branch: "root.a" },
    );
    expect(contents).toEqual([{ role: "model", parts: [{ text: "mine" }] }]);
  });

  it("puts a later response in place of a paused one while the model has not spoken since, right after its call when it arrives last, and tells it as an update once the conversation went on", () => {
    const history = [call("a", { id: "c1", name: "approve" }), respond("a", "c1", "approve", pausedResponse("client")), respond("a", "c1", "approve", { approved: true })];
    expect(buildContents(history, "a", {})).toEqual([
      { role: "model", parts: [{ functionCall: { id: "c1", name: "approve" } }] },
      { role: "user", parts: [{ functionResponse: { id: "c1", name: "approve", response: { approved: true } } }] },
    ]);
    // Arriving last, after the model spoke, it follows its call directly (ADK's rearrangement); later in history it is an update.
    const afterReply = [...history.slice(0, 2), say("a", "Waiting for approval."), history[2]!];
    expect(buildContents(afterReply, "a", {})).toEqual(buildContents(history, "a", {}));
    const later = [...afterReply, say("user", "Thanks.")];
    expect(buildContents(later, "a", {}).at(-2)).toEqual({ role: "user", parts: [{ text: 'Update for the earlier call to approve (id c1): {"approved":true}' }] });
  });

  it("shows an agent run as a tool only the events under its history root", () => {
    const contents = buildContents([say("user", "outer question"), say("user", "inner task", { branch: "p.r@c1" }), say("r", "inner answer", { branch: "p.r@c1" })], "r", { branch: "p.r@c1", historyRoot: "p.r@c1" });
    expect(contents.map((content) => content.parts![0]!.text)).toEqual(["inner task", "inner answer"]);
  });
});

describe("EventChannel", () => {
  it("delivers emitted events in order and resolves each emit only once its event was taken", async () => {
    const channel = new EventChannel();
    const delivered: string[] = [];
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const first = channel.emit(say("a", "one")).then(() => delivered.push("one delivered"));
    const drained = channel.drain(done);
    const taken: string[] = [];
    const reading = (async () => {
      for await (const next of drained) {
        taken.push(next.content!.parts![0]!.text!);
        if (taken.length === 1) void channel.emit(say("a", "two")).then(() => delivered.push("two delivered"));
        if (taken.length === 2) finish();
      }
    })();
    await reading;
    await first;
    expect(taken).toEqual(["one", "two"]);
    expect(delivered).toEqual(["one delivered", "two delivered"]);
  });

  it("resolves an emit at once after the channel closed, so a late tool never hangs", async () => {
    const channel = new EventChannel();
    for await (const _ of channel.drain(Promise.resolve())) throw new Error("nothing was emitted");
    await expect(channel.emit(say("a", "late"))).resolves.toBeUndefined();
  });

  it("ends when the work fails too, and releases the events a reader that stopped early never took", async () => {
    const channel = new EventChannel();
    let fail!: (error: Error) => void;
    const work = new Promise<void>((_, reject) => (fail = reject));
    const taken = channel.emit(say("a", "first"));
    const skipped = channel.emit(say("a", "second"));
    for await (const next of channel.drain(work)) {
      expect(next.content!.parts![0]!.text).toBe("first");
      break; // the runner's caller stopped iterating
    }
    await expect(Promise.all([taken, skipped])).resolves.toEqual([undefined, undefined]);
    fail(new Error("tool crashed"));
    const after = new EventChannel();
    const failing = Promise.reject(new Error("tool crashed"));
    const drained: Event[] = [];
    for await (const next of after.drain(failing)) drained.push(next);
    expect(drained).toEqual([]);
  });
});

describe("pausedCallsToResume", () => {
  const agent = new LlmAgent({ name: "shop", model: new ScriptedModel([textResponse("ok")]) });
  const contextFor = (events: Event[], answers?: Map<string, { confirmation: { confirmed: boolean } }>) =>
    createInvocationContext({
      agent,
      session: { id: "s", appName: "app", userId: "u", state: {}, events, lastUpdateTime: 0 },
      sessionService: new InMemorySessionService(),
      resumeMessage: { role: "user", parts: [{ text: "answers" }] },
      resumeAnswers: answers,
    });

  it("resumes this agent's paused calls that were answered, and inner-agent waits, but not calls still waiting for their own answer or a long-running tool's result", () => {
    const events = [
      call("shop", { id: "confirm-me", name: "refund" }),
      respond("shop", "confirm-me", "refund", pausedResponse("confirmation")),
      call("shop", { id: "unanswered", name: "refund" }),
      respond("shop", "unanswered", "refund", pausedResponse("confirmation")),
      call("shop", { id: "inner", name: "helper_agent" }),
      call("helper_agent", { id: "asks", name: "refund" }, { branch: "shop.helper_agent@inner" }),
      respond("shop", "inner", "helper_agent", pausedResponse("client")),
      // A long-running tool's call waits for the client's result: not run again.
      call("shop", { id: "ticket", name: "open_ticket" }),
      respond("shop", "ticket", "open_ticket", pausedResponse("client")),
      call("other", { id: "not-mine", name: "refund" }),
      respond("other", "not-mine", "refund", pausedResponse("confirmation")),
    ];
    const { calls } = pausedCallsToResume(contextFor(events, new Map([["confirm-me", { confirmation: { confirmed: true } }], ["not-mine", { confirmation: { confirmed: true } }]])), "shop");
    expect(calls.map((resumed) => resumed.id)).toEqual(["confirm-me", "inner"]);
  });

  it("skips a call already resumed in this invocation, whose latest response is no longer paused", () => {
    const events = [call("shop", { id: "c1", name: "refund" }), respond("shop", "c1", "refund", pausedResponse("confirmation")), respond("shop", "c1", "refund", { refunded: 30 })];
    expect(pausedCallsToResume(contextFor(events, new Map([["c1", { confirmation: { confirmed: true } }]])), "shop").calls).toEqual([]);
  });
});
