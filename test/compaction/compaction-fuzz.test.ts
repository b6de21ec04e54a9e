import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FunctionTool, InMemorySessionService, isCompactedEvent, LlmAgent, LlmSummarizer, LongRunningFunctionTool, Runner, TokenBasedContextCompactor, type Content, type Event, type LlmRequest, type LlmResponse } from "toolsmith";
import { collect, FunctionModel, textResponse } from "toolsmith/testing";

/** The model's own count: JSON characters over three (more than toolsmith's estimate, as real tokenizers count JSON). */
const requestTokens = (request: LlmRequest) => Math.ceil(JSON.stringify({ system: request.systemInstruction, contents: request.contents, tools: request.functionDeclarations }).length / 3);

/** Problems with calls and answers in one request: each call answered in the next content, each answer after its call. */
function brokenPairs(request: LlmRequest): string[] {
  const ids = (content: Content | undefined, kind: "functionCall" | "functionResponse") => (content?.parts ?? []).flatMap((part) => (part[kind]?.id ? [part[kind]!.id!] : []));
  return request.contents.flatMap((content, index) => [
    ...ids(content, "functionCall").filter((id) => !ids(request.contents[index + 1], "functionResponse").includes(id)).map((id) => `call ${id} unanswered`),
    ...ids(content, "functionResponse").filter((id) => !ids(request.contents[index - 1], "functionCall").includes(id)).map((id) => `answer ${id} without its call`),
  ]);
}

/** A turn of a fuzzed session: what the user asks the model to do. */
const turn = fc.oneof(
  fc.record({ kind: fc.constant("talk" as const), length: fc.integer({ min: 10, max: 600 }) }),
  fc.record({ kind: fc.constant("calls" as const), count: fc.integer({ min: 1, max: 4 }), length: fc.integer({ min: 10, max: 400 }) }),
  fc.record({ kind: fc.constant("job" as const), after: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant("ask" as const), after: fc.integer({ min: 1, max: 6 }) }),
);

describe("compaction over fuzzed sessions", () => {
  it("never parts a call from its answer, never loses a stored event, and records each compaction once, whatever the turns, budget and retention", async () => {
    const figures = { sessions: 0, requests: 0, compactions: 0, overBudget: 0, largestOver: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(turn, { minLength: 5, maxLength: 40 }), fc.integer({ min: 800, max: 4_000 }), fc.integer({ min: 0, max: 8 }), async (turns, budget, retention) => {
        // The model does what the current turn says; it summarises when asked by the summariser.
        let current = turns[0]!;
        const respond = (request: LlmRequest): LlmResponse => {
          const last = request.contents.at(-1)?.parts ?? [];
          const usage = { promptTokenCount: requestTokens(request), candidatesTokenCount: 5 };
          if (last.some((part) => part.functionResponse) || current.kind === "talk") return { ...textResponse("x".repeat(current.kind === "talk" ? current.length : 20)), usageMetadata: usage };
          const calls = current.kind === "calls" ? Array.from({ length: current.count }, (_, index) => ({ name: "lookup", args: { index, text: "y".repeat(current.kind === "calls" ? current.length : 0) } })) : [{ name: current.kind === "job" ? "start_job" : "ask_manager", args: {} }];
          return { content: { role: "model", parts: calls.map((functionCall) => ({ functionCall })) }, usageMetadata: usage };
        };
        const model = new FunctionModel(respond);
        const summarizerModel = new FunctionModel(() => textResponse(`Summary ${"s".repeat(80)}`));
        const agent = new LlmAgent({
          name: "worker",
          model,
          tools: [
            new FunctionTool({ name: "lookup", description: "Looks up.", execute: (args) => ({ found: args }) }),
            new LongRunningFunctionTool({ name: "start_job", description: "Starts a job.", execute: () => ({ status: "pending" }) }),
            new LongRunningFunctionTool({ name: "ask_manager", description: "Asks a manager.", execute: () => undefined }),
          ],
          contextCompactors: [new TokenBasedContextCompactor({ tokenThreshold: budget, eventRetentionSize: retention, summarizer: new LlmSummarizer({ llm: summarizerModel }) })],
        });
        const sessionService = new InMemorySessionService();
        const runner = new Runner({ appName: "app", agent, sessionService });
        const session = await sessionService.createSession({ appName: "app", userId: "u" });
        const due = new Map<number, Array<{ id: string; name: string }>>();
        const yielded: Event[] = [];
        let userMessages = 0;
        const send = async (message: Content) => {
          const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: message }));
          userMessages++;
          yielded.push(...events);
          return events;
        };
        for (const [index, planned] of turns.entries()) {
          for (const call of due.get(index) ?? []) await send({ role: "user", parts: [{ functionResponse: { id: call.id, name: call.name, response: { status: "done" } } }] });
          current = planned;
          const events = await send({ role: "user", parts: [{ text: `turn ${index} ${"z".repeat(planned.kind === "talk" ? planned.length : 30)}` }] });
          if (planned.kind === "job" || planned.kind === "ask") {
            const call = events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall)!.functionCall!;
            const at = index + planned.after;
            due.set(at, [...(due.get(at) ?? []), { id: call.id!, name: call.name! }]);
          }
        }
        for (const [, calls] of [...due].filter(([at]) => at >= turns.length)) for (const call of calls) await send({ role: "user", parts: [{ functionResponse: { id: call.id, name: call.name, response: { status: "done" } } }] });

        expect(yielded.filter((event) => event.errorCode)).toEqual([]);
        expect(model.requests.flatMap(brokenPairs)).toEqual([]);
        expect(model.requests.some((request) => JSON.stringify(request.contents).includes("which the summary covers"))).toBe(false);
        const stored = (await sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!.events;
        expect(stored.filter((event) => event.author !== "user").map((event) => event.id)).toEqual(yielded.map((event) => event.id));
        expect(stored.filter((event) => event.author === "user")).toHaveLength(userMessages);
        const records = stored.filter(isCompactedEvent);
        expect(records).toHaveLength(summarizerModel.requests.length);
        figures.sessions++;
        figures.requests += model.requests.length;
        figures.compactions += records.length;
        for (const request of model.requests) {
          const over = requestTokens(request) - budget;
          if (over > 0) {
            if (process.env.FUZZ_DEBUG) console.log(`budget ${budget} retention ${retention}: over by ${over}: ${request.contents.map((content) => `${content.parts![0]!.text?.startsWith("[Previous") ? "S" : content.parts!.some((part) => part.functionCall) ? `C(${content.parts!.map((part) => part.functionCall?.name?.slice(0, 3)).join(",")})` : content.parts!.some((part) => part.functionResponse) ? `R(${JSON.stringify(content.parts![0]!.functionResponse!.response).slice(0, 12)})` : "T"}${Math.ceil(JSON.stringify(content).length / 3)}`).join(" ")} sys+tools ${requestTokens({ ...request, contents: [] })}`);
            figures.overBudget++;
            figures.largestOver = Math.max(figures.largestOver, over);
          }
        }
      }),
      { numRuns: 40 },
    );
    console.log(
      `${figures.sessions} fuzzed sessions, ${figures.requests} model requests, ${figures.compactions} compactions; ` +
        `${figures.overBudget} requests over their budget (largest by ${figures.largestOver} tokens: what cannot be summarised, the eventRetentionSize latest events, calls still waiting, and the turn being answered, outgrew a budget as small as 800)`,
    );
  }, 300_000);
});
