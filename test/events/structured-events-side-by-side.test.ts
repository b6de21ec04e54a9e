/**
 * `toStructuredEvents`, `hasThoughts` and `pruneThoughts`, ADK 2's readings of an event, run on `@google/adk` 2.0
 * and on toolsmith over the same events: 2,000 random ones (parts of every kind, empty ones, thoughts, error
 * events, confirmations asked, partial and long-running events), and the same answer from both.
 */
import * as adk from "@google/adk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EventType, hasThoughts, pruneThoughts, toStructuredEvents, type Event } from "../../src/index.js";

const text = fc.oneof(fc.constant(""), fc.string({ maxLength: 6 }));
const part = fc.oneof(
  fc.record({ text, thought: fc.option(fc.boolean(), { nil: undefined }) }, { requiredKeys: ["text"] }),
  fc.record({ functionCall: fc.oneof(fc.constant({}), fc.record({ name: fc.constantFrom("a", "b"), args: fc.constant({ x: 1 }), id: fc.constantFrom("c1", "c2") })) }),
  fc.record({ functionResponse: fc.oneof(fc.constant({}), fc.record({ name: fc.constantFrom("a", "b"), response: fc.constant({ ok: true }), id: fc.constant("c1") })) }),
  fc.record({ executableCode: fc.oneof(fc.constant({}), fc.constant({ code: "print(1)", language: "PYTHON" })) }),
  fc.record({ codeExecutionResult: fc.oneof(fc.constant({}), fc.constant({ outcome: "OUTCOME_OK", output: "1" })) }),
);
const event = fc.record(
  {
    parts: fc.option(fc.array(part, { maxLength: 4 }), { nil: undefined }),
    errorCode: fc.option(fc.constantFrom("MODEL_ERROR", ""), { nil: undefined }),
    errorMessage: fc.option(fc.constantFrom("It broke.", ""), { nil: undefined }),
    confirmations: fc.oneof(fc.constant({}), fc.constant({ c1: { hint: "Sure?", confirmed: false } })),
    partial: fc.option(fc.boolean(), { nil: undefined }),
    longRunning: fc.boolean(),
    skipSummarization: fc.boolean(),
  },
  { requiredKeys: ["confirmations", "longRunning", "skipSummarization"] },
).map((drawn) => ({
  id: "e1",
  invocationId: "i1",
  author: "agent",
  timestamp: 1,
  ...(drawn.parts ? { content: { role: "model", parts: drawn.parts } } : {}),
  ...(drawn.errorCode !== undefined ? { errorCode: drawn.errorCode, errorMessage: drawn.errorMessage } : {}),
  ...(drawn.partial !== undefined ? { partial: drawn.partial } : {}),
  ...(drawn.longRunning ? { longRunningToolIds: ["c1"] } : {}),
  actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: drawn.confirmations, ...(drawn.skipSummarization ? { skipSummarization: true } : {}) },
}));

/** Errors compared by their message. */
const comparable = (items: unknown[]) => items.map((item) => ((item as { error?: Error }).error ? { ...(item as object), error: (item as { error: Error }).error.message } : item));

describe("ADK 2's structured events, side by side with @google/adk 2.0", () => {
  it("reads 2,000 random events as ADK does: the same structured events, thoughts found and pruned alike", () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(event, (drawn) => {
        const ours = toStructuredEvents(drawn as unknown as Event);
        const theirs = adk.toStructuredEvents(drawn as never);
        expect(comparable(ours)).toEqual(comparable(theirs));
        for (const item of ours) seen.set(item.type, (seen.get(item.type) ?? 0) + 1);
        expect(hasThoughts(drawn as unknown as Event)).toBe(adk.hasThoughts(drawn as never));
        expect(pruneThoughts(drawn as unknown as Event)).toEqual(adk.pruneThoughts(drawn as never));
      }),
      { numRuns: 2000 },
    );
    console.log(`structured events side by side: 2000 events, kinds made: ${[...seen].map(([type, count]) => `${type} ${count}`).join(", ")}`);
    // Every kind an event can be read as was reached (ADK 2 makes no ACTIVITY from an event).
    expect([...seen.keys()].sort()).toEqual(Object.values(EventType).filter((type) => type !== EventType.ACTIVITY).sort());
    expect(Object.entries(EventType)).toEqual(Object.entries(adk.EventType));
  });
});
