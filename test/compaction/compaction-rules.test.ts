import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CompactionError,
  createEvent,
  FunctionTool,
  InMemorySessionService,
  isCompactedEvent,
  isFinalResponse,
  LlmAgent,
  LlmSummarizer,
  LongRunningFunctionTool,
  registerModelProvider,
  Runner,
  TokenBasedContextCompactor,
  type Event,
  type LlmRequest,
  type LlmResponse,
  type Part,
} from "toolsmith";
import { createDeepAgent } from "toolsmith/tools";
import { collect, FunctionModel, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "toolsmith/testing";
import { compactionSplit } from "../../src/llm-agent/compaction/compaction-split.js";
import { estimateContentTokens, estimateRequestTokens } from "../../src/llm-agent/compaction/estimate-tokens.js";

async function start(agent: LlmAgent, sessionService = new InMemorySessionService()) {
  const runner = new Runner({ appName: "app", agent, sessionService });
  const created = await sessionService.createSession({ appName: "app", userId: "u" });
  const send = (message: string | { role: string; parts: Part[] }) => collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: typeof message === "string" ? userMessage(message) : message }));
  const stored = async () => (await sessionService.getSession({ appName: "app", userId: "u", sessionId: created.id }))!.events;
  return { runner, send, stored };
}

const note = new FunctionTool({ name: "note", description: "Saves a note.", parameters: { type: "object", properties: { text: { type: "string" } } }, execute: ({ text }) => ({ saved: text }) });
const long = (turn: number) => `Turn ${turn}: ${"a fairly long sentence about the work ".repeat(6)}`;
const isSummaryRequest = (request: LlmRequest) => request.functionDeclarations.length === 0 && /^Below is the earlier part of a conversation/.test(request.contents[0]?.parts?.[0]?.text ?? "");

describe("where the summary ends (compactionSplit)", () => {
  const event = (author: string, parts: Part[], extra: Partial<Event> = {}): Event => createEvent({ invocationId: "i", author, content: { role: author === "user" ? "user" : "model", parts }, ...extra });
  const call = (id: string, name = "tool"): Part => ({ functionCall: { id, name, args: {} } });
  const answer = (id: string, response: Record<string, unknown> = { ok: true }, name = "tool"): Part => ({ functionResponse: { id, name, response } });

  it("moves back before a batch of parallel calls rather than part them from their answers", () => {
    const events = [event("user", [{ text: "go" }]), event("agent", [call("a"), call("b"), call("c")]), event("agent", [answer("a"), answer("b"), answer("c")]), event("agent", [{ text: "done" }])];
    // Keeping the last two would summarise the calls and keep their answers: the tail starts at the calls instead.
    expect(compactionSplit(events, 2)).toEqual({ retainStart: 1, kept: [] });
    expect(compactionSplit(events, 3)).toEqual({ retainStart: 3, kept: [] });
  });

  it("never summarises a paused call, nor a long-running call before the client answered it: they stay in view, and the rest is summarised", () => {
    const paused = [event("user", [{ text: "go" }]), event("agent", [call("p")]), event("agent", [answer("p", { status: "paused", waitingFor: "client" })]), event("user", [{ text: "meanwhile" }]), event("agent", [{ text: "ok" }])];
    expect(compactionSplit(paused, 4)).toEqual({ retainStart: 4, kept: [1, 2] });
    // Once the client answered, the call is an ordinary one: summarised with its answer, or kept with it.
    const answered = [...paused, event("user", [answer("p", { approved: true })]), event("agent", [{ text: "approved" }])];
    expect(compactionSplit(answered, 6)).toEqual({ retainStart: 6, kept: [] });
    expect(compactionSplit(answered, 5)).toEqual({ retainStart: 1, kept: [] });
    const pending = [event("user", [{ text: "go" }]), event("agent", [call("j")], { longRunningToolIds: ["j"] }), event("agent", [answer("j", { status: "pending" })]), event("agent", [{ text: "started" }]), event("user", [{ text: "next" }])];
    // The tool's own pending result is not the end of a long-running call: the client's answer is.
    expect(compactionSplit(pending, 4)).toEqual({ retainStart: 4, kept: [1, 2] });
    const done = [...pending, event("user", [answer("j", { status: "done" })])];
    expect(compactionSplit(done, 5)).toEqual({ retainStart: 1, kept: [] });
    expect(compactionSplit(done, 6)).toEqual({ retainStart: 6, kept: [] });
  });

  it("keeps whatever shares an event with a waiting call: a parallel batch is kept whole", () => {
    const events = [event("agent", [call("a"), call("w")], { longRunningToolIds: ["w"] }), event("agent", [answer("a"), answer("w", { status: "pending" })]), event("user", [{ text: "later" }]), event("agent", [call("b")]), event("agent", [answer("b")]), event("agent", [{ text: "done" }])];
    expect(compactionSplit(events, 5)).toEqual({ retainStart: 5, kept: [0, 1] });
  });

  it("holds for any history: no call summarised with an answer kept or still to come, waiting calls kept, and no later point that would do", () => {
    // A history of turns: text, a batch of calls answered at once or later by the client, pauses, long-running calls.
    const step = fc.oneof(
      fc.record({ kind: fc.constant("text" as const), author: fc.constantFrom("user", "agent") }),
      fc.record({ kind: fc.constant("calls" as const), count: fc.integer({ min: 1, max: 3 }), longRunning: fc.boolean(), paused: fc.boolean(), answerLater: fc.boolean() }),
      fc.record({ kind: fc.constant("client-answer" as const) }),
    );
    let histories = 0;
    let moved = 0;
    let keptWaiting = 0;
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.nat(45), (steps, keep) => {
        const events: Event[] = [];
        const open: string[] = [];
        let next = 0;
        for (const stepDone of steps) {
          if (stepDone.kind === "text") events.push(event(stepDone.author, [{ text: "t" }]));
          else if (stepDone.kind === "client-answer") {
            const id = open.shift();
            if (id) events.push(event("user", [answer(id, { done: true })]));
          } else {
            const ids = Array.from({ length: stepDone.count }, () => `c${next++}`);
            events.push(event("agent", ids.map((id) => call(id)), stepDone.longRunning ? { longRunningToolIds: ids } : {}));
            if (stepDone.paused) {
              events.push(event("agent", ids.map((id) => answer(id, { status: "paused", waitingFor: "client" }))));
              open.push(...ids);
            } else if (!stepDone.answerLater) {
              events.push(event("agent", ids.map((id) => answer(id, stepDone.longRunning ? { status: "pending" } : { ok: true }))));
              if (stepDone.longRunning) open.push(...ids);
            } else open.push(...ids);
          }
        }
        const desired = Math.max(0, events.length - keep);
        const ids = (candidates: readonly Event[], kind: "functionCall" | "functionResponse") => candidates.flatMap((candidate) => candidate.content!.parts!.flatMap((part) => (part[kind] ? [part[kind]!.id!] : [])));
        // What the model would see after a split: the kept events, then the tail. Every answer there has its call there, and no waiting call is gone.
        const sound = (retainStart: number, kept: readonly number[]) => {
          const summarised = events.slice(0, retainStart).filter((_, index) => !kept.includes(index));
          const shown = [...kept.map((index) => events[index]!), ...events.slice(retainStart)];
          const shownCalls = new Set(ids(shown, "functionCall"));
          return ids(shown, "functionResponse").every((id) => shownCalls.has(id)) && !open.some((id) => ids(summarised, "functionCall").includes(id));
        };
        const split = compactionSplit(events, desired);
        histories++;
        if (split.retainStart > 0 && split.retainStart < desired) moved++;
        if (split.kept.length > 0) keptWaiting++;
        expect(split.retainStart).toBeLessThanOrEqual(desired);
        expect(split.kept.every((index) => index < split.retainStart)).toBe(true);
        if (split.retainStart > 0) expect(sound(split.retainStart, split.kept)).toBe(true);
        // No later split would do, even keeping every waiting call's events.
        for (let later = split.retainStart + 1; later <= desired; later++) {
          const waitingEvents = events.flatMap((candidate, index) => (index < later && candidate.content!.parts!.some((part) => open.includes(part.functionCall?.id ?? part.functionResponse?.id ?? "")) ? [index] : []));
          expect(sound(later, waitingEvents)).toBe(false);
        }
      }),
      { numRuns: 2_000 },
    );
    console.log(`compactionSplit: ${histories} random histories checked; the tail moved back to keep calls whole in ${moved}, waiting calls kept in view in ${keptWaiting}`);
  });
});

describe("TokenBasedContextCompactor in a run", () => {
  it("records a compaction as one event without content, not a final response, whose summary the agent's own model wrote", async () => {
    // With no summariser named, the agent's model is asked; this one tells the two kinds of request apart.
    let turn = 0;
    const model = new FunctionModel((request) => (isSummaryRequest(request) ? textResponse(`Summary of ${request.contents[0]!.parts![0]!.text!.split("[Event ").length - 1} events.`) : textResponse(`Reply ${turn}`)));
    const agent = new LlmAgent({ name: "worker", model, tools: [note], contextCompactors: [new TokenBasedContextCompactor({ tokenThreshold: 400, eventRetentionSize: 2 })] });
    const { send, stored } = await start(agent);
    const records: Event[] = [];
    for (turn = 1; turn <= 20; turn++) records.push(...(await send(long(turn))).filter(isCompactedEvent));
    expect(records.length).toBeGreaterThan(1);
    const record = records[0]!;
    expect(record.content).toBeUndefined();
    expect(isFinalResponse(record)).toBe(false);
    expect(record.author).toBe("worker");
    const summaryRequests = model.requests.filter(isSummaryRequest);
    expect(summaryRequests).toHaveLength(records.length);
    expect(summaryRequests[0]!.contents[0]!.parts![0]!.text).toContain("[Event 1 - Author: user]\nTurn 1:");
    // A later summary carries the earlier one on.
    expect(summaryRequests[1]!.contents[0]!.parts![0]!.text).toContain("[Event 1 - Author: worker]\nSummary of the conversation before:\nSummary of");
    // The next request opens with the summary, as ADK words it, and the session still holds every turn.
    const after = model.requests[model.requests.indexOf(summaryRequests[0]!) + 1]!;
    expect(after.contents[0]!.parts![0]!.text).toMatch(/^\[Previous Context Summary\]:\nSummary of \d+ events\.$/);
    const events = await stored();
    expect(events.filter((event) => event.author === "user")).toHaveLength(20);
    expect(events.filter(isCompactedEvent)).toHaveLength(records.length);
  });
});

describe("when compaction cannot be made", () => {
  it("ends the turn with a COMPACTION_FAILED error event when the summariser fails, removing nothing, and compacts on the next turn", async () => {
    let failing = true;
    const summarizerModel = new FunctionModel(() => (failing ? new Error("summariser quota exhausted") : textResponse("A summary of the earlier turns.")));
    const model = new FunctionModel(() => textResponse("ok"));
    const agent = new LlmAgent({ name: "worker", model, contextCompactors: [new TokenBasedContextCompactor({ tokenThreshold: 300, eventRetentionSize: 2, summarizer: new LlmSummarizer({ llm: summarizerModel }) })] });
    const { send, stored } = await start(agent);
    let failure: Event | undefined;
    for (let turn = 1; turn <= 10 && !failure; turn++) failure = (await send(long(turn))).find((event) => event.errorCode);
    expect(failure).toMatchObject({ errorCode: "COMPACTION_FAILED", author: "worker" });
    console.log(`the error a user sees: ${failure!.errorMessage}`);
    expect(failure!.errorMessage).toBe(
      'Agent "worker" could not summarise its older history before calling its model (Error: summariser quota exhausted). Nothing was removed: the session keeps every event. Run the turn again, or give the compactor a summarizer with a model that answers.',
    );
    const before = await stored();
    // The failed turn's message is stored, no record is, and the model was not called with an over-budget request.
    expect(before.filter(isCompactedEvent)).toEqual([]);
    expect(before.at(-2)!.content!.parts![0]!.text).toMatch(/^Turn \d+:/);
    const requestsBefore = model.requests.length;
    failing = false;
    const retried = await send("again");
    expect(retried.filter(isCompactedEvent)).toHaveLength(1);
    expect(model.requests).toHaveLength(requestsBefore + 1);
    expect((await stored()).slice(0, before.length)).toEqual(before);
  });

  it("fails the same way, typed, when the summariser answers with no text", async () => {
    const summarizer = new LlmSummarizer({ llm: new ScriptedModel([textResponse("   ")], { name: "tiny-model" }) });
    await expect(summarizer.summarize([createEvent({ invocationId: "i", author: "user", content: userMessage("hello") })])).rejects.toThrow(
      expect.objectContaining({ code: "COMPACTION_FAILED", message: "The summariser model tiny-model returned no text; check that it answers a plain text request." }),
    );
    await expect(summarizer.summarize([])).rejects.toBeInstanceOf(CompactionError);
    await expect(new LlmSummarizer().summarize([createEvent({ invocationId: "i", author: "user", content: userMessage("hello") })])).rejects.toThrow(expect.objectContaining({ code: "NO_MODEL" }));
  });

  it("names its model by name: an unknown name fails the compaction with the registry's advice, a registered one summarises", async () => {
    const unknown = new LlmSummarizer({ llm: "nosuch/summariser" });
    const history = [createEvent({ invocationId: "i", author: "user", content: userMessage("hello") })];
    await expect(unknown.summarize(history)).rejects.toThrow(expect.objectContaining({ code: "UNKNOWN_MODEL", message: expect.stringContaining('"nosuch/summariser"') }));
    const cheap = new ScriptedModel([textResponse("Cheap summary.")], { name: "summarycorp/cheap" });
    registerModelProvider(/^summarycorp\//, () => cheap);
    const named = new LlmSummarizer({ llm: "summarycorp/cheap", prompt: "Summarise tersely." });
    const record = await named.summarize(history);
    expect(record.compactedContent).toBe("Cheap summary.");
    expect(cheap.requests[0]!.contents[0]!.parts![0]!.text).toBe("Summarise tersely.\n\n[Event 1 - Author: user]\nhello");
  });

  it("refuses options that are not a budget, and a compactor that is not one, when the agent is made", () => {
    expect(() => new TokenBasedContextCompactor({ tokenThreshold: 0, eventRetentionSize: 2 })).toThrow(
      "TokenBasedContextCompactor: tokenThreshold must be a positive whole number of tokens, not 0.",
    );
    expect(() => new TokenBasedContextCompactor({ tokenThreshold: 1000, eventRetentionSize: -1 })).toThrow(
      "TokenBasedContextCompactor: eventRetentionSize must be a whole number of events, 0 or more, not -1.",
    );
    expect(() => new TokenBasedContextCompactor({ tokenThreshold: "lots" as never, eventRetentionSize: 1 })).toThrow(expect.objectContaining({ code: "INVALID_COMPACTION_OPTION" }));
    expect(() => new LlmAgent({ name: "a", model: new ScriptedModel([]), contextCompactors: [{ shouldCompact: () => true } as never] })).toThrow(
      'Agent "a": contextCompactors[0] is not a compactor (it needs shouldCompact and compact); use new TokenBasedContextCompactor({ tokenThreshold, eventRetentionSize }).',
    );
    expect(() => new LlmAgent({ name: "a", model: new ScriptedModel([]), contextCompactors: new TokenBasedContextCompactor({ tokenThreshold: 10, eventRetentionSize: 1 }) as never })).toThrow(
      expect.objectContaining({ code: "INVALID_COMPACTION_OPTION", message: expect.stringContaining("must be a list") }),
    );
  });
});

describe("whose view a compaction changes", () => {
  it("is the compacting agent's only: an agent without compactors, or another agent, sees the whole history", async () => {
    const sessionService = new InMemorySessionService();
    const compacting = new LlmAgent({
      name: "worker",
      model: new FunctionModel((request) => textResponse(isSummaryRequest(request) ? "Summary." : "ok")),
      contextCompactors: [new TokenBasedContextCompactor({ tokenThreshold: 300, eventRetentionSize: 2 })],
    });
    const { send } = await start(compacting, sessionService);
    for (let turn = 1; turn <= 8; turn++) await send(long(turn));
    const session = (await sessionService.listSessions({ appName: "app", userId: "u" })).sessions[0]!;
    const events = (await sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!.events;
    expect(events.filter(isCompactedEvent).length).toBeGreaterThan(0);
    // The same history read by agents that do not compact: every turn, and no summary.
    for (const name of ["worker", "reviewer"]) {
      const model = new ScriptedModel([textResponse("seen")]);
      const plain = new Runner({ appName: "app", agent: new LlmAgent({ name, model }), sessionService });
      await collect(plain.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("and now?") }));
      const texts = JSON.stringify(model.requests[0]!.contents);
      for (let turn = 1; turn <= 8; turn++) expect(texts).toContain(`Turn ${turn}:`);
      expect(texts).not.toContain("Previous Context Summary");
    }
  });

  it("tells a long-running call's update as text when the call itself was summarised, so no answer reaches the model without its call", async () => {
    const job = new LongRunningFunctionTool({ name: "start_job", description: "Starts a job.", execute: () => ({ status: "pending" }) });
    let scripted = [functionCallsResponse({ name: "start_job" }), textResponse("started")];
    const model = new FunctionModel((request) => (isSummaryRequest(request) ? textResponse("Summary: a job was started.") : (scripted.shift() ?? textResponse("ok"))));
    const agent = new LlmAgent({ name: "worker", model, tools: [job], contextCompactors: [new TokenBasedContextCompactor({ tokenThreshold: 300, eventRetentionSize: 2 })] });
    const { send } = await start(agent);
    const first = await send("start the job");
    const callId = first[0]!.content!.parts![0]!.functionCall!.id!;
    const update = (status: string) => send({ role: "user", parts: [{ functionResponse: { id: callId, name: "start_job", response: { status } } }] });
    await update("running");
    // Until the client answered, the call stayed in view; now the turns that follow push it into a summary.
    scripted = [];
    for (let turn = 1; turn <= 8; turn++) await send(long(turn));
    await update("done");
    const last = model.requests.at(-1)!;
    expect(last.contents[0]!.parts![0]!.text).toMatch(/^\[Previous Context Summary\]/);
    expect(last.contents.flatMap((content) => content.parts ?? []).some((part) => part.functionResponse || part.functionCall)).toBe(false);
    expect(last.contents.at(-1)!.parts![0]!.text).toBe(`Update for the earlier call to start_job (id ${callId}), which the summary covers: {"status":"done"}`);
  });
});

describe("counting tokens", () => {
  it("without counts from the model, keeps the estimate of every request's contents within the budget", async () => {
    // A model that reports no usage: the compactor estimates (characters over four).
    let turn = 0;
    const model = new FunctionModel((request) => (isSummaryRequest(request) ? textResponse(`Summary up to turn ${turn}.`) : request.contents.at(-1)!.parts![0]!.functionResponse ? textResponse(`Done ${turn}.`) : functionCallsResponse({ name: "note", args: { text: long(turn) } })));
    const agent = new LlmAgent({ name: "worker", model, tools: [note], contextCompactors: [new TokenBasedContextCompactor({ tokenThreshold: 1_500, eventRetentionSize: 4 })] });
    const { send } = await start(agent);
    for (turn = 1; turn <= 150; turn++) await send(long(turn));
    const estimates = model.requests.filter((request) => !isSummaryRequest(request)).map((request) => request.contents.reduce((sum, content) => sum + estimateContentTokens(content), 0));
    console.log(`150 turns without reported usage: ${estimates.length} requests, largest estimated contents ${Math.max(...estimates)} tokens against 1500; ${model.requests.filter(isSummaryRequest).length} compactions`);
    expect(Math.max(...estimates)).toBeLessThanOrEqual(1_500);
  });

  it("uses the model's reported count, which holds what the estimate of contents leaves out (the instruction), to keep every request within the budget", async () => {
    // The model counts the whole request: a long instruction (about 700 tokens) and the contents.
    const model = new FunctionModel((request) => (isSummaryRequest(request) ? textResponse("Summary.") : { ...textResponse("ok"), usageMetadata: { promptTokenCount: estimateRequestTokens(request), candidatesTokenCount: 1 } }));
    const agent = new LlmAgent({ name: "worker", model, instruction: "Follow the house rules. ".repeat(117), contextCompactors: [new TokenBasedContextCompactor({ tokenThreshold: 1_000, eventRetentionSize: 2 })] });
    const { send } = await start(agent);
    for (let turn = 1; turn <= 20; turn++) await send(`Turn ${turn}: ${"words ".repeat(16)}`);
    const requests = model.requests.filter((request) => !isSummaryRequest(request));
    const whole = requests.map(estimateRequestTokens);
    const contents = requests.map((request) => request.contents.reduce((sum, content) => sum + estimateContentTokens(content), 0));
    console.log(`instruction of ${estimateRequestTokens({ ...requests[0]!, contents: [] })} tokens: largest request ${Math.max(...whole)} tokens against 1000, largest contents ${Math.max(...contents)}; ${model.requests.length - requests.length} compactions`);
    expect(Math.max(...whole)).toBeLessThanOrEqual(1_000);
    // The contents alone never came near the budget: only the reported counts made it compact.
    expect(Math.max(...contents)).toBeLessThan(400);
    expect(model.requests.length - requests.length).toBeGreaterThan(0);
  });
});

describe("compaction in a deep agent", () => {
  it("takes contextCompactors, and a result saved to a file stays there: the summariser sees its path and preview only", async () => {
    const bigTool = new FunctionTool({ name: "fetch_log", description: "Fetches the log.", execute: () => ({ status: "success", output: "log line\n".repeat(5_000) }) });
    const summarizerModel = new FunctionModel(() => textResponse("Summary: the log was saved to a file."));
    let step = 0;
    const model = new FunctionModel(() => (++step === 1 ? functionCallsResponse({ name: "fetch_log" }) : textResponse(`ok ${step}`)));
    const agent = createDeepAgent({
      model,
      tools: [bigTool],
      largeResultChars: 5_000,
      contextCompactors: [new TokenBasedContextCompactor({ tokenThreshold: 800, eventRetentionSize: 2, summarizer: new LlmSummarizer({ llm: summarizerModel }) })],
    });
    expect(agent.contextCompactors).toHaveLength(1);
    const { send } = await start(agent);
    await send("fetch the log");
    for (let turn = 1; turn <= 8; turn++) await send(long(turn));
    expect(summarizerModel.requests.length).toBeGreaterThan(0);
    const summarised = summarizerModel.requests[0]!.contents[0]!.parts![0]!.text!;
    expect(summarised).toContain("/large_tool_results/fetch_log-");
    expect(summarised.length).toBeLessThan(12_000);
    for (const request of [...model.requests, ...summarizerModel.requests]) expect(JSON.stringify(request.contents)).not.toContain("log line\\nlog line\\n".repeat(600));
  });
});
