import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ClientResponseError, getPendingUserInputRequests, InMemoryRunner, LlmAgent, node, NodeTool, RequestInput, Workflow, type Content, type Event } from "../../src/index.js";
import { functionCallsResponse, ScriptedModel, textResponse } from "../../src/testing/index.js";

/**
 * A node run as a tool that asks two questions, answered by a hostile person: random sequences of right, wrong-shaped,
 * replayed, early, misnamed and unknown answers and plain text. Whatever comes, no step runs twice, a refused answer
 * stores nothing, the questions waiting are the ones the node is stopped at, and the call ends once, with the
 * answers that were accepted.
 */

type Move = { kind: "valid-a"; ok: boolean } | { kind: "wrong-shape-a" } | { kind: "answer-b"; text: string } | { kind: "unknown-id" } | { kind: "misnamed" } | { kind: "text" };

const move: fc.Arbitrary<Move> = fc.oneof(
  fc.boolean().map((ok) => ({ kind: "valid-a" as const, ok })),
  fc.constant({ kind: "wrong-shape-a" as const }),
  fc.string({ maxLength: 8 }).map((text) => ({ kind: "answer-b" as const, text })),
  fc.constant({ kind: "unknown-id" as const }),
  fc.constant({ kind: "misnamed" as const }),
  fc.constant({ kind: "text" as const }),
);

/** A text answer as ADK reads it for a question without a schema: JSON when it parses, else the text. */
function readAsAdk(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function messageOf(move: Move): Content {
  const respond = (id: string, name: string, response: Record<string, unknown>): Content => ({ role: "user", parts: [{ functionResponse: { id, name, response } }] });
  switch (move.kind) {
    case "valid-a":
      return respond("a", "adk_request_input", { ok: move.ok });
    case "wrong-shape-a":
      return respond("a", "adk_request_input", { ok: "maybe" });
    case "answer-b":
      return respond("b", "adk_request_input", { result: move.text });
    case "unknown-id":
      return respond("zzz", "adk_request_input", { result: "x" });
    case "misnamed":
      return respond("a", "adk_request_confirmation", { confirmed: true });
    case "text":
      return { role: "user", parts: [{ text: "how is it going?" }] };
  }
}

describe("a NodeTool that asks the person, fuzzed with hostile answers", () => {
  it("runs each step at most once, stores nothing for a refused answer, and ends the call once with the accepted answers", async () => {
    const tally = { refused: 0, mismatched: 0, finished: 0, messages: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(move, { minLength: 1, maxLength: 12 }), async (moves) => {
        const ran = { first: 0, second: 0, third: 0 };
        const first = node((_ctx, input: string) => (ran.first++, `checked ${input}`), { name: "first" });
        const askA = node(async function* askA() {
          yield new RequestInput({ interruptId: "a", message: "Go ahead?", responseSchema: z.object({ ok: z.boolean() }) });
        }, { name: "ask_a" });
        const second = node((_ctx, decision: { ok: boolean }) => (ran.second++, decision.ok ? "approved" : "declined"), { name: "second" });
        const askB = node(async function* askB() {
          yield new RequestInput({ interruptId: "b", message: "Any note?" });
        }, { name: "ask_b" });
        const third = node((_ctx, note: unknown) => (ran.third++, `done with ${JSON.stringify(note)}`), { name: "third" });
        const flow = new Workflow({ name: "flow", edges: [["START", first, askA, second, askB, third]], inputSchema: z.string() });
        const model = new ScriptedModel([functionCallsResponse({ name: "flow", args: { request: "order" } }), ...Array.from({ length: 20 }, () => textResponse("noted"))]);
        const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "clerk", model, tools: [new NodeTool(flow)] }), appName: "app" });
        const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
        const stored = async () => (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!.events;
        for await (const _ of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "start" }] } }));

        let decision: boolean | undefined;
        let note: string | undefined;
        for (const step of moves) {
          tally.messages++;
          const before = await stored();
          const events: Event[] = [];
          try {
            for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: messageOf(step) })) events.push(event);
          } catch (error) {
            // Only a client answer is refused, and then nothing is stored.
            expect(error).toBeInstanceOf(ClientResponseError);
            expect((await stored()).length).toBe(before.length);
            tally.refused++;
            continue;
          }
          if (events.some((event) => event.errorCode === "INTERRUPT_ANSWER_MISMATCH")) tally.mismatched++;
          // No run ends with any other error.
          expect(events.filter((event) => event.errorCode && event.errorCode !== "INTERRUPT_ANSWER_MISMATCH")).toEqual([]);
          if (step.kind === "valid-a" && decision === undefined) decision = step.ok;
          else if (step.kind === "answer-b" && decision !== undefined && note === undefined) note = step.text;
        }

        // Each step ran at most once, and only once its question was answered.
        expect(ran).toEqual({ first: 1, second: decision === undefined ? 0 : 1, third: note === undefined ? 0 : 1 });
        const events = await stored();
        const waiting = getPendingUserInputRequests(events).map((request) => request.interruptId);
        expect(waiting).toEqual(decision === undefined ? ["a"] : note === undefined ? ["b"] : []);
        const results = events.flatMap((event) => event.content?.parts ?? []).filter((part) => part.functionResponse?.name === "flow" && part.functionResponse.response?.status !== "paused");
        if (note === undefined) expect(results).toEqual([]);
        else {
          tally.finished++;
          expect(results.map((part) => part.functionResponse!.response)).toEqual([{ result: `done with ${JSON.stringify(readAsAdk(note))}` }]);
        }
      }),
      { numRuns: 300 },
    );
    console.log(`fuzzed 300 conversations, ${tally.messages} messages: ${tally.refused} answers refused before storing, ${tally.mismatched} refused by the question's schema, ${tally.finished} calls finished`);
    expect(tally.refused).toBeGreaterThan(0);
    expect(tally.mismatched).toBeGreaterThan(0);
    expect(tally.finished).toBeGreaterThan(0);
  });
});
