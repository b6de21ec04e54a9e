import * as adk from "@google/adk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";

/**
 * ADK's session-service helpers `trimTempDeltaState`, `trimTempState` and `mergeStates`, side by side with
 * `@google/adk` 2.0: the same results, the same objects changed or copied, on the same inputs.
 */
const key = fc.oneof(fc.constantFrom("temp:", "temp:draft", "app:theme", "user:name", "topic", "TEMP:x", "tempo", "__proto__", "constructor"), fc.string({ maxLength: 8 }));
const json = fc.jsonValue({ maxDepth: 2 });

describe("session state helpers, side by side with @google/adk 2.0", () => {
  it("trimTempDeltaState replaces the delta with a copy without temp: keys and returns the same event, as ADK's", () => {
    const delta = () => ({ "temp:draft": "…", topic: "tides", "app:theme": "dark", "user:temp:x": 1, temporary: true });
    const adkEvent = adk.createEvent({ actions: adk.createEventActions({ stateDelta: delta() }) });
    const ourEvent = toolsmith.createEvent({ actions: { stateDelta: delta() } });
    const adkDelta = adkEvent.actions.stateDelta;
    const ourDelta = ourEvent.actions.stateDelta;
    expect(toolsmith.trimTempDeltaState(ourEvent)).toBe(ourEvent);
    expect(adk.trimTempDeltaState(adkEvent)).toBe(adkEvent);
    expect({ ...ourEvent.actions.stateDelta }).toEqual({ ...adkEvent.actions.stateDelta });
    expect({ ...ourEvent.actions.stateDelta }).toEqual({ topic: "tides", "app:theme": "dark", "user:temp:x": 1, temporary: true });
    // Both replace the delta by a copy (the original object is left as it was) without a prototype.
    expect([ourEvent.actions.stateDelta !== ourDelta, "temp:draft" in ourDelta]).toEqual([adkEvent.actions.stateDelta !== adkDelta, "temp:draft" in adkDelta]);
    expect(Object.getPrototypeOf(ourEvent.actions.stateDelta)).toBe(Object.getPrototypeOf(adkEvent.actions.stateDelta));
  });

  it("trimTempDeltaState returns an event without actions or a delta as it is, as ADK's", () => {
    for (const f of [adk, toolsmith] as const) {
      const bare = { author: "user" } as never;
      expect(f.trimTempDeltaState(bare)).toBe(bare);
      expect(bare).toEqual({ author: "user" });
    }
    const adkEvent = { author: "user", actions: {} } as never;
    const ourEvent = { author: "user", actions: {} } as never;
    expect(toolsmith.trimTempDeltaState(ourEvent)).toEqual(adk.trimTempDeltaState(adkEvent));
  });

  it("trimTempState copies a state without temp: keys into an object without a prototype, as ADK's, for 500 random states", () => {
    fc.assert(
      fc.property(fc.dictionary(key, json), (state) => {
        const ours = toolsmith.trimTempState(state);
        const theirs = adk.trimTempState(state);
        expect(Object.entries(ours)).toEqual(Object.entries(theirs));
        expect(Object.getPrototypeOf(ours)).toBe(null);
        expect(Object.getPrototypeOf(theirs)).toBe(null);
        expect(ours).not.toBe(state);
      }),
      { numRuns: 500 },
    );
  });

  it("trimTempState keeps a __proto__ key from JSON as a key, as ADK's, instead of re-parenting the copy", () => {
    const state = JSON.parse('{"__proto__": {"admin": true}, "temp:x": 1, "topic": "tides"}') as Record<string, unknown>;
    const ours = toolsmith.trimTempState(state);
    expect(Object.entries(ours)).toEqual(Object.entries(adk.trimTempState(state)));
    expect(Object.keys(ours)).toEqual(["__proto__", "topic"]);
    expect("admin" in ours).toBe(false);
  });

  it("mergeStates adds app: and user: keys over a deep copy of the session's state, as ADK's, for 500 random states", () => {
    fc.assert(
      fc.property(fc.dictionary(key, json), fc.dictionary(key, json), fc.dictionary(key, json), (appState, userState, sessionState) => {
        const ours = toolsmith.mergeStates(appState, userState, sessionState);
        const theirs = adk.mergeStates(appState, userState, sessionState);
        expect(Object.entries(ours)).toEqual(Object.entries(theirs));
      }),
      { numRuns: 500 },
    );
  });

  it("mergeStates copies the session's values deeply and takes missing states as empty, as ADK's", () => {
    const session = { plan: { steps: ["a"] }, "app:theme": "light" };
    for (const f of [adk, toolsmith] as const) {
      const merged = f.mergeStates({ theme: "dark" }, undefined, session) as { plan: { steps: string[] } };
      expect(merged).toEqual({ plan: { steps: ["a"] }, "app:theme": "dark" });
      merged.plan.steps.push("b");
      expect(session.plan.steps).toEqual(["a"]);
    }
    expect(toolsmith.mergeStates()).toEqual(adk.mergeStates());
    expect(toolsmith.mergeStates(undefined, { name: "Ada" })).toEqual(adk.mergeStates(undefined, { name: "Ada" }));
  });
});
