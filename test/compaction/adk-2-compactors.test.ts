import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AgentControlledContextCompactor,
  AnchoredContextCompactor,
  BasePlugin,
  ConsolidateContextTool,
  ContextCompactionTrigger,
  createEvent,
  InMemorySessionService,
  isCompactedEvent,
  LlmAgent,
  LlmSummarizer,
  Runner,
  ToolsmithError,
  TrajectoryThoughtPruningCompactor,
  TruncatingContextCompactor,
  type Event,
  type LlmRequest,
  type LlmResponse,
  type Part,
} from "toolsmith";
import { collect, FunctionModel, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "toolsmith/testing";

const event = (author: string, parts: Part[], extra: Partial<Event> = {}): Event => createEvent({ invocationId: "i", author, content: { role: author === "user" ? "user" : "model", parts }, ...extra });
const call = (id: string, name = "tool"): Part => ({ functionCall: { id, name, args: {} } });
const answer = (id: string, response: Record<string, unknown> = { ok: true }, name = "tool"): Part => ({ functionResponse: { id, name, response } });
const said = (history: readonly Event[]) => history.map((item) => item.content?.parts?.map((part) => part.text ?? part.functionCall?.id ?? `=${part.functionResponse?.id}`).join("+"));

/** A runner over `agent` with one session; `send` runs a turn, `stored` reads the session back. */
async function start(agent: LlmAgent, plugins: BasePlugin[] = []) {
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: "app", agent, sessionService, plugins });
  const created = await sessionService.createSession({ appName: "app", userId: "u" });
  const send = (message: string) => collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: userMessage(message) }));
  const stored = async () => (await sessionService.getSession({ appName: "app", userId: "u", sessionId: created.id }))!;
  return { send, stored };
}

/** A model answering from `script`, keeping each request it was sent. */
function recordingModel(script: Array<LlmResponse | ((request: LlmRequest) => LlmResponse)>) {
  const requests: LlmRequest[] = [];
  const model = new FunctionModel((request) => {
    requests.push(structuredClone(request));
    const next = script.shift();
    if (!next) throw new Error("The script ran out.");
    return typeof next === "function" ? next(request) : next;
  });
  return { model, requests };
}

const contentsSaid = (request: LlmRequest) => request.contents.map((content) => content.parts?.map((part) => part.text ?? (part.functionCall ? `call ${part.functionCall.name}` : `answer ${part.functionResponse?.name}`)).join("+"));

describe("TruncatingContextCompactor", () => {
  it("refuses a threshold or a leading count that is not a whole number of events, naming it", () => {
    for (const options of [{ threshold: -1 }, { threshold: 1.5 }, { threshold: "3" }, {}, { threshold: 3, preserveLeadingEvents: -2 }]) {
      const made = () => new TruncatingContextCompactor(options as never);
      expect(made).toThrow(ToolsmithError);
      expect(made).toThrow(/^TruncatingContextCompactor: (threshold|preserveLeadingEvents) must be a whole number of events, 0 or more, not /);
    }
    expect(() => new TruncatingContextCompactor(undefined as never)).toThrow(/threshold must be a whole number/);
  });

  it("shows the first events and the latest window, and leaves a history within it as it is", () => {
    const history = ["one", "two", "three", "four", "five", "six"].map((text, index) => event(index % 2 ? "agent" : "user", [{ text }]));
    const compactor = new TruncatingContextCompactor({ threshold: 2, preserveLeadingEvents: 1 });
    expect(said(compactor.view(history))).toEqual(["one", "five", "six"]);
    const short = history.slice(0, 3);
    expect(compactor.view(short)).toBe(short);
    expect(said(new TruncatingContextCompactor({ threshold: 0 }).view(history))).toEqual([]);
  });

  it("never parts a call from its answer: the window reaches back to the call, and a leading call keeps its answer", () => {
    const history = [event("user", [{ text: "go" }]), event("agent", [call("a"), call("b")]), event("agent", [answer("a"), answer("b")]), event("agent", [{ text: "done" }]), event("user", [{ text: "next" }])];
    // The latest three would start at the answers: the calls come too.
    expect(said(new TruncatingContextCompactor({ threshold: 3 }).view(history))).toEqual(["a+b", "=a+=b", "done", "next"]);
    // A leading event that calls keeps the answer after it, however late it comes.
    const leadingCall = [event("agent", [call("c")]), event("agent", [answer("c")]), event("user", [{ text: "x" }]), event("agent", [{ text: "y" }]), event("user", [{ text: "z" }])];
    expect(said(new TruncatingContextCompactor({ threshold: 1, preserveLeadingEvents: 1 }).view(leadingCall))).toEqual(["c", "=c", "z"]);
    const lateAnswer = [event("agent", [call("d")]), event("user", [{ text: "x" }]), event("agent", [answer("d")]), event("agent", [{ text: "y" }]), event("user", [{ text: "z" }]), event("agent", [{ text: "w" }])];
    expect(said(new TruncatingContextCompactor({ threshold: 1, preserveLeadingEvents: 1 }).view(lateAnswer))).toEqual(["d", "x", "=d", "w"]);
  });

  it("keeps a call still waiting in view however old, with what answered it so far", () => {
    const history = [event("user", [{ text: "go" }]), event("agent", [call("p")]), event("agent", [answer("p", { status: "paused", waitingFor: "client" })]), event("user", [{ text: "meanwhile" }]), event("agent", [{ text: "ok" }]), event("user", [{ text: "still?" }])];
    expect(said(new TruncatingContextCompactor({ threshold: 2 }).view(history))).toEqual(["p", "=p", "ok", "still?"]);
  });

  it("keeps, in any history and for any window, every answer's call ahead of it, the events' order, the leading events and the latest window (fuzzed)", () => {
    // A history: turns of user text, model text, or a batch of calls answered in the next event (or left waiting).
    const step = fc.oneof(fc.constant("user"), fc.constant("text"), fc.integer({ min: 1, max: 3 }), fc.constant("waiting"), fc.constant("late"));
    let histories = 0;
    let cut = 0;
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), fc.nat(12), fc.nat(4), (steps, threshold, leading) => {
        const history: Event[] = [];
        let ids = 0;
        for (const kind of steps) {
          if (kind === "user") history.push(event("user", [{ text: `u${history.length}` }]));
          else if (kind === "text") history.push(event("agent", [{ text: `t${history.length}` }]));
          else if (kind === "late") {
            // A call answered after something else was said (a long-running job's result, say).
            const id = `l${ids++}`;
            history.push(event("agent", [call(id)]), event("user", [{ text: `meanwhile ${history.length}` }]), event("agent", [answer(id)]));
          } else if (kind === "waiting") {
            const id = `w${ids++}`;
            history.push(event("agent", [call(id)]), event("agent", [answer(id, { status: "paused", waitingFor: "client" })]));
          } else {
            const batch = Array.from({ length: kind }, () => `c${ids++}`);
            history.push(event("agent", batch.map((id) => call(id))), event("agent", batch.map((id) => answer(id))));
          }
        }
        const shown = new TruncatingContextCompactor({ threshold, preserveLeadingEvents: leading }).view(history);
        histories++;
        if (shown.length < history.length) cut++;
        // A subsequence of the history, in order, holding the first events and the latest window.
        const positions = shown.map((item) => history.indexOf(item));
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
        expect(new Set(positions).size).toBe(positions.length);
        for (let index = 0; index < Math.min(leading, history.length); index++) expect(positions).toContain(index);
        for (let index = Math.max(0, history.length - threshold); index < history.length; index++) expect(positions).toContain(index);
        // Every answer has its call earlier in what is shown, and every call its answers.
        const calledIds = new Set<string>();
        for (const item of shown) {
          for (const part of item.content?.parts ?? []) {
            if (part.functionCall?.id) calledIds.add(part.functionCall.id);
            if (part.functionResponse?.id) expect(calledIds.has(part.functionResponse.id)).toBe(true);
          }
        }
        const answered = new Set(shown.flatMap((item) => item.content?.parts?.map((part) => part.functionResponse?.id).filter(Boolean) ?? []));
        const answeredInHistory = new Set(history.flatMap((item) => item.content?.parts?.map((part) => part.functionResponse?.id).filter(Boolean) ?? []));
        for (const id of calledIds) if (answeredInHistory.has(id)) expect(answered.has(id)).toBe(true);
      }),
      { numRuns: 500 },
    );
    console.log(`truncation fuzz: ${histories} histories, ${cut} of them cut, no answer parted from its call`);
    expect(cut).toBeGreaterThan(histories / 4);
  });

  it("in a run, sends the model the window and stores nothing: the session keeps every event, and the hooks hear each truncation", async () => {
    const hooks: string[] = [];
    class Watch extends BasePlugin {
      constructor() {
        super("watch");
      }
      override async afterContextCompaction({ trigger }: { trigger: ContextCompactionTrigger }) {
        hooks.push(trigger);
      }
    }
    const { model, requests } = recordingModel([textResponse("a1"), textResponse("a2"), textResponse("a3")]);
    const agent = new LlmAgent({ name: "chat", model, contextCompactors: [new TruncatingContextCompactor({ threshold: 2, preserveLeadingEvents: 1 })] });
    const { send, stored } = await start(agent, [new Watch()]);
    for (const message of ["u1", "u2", "u3"]) await send(message);
    expect(requests.map(contentsSaid)).toEqual([["u1"], ["u1", "a1", "u2"], ["u1", "a2", "u3"]]);
    // The third request is the first over the window (five events against two and one).
    expect(hooks).toEqual(["Auto"]);
    const session = await stored();
    expect(session.events.map((item) => item.content?.parts?.[0]?.text)).toEqual(["u1", "a1", "u2", "a2", "u3", "a3"]);
    expect(session.events.some(isCompactedEvent)).toBe(false);
  });
});

describe("TrajectoryThoughtPruningCompactor", () => {
  const thinking = (text: string, thought: string) => event("agent", [{ text: thought, thought: true }, { text }]);

  it("refuses an eventRetentionSize that is not a whole number of events", () => {
    for (const size of [-1, 0.5, "2", undefined]) {
      expect(() => new TrajectoryThoughtPruningCompactor({ eventRetentionSize: size as never })).toThrow(/^TrajectoryThoughtPruningCompactor: eventRetentionSize must be a whole number of events, 0 or more, not /);
    }
  });

  it("leaves the thoughts out of all but the latest events, in copies: the events themselves keep them", () => {
    const history = [event("user", [{ text: "q" }]), thinking("a1", "hmm 1"), event("user", [{ text: "q2" }]), thinking("a2", "hmm 2"), event("agent", [{ text: "only a thought", thought: true }])];
    const before = structuredClone(history);
    const shown = new TrajectoryThoughtPruningCompactor({ eventRetentionSize: 1 }).view(history);
    expect(shown.map((item) => item.content?.parts?.map((part) => (part.thought ? `T:${part.text}` : part.text)))).toEqual([["q"], ["a1"], ["q2"], ["a2"], ["T:only a thought"]]);
    expect(history).toEqual(before);
    // Nothing to prune: the history itself comes back.
    const plain = [event("user", [{ text: "q" }])];
    expect(new TrajectoryThoughtPruningCompactor({ eventRetentionSize: 0 }).view(plain)).toBe(plain);
  });

  it("in a run, sends older answers without their thoughts, keeps them in the session, and asks to compact only when an older event has thoughts", async () => {
    const { model, requests } = recordingModel([thinkingResponse("a1"), thinkingResponse("a2"), textResponse("a3")]);
    const compactor = new TrajectoryThoughtPruningCompactor({ eventRetentionSize: 2 });
    const asked: boolean[] = [];
    const watched = { shouldCompact: (context: never) => (asked.push(compactor.shouldCompact(context)), false), compact: async () => undefined };
    const { send, stored } = await start(new LlmAgent({ name: "thinker", model, contextCompactors: [watched, compactor] }));
    for (const message of ["u1", "u2", "u3"]) await send(message);
    const parts = (request: LlmRequest) => request.contents.map((content) => content.parts!.map((part) => (part.thought ? `T:${part.text}` : part.text)).join("+"));
    expect(requests.map(parts)).toEqual([["u1"], ["u1", "T:thinking a1+a1", "u2"], ["u1", "a1", "u2", "T:thinking a2+a2", "u3"]]);
    // Only before the third call is an event older than the latest two one with thoughts.
    expect(asked).toEqual([false, false, true]);
    const session = await stored();
    expect(session.events.filter((item) => item.author === "thinker").map((item) => item.content!.parts!.length)).toEqual([2, 2, 1]);
  });
});

function thinkingResponse(text: string): LlmResponse {
  return { content: { role: "model", parts: [{ text: `thinking ${text}`, thought: true }, { text }] } };
}

describe("ConsolidateContextTool and AgentControlledContextCompactor", () => {
  const isSummaryRequest = (request: LlmRequest) => request.functionDeclarations.length === 0 && /^Below is the earlier part of a conversation/.test(request.contents[0]?.parts?.[0]?.text ?? "");

  it("offers the model ADK's consolidate_context, which records the request and its detail in temp: state and answers as ADK's", async () => {
    const tool = new ConsolidateContextTool();
    expect(tool.declaration()).toEqual({
      name: "consolidate_context",
      description: "Requests context consolidation (compaction) to manage history size. Use this when a subtask is complete and you want to summarize progress and clear detailed history.",
      parameters: { type: "object", properties: { detail: { type: "string", description: "Optional description of what has been accomplished so far. This detail will be used to guide the summarization of the history." } } },
    });
    const model = new ScriptedModel([functionCallsResponse({ name: "consolidate_context", args: { detail: "step 1 done" } }), textResponse("ok")]);
    let recorded: Record<string, unknown> | undefined;
    const afterToolCallback = ({ context }: { context: { actions: { stateDelta: Record<string, unknown> } } }) => {
      recorded = { ...context.actions.stateDelta };
      return undefined;
    };
    const { send } = await start(new LlmAgent({ name: "worker", model, tools: [tool], afterToolCallback }));
    const events = await send("go");
    const response = events.find((item) => item.content?.parts?.[0]?.functionResponse)!;
    expect(response.content!.parts![0]!.functionResponse!.response).toEqual({ status: "success", message: "Context consolidation requested." });
    expect(recorded).toEqual({ "temp:consolidate_context": true, "temp:consolidate_context_detail": "step 1 done" });
    // They last for the invocation: the event as stored, and as yielded (as ADK yields it), is without them.
    expect(response.actions.stateDelta).toEqual({});
  });

  it("summarises the history before the model's latest request, guided by its detail, stores the record and sends the summary, the call and what followed", async () => {
    const triggers: string[] = [];
    class Watch extends BasePlugin {
      constructor() {
        super("watch");
      }
      override async beforeContextCompaction({ trigger }: { trigger: ContextCompactionTrigger }) {
        triggers.push(trigger);
      }
    }
    const { model, requests } = recordingModel([
      textResponse("a1"),
      functionCallsResponse({ name: "consolidate_context", args: { detail: "the plan" } }),
      (request) => (isSummaryRequest(request) ? textResponse("SUMMARY") : textResponse("not asked for a summary")),
      textResponse("a2"),
      textResponse("a3"),
    ]);
    // No summariser given: the agent's own model writes the summary.
    const agent = new LlmAgent({ name: "worker", model, tools: [new ConsolidateContextTool()], contextCompactors: [new AgentControlledContextCompactor()] });
    const { send, stored } = await start(agent, [new Watch()]);
    await send("u1");
    await send("u2");
    expect(triggers).toEqual([ContextCompactionTrigger.AgentControlled]);
    const summaryText = requests[2]!.contents[0]!.parts![0]!.text!;
    expect(summaryText).toMatch(/\[Event 1 - Author: user\]\nu1\n\n\[Event 2 - Author: worker\]\na1\n\n\[Event 3 - Author: user\]\nu2\n\n\[Event 4 - Author: system\]\nCRITICAL INSTRUCTION FOR SUMMARY: Please summarize the history\. Focus especially on: the plan$/);
    expect(contentsSaid(requests[3]!)).toEqual(["[Previous Context Summary]:\nSUMMARY", "call consolidate_context", "answer consolidate_context"]);
    // The request is spent: the next turn is not compacted again, and sees the summary and what followed.
    await send("u3");
    expect(triggers).toHaveLength(1);
    expect(contentsSaid(requests[4]!)).toEqual(["[Previous Context Summary]:\nSUMMARY", "call consolidate_context", "answer consolidate_context", "a2", "u3"]);
    const session = await stored();
    const records = session.events.filter(isCompactedEvent);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ author: "worker", compactedContent: "SUMMARY", compactedEventCount: 3, compactedThroughEventId: session.events[2]!.id });
    expect(session.events.filter((item) => !isCompactedEvent(item)).map((item) => item.author)).toEqual(["user", "worker", "user", "worker", "worker", "worker", "user", "worker"]);
    expect(Object.keys(session.state)).toEqual([]);
  });

  it("a summariser that fails ends the turn with COMPACTION_FAILED, keeps the history whole and spends the request", async () => {
    const { model } = recordingModel([functionCallsResponse({ name: "consolidate_context", args: {} }), textResponse("after the failure"), textResponse("later")]);
    const failing = new LlmSummarizer({ llm: new FunctionModel(() => ({ errorCode: "RATE_LIMITED", errorMessage: "slow down" })) });
    const agent = new LlmAgent({ name: "worker", model, tools: [new ConsolidateContextTool()], contextCompactors: [new AgentControlledContextCompactor({ summarizer: failing })] });
    const { send, stored } = await start(agent);
    const events = await send("u1");
    const failed = events.at(-1)!;
    expect(failed.errorCode).toBe("COMPACTION_FAILED");
    expect(failed.errorMessage).toContain("Nothing was removed: the session keeps every event.");
    expect(failed.errorMessage).toContain("RATE_LIMITED");
    // The next turn goes on without trying again.
    const next = await send("u2");
    expect(next.at(-1)!.content?.parts?.[0]?.text).toBe("after the failure");
    expect((await stored()).events.some(isCompactedEvent)).toBe(false);
  });

  it("with nothing before the request to summarise, stores nothing and spends the request", async () => {
    const compactor = new AgentControlledContextCompactor({ summarizer: { summarize: () => Promise.reject(new Error("not to be called")) } });
    const state: Record<string, unknown> = { "temp:consolidate_context": true, "temp:consolidate_context_detail": "x" };
    const session = { id: "s", appName: "app", userId: "u", state, events: [event("agent", [{ functionCall: { id: "c", name: "consolidate_context", args: {} } }])], lastUpdateTime: 0 };
    const context = { session, agent: { name: "agent" }, branch: undefined } as never;
    expect(compactor.shouldCompact(context)).toBe(true);
    expect(await compactor.compact(context)).toBeUndefined();
    expect(state).toEqual({});
    expect(compactor.shouldCompact(context)).toBe(false);
    expect(compactor.trigger).toBe(ContextCompactionTrigger.AgentControlled);
  });
});

describe("AnchoredContextCompactor", () => {
  const contextOf = (events: Event[]) => ({ session: { id: "s", appName: "app", userId: "u", state: {}, events, lastUpdateTime: 0 }, agent: { name: "agent" }, branch: undefined, invocationId: "i" }) as never;
  const reported = (text: string, promptTokenCount: number) => event("agent", [{ text }], { usageMetadata: { promptTokenCount } });

  it("refuses a threshold or a retention that is not a whole number, naming it", () => {
    expect(() => new AnchoredContextCompactor({ tokenThreshold: 0, eventRetentionSize: 1 })).toThrow(/^AnchoredContextCompactor: tokenThreshold must be a positive whole number of tokens, not 0\.$/);
    expect(() => new AnchoredContextCompactor({ tokenThreshold: 10, eventRetentionSize: -1 })).toThrow(/^AnchoredContextCompactor: eventRetentionSize must be a whole number of events, 0 or more, not -1\.$/);
  });

  it("counts tokens as ADK does: each event's reported prompt tokens, else its text (thoughts aside) over four", () => {
    const compactor = new AnchoredContextCompactor({ tokenThreshold: 50, eventRetentionSize: 1 });
    // 4 + 40 + 4 = 48 tokens: within; a thought does not count.
    const within = [event("user", [{ text: "x".repeat(16) }]), reported("a", 40), event("user", [{ text: "y".repeat(16) }, { text: "z".repeat(400), thought: true }])];
    expect(compactor.shouldCompact(contextOf(within))).toBe(false);
    expect(compactor.shouldCompact(contextOf([...within, reported("b", 3)]))).toBe(true);
  });

  it("keeps the latest event even with eventRetentionSize 0, and never summarises a waiting call", async () => {
    const summarised: string[][] = [];
    const summarizer = { summarize: async (events: readonly Event[]) => (summarised.push(said(events) as string[]), { ...createEvent({ invocationId: "", author: "system" }), isCompacted: true as const, startTime: 0, endTime: 0, compactedContent: "S", compactedThroughEventId: events.at(-1)!.id, compactedEventCount: events.length }) };
    const compactor = new AnchoredContextCompactor({ tokenThreshold: 1, eventRetentionSize: 0, summarizer });
    const history = [event("user", [{ text: "go" }]), event("agent", [call("p")]), event("agent", [answer("p", { status: "paused", waitingFor: "client" })]), reported("meanwhile", 100), event("user", [{ text: "and now?" }])];
    expect(compactor.shouldCompact(contextOf(history))).toBe(true);
    const record = (await compactor.compact(contextOf(history)))!;
    expect(summarised).toEqual([["go", "meanwhile"]]);
    expect(record).toMatchObject({ isScratchpad: true, compactedContent: "S", compactedThroughEventId: history[3]!.id });
    expect(said(record.keptEvents!)).toEqual(["p", "=p"]);
    // One event: nothing before it to summarise.
    expect(compactor.shouldCompact(contextOf([reported("alone", 500)]))).toBe(false);
  });
});
