import { describe, expect, it } from "vitest";
import { createCompactedEvent, createEvent, InMemorySessionService, isCompactedEvent, LlmAgent, LlmSummarizer, Runner, TokenBasedContextCompactor, Workflow, type BaseContextCompactor, type CompactedEvent, type Event, type Part } from "toolsmith";
import { collect, FunctionModel, ScriptedModel, textResponse, userMessage } from "toolsmith/testing";
import { activeHistory, compactedView } from "../../src/llm-agent/compaction/active-history.js";
import { estimateContentTokens, estimateEventTokens, estimateRequestTokens } from "../../src/llm-agent/compaction/estimate-tokens.js";
import { predictRequestTokens } from "../../src/llm-agent/compaction/token-based-context-compactor.js";
import { createLlmRequest } from "../../src/models/llm-request.js";

let clock = 1_000;
const event = (author: string, parts: Part[], extra: Partial<Event> = {}): Event =>
  createEvent({ invocationId: "i", author, content: { role: author === "user" ? "user" : "model", parts }, timestamp: clock++, ...extra });
const record = (through: Event, extra: Partial<CompactedEvent> = {}): CompactedEvent =>
  ({ ...createCompactedEvent({ invocationId: "i", author: "worker", startTime: 0, endTime: through.timestamp, compactedContent: "S", compactedThroughEventId: through.id, compactedEventCount: 1 }), ...extra });

describe("the compacted view", () => {
  const history = [event("user", [{ text: "one" }]), event("worker", [{ text: "two" }]), event("user", [{ text: "three" }]), event("worker", [{ text: "four" }])];

  it("is the summary, then the events stored after what it covers, the record itself left out", () => {
    const events = [...history.slice(0, 3), record(history[1]!), history[3]!];
    const view = compactedView(events, "worker", undefined);
    expect(view.map((shown) => shown.content!.parts![0]!.text)).toEqual(["[Previous Context Summary]:\nS", "three", "four"]);
    expect(view[0]!.author).toBe("user");
    expect(activeHistory(events, "worker", undefined).storedBeforeRecord).toBe(1);
  });

  it("uses the latest of several records, and the whole history when there is none of this agent in this branch", () => {
    const first = record(history[0]!, { compactedContent: "first" });
    const second = record(history[2]!, { compactedContent: "second" });
    const events = [history[0]!, history[1]!, first, history[2]!, second, history[3]!];
    expect(compactedView(events, "worker", undefined).map((shown) => shown.content!.parts![0]!.text)).toEqual(["[Previous Context Summary]:\nsecond", "four"]);
    expect(compactedView(events, "reviewer", undefined)).toBe(events);
    expect(compactedView(events, "worker", "root.worker")).toBe(events);
  });

  it("is the agent's own in its isolation scope: a summary made in another scope (another run of the node) is not used", () => {
    const scoped = record(history[1]!, { compactedContent: "run 1", isolationScope: "wf.worker@1@1" });
    const events = [...history.slice(0, 3), scoped, history[3]!];
    expect(compactedView(events, "worker", undefined, "wf.worker@1@1")[0]!.content!.parts![0]!.text).toBe("[Previous Context Summary]:\nrun 1");
    expect(compactedView(events, "worker", undefined, "wf.worker@2@2")).toBe(events);
    expect(compactedView(events, "worker", undefined)).toBe(events);
    expect(activeHistory(events, "worker", undefined, "wf.worker@2@2").compaction).toBeUndefined();
  });

  it("passes over a record that names no stored event, as a hand-edited or damaged store may hold, and loses nothing", () => {
    const damaged = record(history[1]!, { compactedThroughEventId: "no-such-event" });
    const events = [...history, damaged];
    expect(compactedView(events, "worker", undefined)).toBe(events);
    // An older, sound record is used instead.
    const sound = record(history[0]!, { compactedContent: "sound" });
    const withBoth = [history[0]!, sound, ...history.slice(1), damaged];
    expect(compactedView(withBoth, "worker", undefined)[0]!.content!.parts![0]!.text).toBe("[Previous Context Summary]:\nsound");
    // A record naming an event stored after it cannot be what it covers: passed over too.
    const ahead = record(history[3]!);
    const misordered = [...history.slice(0, 3), ahead, history[3]!];
    expect(compactedView(misordered, "worker", undefined)).toBe(misordered);
  });
});

describe("estimating tokens", () => {
  it("counts texts and the JSON of calls and answers over four, skipping nothing else, once per event", () => {
    expect(estimateContentTokens({ role: "user", parts: [{ text: "x".repeat(40) }] })).toBe(10);
    expect(estimateContentTokens({ role: "model", parts: [{ functionCall: { name: "f", args: { a: 1 } } }] })).toBe(Math.ceil(JSON.stringify({ name: "f", args: { a: 1 } }).length / 4));
    expect(estimateContentTokens({ role: "user", parts: [{ inlineData: { mimeType: "image/png", data: "A".repeat(4000) } }] })).toBe(0);
    expect(estimateContentTokens(undefined)).toBe(0);
    const shown = event("user", [{ text: "y".repeat(400) }]);
    expect(estimateEventTokens(shown)).toBe(100);
    expect(estimateEventTokens(shown)).toBe(100);
    const request = createLlmRequest({ contents: [{ role: "user", parts: [{ text: "z".repeat(40) }] }], systemInstruction: "i".repeat(40) });
    expect(estimateRequestTokens(request)).toBe(20);
  });

  it("predicts from the latest reported count, the answer and an estimate of what came after, scaled by how the counts grew", () => {
    const text = (author: string, length: number, usage?: { promptTokenCount: number; candidatesTokenCount?: number }) => event(author, [{ text: "w".repeat(length) }], usage ? { usageMetadata: usage } : {});
    // No count yet: the estimate of everything (400 characters, 100 tokens) and the summary.
    expect(predictRequestTokens([text("user", 400)], "worker", 7)).toBe(107);
    // One count: 500 reported, the answer's 30, then 100 estimated.
    const once = [text("user", 400), text("worker", 40, { promptTokenCount: 500, candidatesTokenCount: 30 }), text("user", 400)];
    expect(predictRequestTokens(once, "worker", 0)).toBe(500 + 30 + 100);
    // Two counts: 500, then 800 after 100 estimated tokens came in (the answer's 10 and a 90-token message): 3 counted per estimated.
    const twice = [text("user", 400), text("worker", 40, { promptTokenCount: 500 }), text("user", 360), text("worker", 40, { promptTokenCount: 800 }), text("user", 400)];
    expect(predictRequestTokens(twice, "worker", 0)).toBe(800 + 3 * 10 + 3 * 100);
    // Counts from before a compaction (the tail it kept) are not used as totals.
    expect(predictRequestTokens(twice, "worker", 0, 4)).toBe([400, 40, 360, 40, 400].reduce((sum, length) => sum + length / 4, 0));
  });

  it("does not take the count of a request that ADK's reading shortened (a long-running result arriving last) for the history's", () => {
    const call = event("worker", [{ functionCall: { id: "j", name: "job", args: {} } }], { longRunningToolIds: ["j"], usageMetadata: { promptTokenCount: 1_000 } });
    const events = [
      event("user", [{ text: "w".repeat(400) }]),
      call,
      event("worker", [{ functionResponse: { id: "j", name: "job", response: { status: "pending" } } }]),
      event("worker", [{ text: "started" }], { usageMetadata: { promptTokenCount: 1_100 } }),
      event("user", [{ text: "w".repeat(4_000) }]),
      event("worker", [{ text: "ok" }], { usageMetadata: { promptTokenCount: 2_200 } }),
      event("user", [{ functionResponse: { id: "j", name: "job", response: { status: "done" } } }]),
      // Answered a request of the call and the result alone: its count says nothing of the history.
      event("worker", [{ text: "done" }], { usageMetadata: { promptTokenCount: 150 } }),
    ];
    expect(predictRequestTokens(events, "worker", 0)).toBeGreaterThan(2_200);
  });
});

describe("contextCompactors take any compactor", () => {
  it("runs a plain object with shouldCompact and compact, storing what it returns, and nothing when it returns nothing", async () => {
    let compactNow = false;
    const everything: BaseContextCompactor = {
      shouldCompact: () => compactNow,
      compact: async (context) => {
        const last = context.session.events.at(-1)!;
        if (context.session.events.some(isCompactedEvent)) return undefined;
        return createCompactedEvent({ invocationId: context.invocationId, author: context.agent.name, branch: context.branch, startTime: 0, endTime: last.timestamp, compactedContent: "Everything before this message.", compactedThroughEventId: context.session.events.at(-2)!.id, compactedEventCount: context.session.events.length - 1 });
      },
    };
    const model = new ScriptedModel([textResponse("a"), textResponse("b"), textResponse("c")]);
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "worker", model, contextCompactors: [everything] }) });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const send = (text: string) => collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage(text) }));
    await send("first");
    compactNow = true;
    const second = await send("second");
    expect(second.filter(isCompactedEvent)).toHaveLength(1);
    expect(model.requests[1]!.contents.map((content) => content.parts![0]!.text)).toEqual(["[Previous Context Summary]:\nEverything before this message.", "second"]);
    // Asked again, it has nothing to compact: no record, and the model is called as before.
    expect((await send("third")).filter(isCompactedEvent)).toEqual([]);
    expect(model.requests[2]!.contents.map((content) => content.parts![0]!.text)).toEqual(["[Previous Context Summary]:\nEverything before this message.", "second", "b", "third"]);
    model.assertComplete();
  });

  it("ends quietly, with no error event, when the run is cancelled while summarising", async () => {
    const controller = new AbortController();
    const slow: BaseContextCompactor = {
      shouldCompact: () => true,
      compact: async () => {
        controller.abort();
        throw new Error("aborted");
      },
    };
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "worker", model: new FunctionModel(() => textResponse("never")), contextCompactors: [slow] }), sessionService: new InMemorySessionService() });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("hi"), abortSignal: controller.signal }));
    expect(events.filter((candidate) => candidate.errorCode)).toEqual([]);
  });
});

describe("compaction in isolation scopes", () => {
  it("keeps a summary made in one scope out of the same agent's requests in another scope on the same session", async () => {
    const long = (turn: number) => `Turn ${turn}: ${"a fairly long sentence about the work ".repeat(6)}`;
    const sessionService = new InMemorySessionService();
    const session = await sessionService.createSession({ appName: "app", userId: "u" });
    let summaries = 0;
    const summarizer = new LlmSummarizer({ llm: new FunctionModel(() => textResponse(`Summary number ${++summaries}.`)) });
    const inScope = (scope: string, model: FunctionModel) =>
      new Workflow({ name: "wf", edges: [["START", new LlmAgent({ name: "worker", model, includeContents: "default", isolationScope: scope, contextCompactors: [new TokenBasedContextCompactor({ tokenThreshold: 300, eventRetentionSize: 2, summarizer })] })]] });
    const send = (agent: Workflow, text: string) => collect(new Runner({ appName: "app", agent, sessionService }).runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage(text) }));
    const modelA = new FunctionModel(() => textResponse("ok"));
    for (let turn = 1; turn <= 10; turn++) await send(inScope("a", modelA), long(turn));
    const stored = (await sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!.events;
    expect(stored.filter(isCompactedEvent).map((record) => record.isolationScope)).toContain("a");
    const madeInA = summaries;
    expect(madeInA).toBeGreaterThan(0);
    const modelB = new FunctionModel(() => textResponse("ok"));
    await send(inScope("b", modelB), "hello from b");
    // The same agent in scope b may summarise what it sees (the user's messages), never take up scope a's summaries.
    const seen = JSON.stringify(modelB.requests[0]!.contents);
    for (let made = 1; made <= madeInA; made++) expect(seen).not.toContain(`Summary number ${made}.`);
    expect(seen).not.toContain('"ok"');
  });
});
