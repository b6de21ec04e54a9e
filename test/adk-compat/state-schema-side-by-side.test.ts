import { describe, expect, it } from "vitest";
import * as adk from "@google/adk";
import { z } from "zod";
import * as toolsmith from "../../src/index.js";

/**
 * ADK 2's `stateSchema` on graph workflow nodes, on `@google/adk` 2.0 and on toolsmith: which writes pass, which fail
 * the node and with what message, and what the session keeps. Deliberate differences, asserted as such: the node's
 * error event has code `STATE_SCHEMA_MISMATCH` (ADK's `UNKNOWN_ERROR`) and a message that names the node and says
 * what to do after ADK's own words; ADK's run then throws the `StateSchemaError`, toolsmith's ends with the event.
 */

type Any = any;

async function runWorkflow(f: Any, write: (ctx: Any) => void, onParent = false) {
  const schema = z.object({ count: z.number(), label: z.string().optional() });
  const writer = new f.FunctionNode(
    "writer",
    (ctx: Any) => {
      write(ctx);
      return "written";
    },
    onParent ? {} : { stateSchema: schema },
  );
  const inner = new f.Workflow({ name: "inner", edges: [["START", writer]], ...(onParent ? { stateSchema: schema } : {}) });
  const runner = new f.InMemoryRunner({ agent: new f.Workflow({ name: "outer", edges: [["START", inner]] }), appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events: Any[] = [];
  let thrown: Any;
  try {
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "go" }] } })) events.push(event);
  } catch (error) {
    thrown = error;
  }
  const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
  return {
    state: stored.state,
    events: events.map((event) => ({ author: event.author, output: event.output ?? undefined, errorCode: event.errorCode ?? undefined, errorMessage: event.errorMessage ?? undefined })),
    thrown: thrown ? { schemaError: f.isStateSchemaError(thrown), message: thrown.message } : undefined,
  };
}

async function both(write: (ctx: Any) => void, onParent = false) {
  return { theirs: await runWorkflow(adk, write, onParent), ours: await runWorkflow(toolsmith, write, onParent) };
}

describe("a node's stateSchema", () => {
  it("lets declared keys of the right type through, and keys with a prefix whatever they are", async () => {
    const { theirs, ours } = await both((ctx) => {
      ctx.state.set("count", 3);
      ctx.state.set("app:anything", { free: true });
      ctx.state.set("temp:scratch", [1]);
    });
    expect(theirs).toEqual({ state: { count: 3, "app:anything": { free: true } }, events: [{ author: "writer", output: "written" }], thrown: undefined });
    expect(ours).toEqual(theirs);
  });

  it("fails the node on an undeclared key or a value of the wrong type, with ADK's words, storing none of its writes", async () => {
    const writes: Array<[(ctx: Any) => void, RegExp]> = [
      [(ctx) => ctx.state.set("colour", "red"), /^Key 'colour' is not declared in the state schema\. Declared fields: \["count","label"\]/],
      [(ctx) => ctx.state.set("count", "three"), /^Value for 'count' does not match the type declared in the state schema: [\s\S]*expected number, received string/],
      [(ctx) => ctx.state.update({ count: 1, colour: "red" }), /^Key 'colour' is not declared in the state schema/],
    ];
    for (const [write, words] of writes) {
      const { theirs, ours } = await both(write);
      expect(theirs.thrown).toMatchObject({ schemaError: true, message: expect.stringMatching(words) });
      expect(theirs.events).toEqual([{ author: "writer", errorCode: "UNKNOWN_ERROR", errorMessage: theirs.thrown!.message }]);
      expect(ours.thrown).toBeUndefined();
      expect(ours.events).toEqual([{ author: "writer", errorCode: "STATE_SCHEMA_MISMATCH", errorMessage: expect.stringMatching(/^Node "outer\.inner\.writer" failed: /) }]);
      expect(ours.events[0]!.errorMessage!.replace(/^Node "outer\.inner\.writer" failed: /, "")).toMatch(words);
      expect(ours.state).toEqual({});
      expect(theirs.state).toEqual({});
    }
  });

  it("applies to the nodes a workflow runs when the workflow sets it", async () => {
    const { theirs, ours } = await both((ctx) => ctx.state.set("colour", "red"), true);
    expect(theirs.thrown).toMatchObject({ schemaError: true });
    expect(ours.events).toEqual([{ author: "writer", errorCode: "STATE_SCHEMA_MISMATCH", errorMessage: expect.stringContaining("Key 'colour' is not declared in the state schema.") }]);
    expect(ours.state).toEqual(theirs.state);
  });

  it("is refused when it is not a zod schema, rather than left unchecked", () => {
    expect(() => new toolsmith.FunctionNode("n", () => 1, { stateSchema: { type: "OBJECT" } as never })).toThrow(/stateSchema/);
  });
});

describe("a node's stateSchema and the events it yields", () => {
  it("checks a delta an event brings of its own, as ADK does", async () => {
    const results = [];
    for (const f of [adk, toolsmith] as Any[]) {
      const yielding = new f.FunctionNode(
        "yielding",
        async function* (ctx: Any) {
          yield f.createEvent({ author: "yielding", invocationId: ctx.invocationId, actions: { stateDelta: { colour: "red" } } });
        },
        { stateSchema: z.object({ count: z.number() }) },
      );
      const runner = new f.InMemoryRunner({ agent: new f.Workflow({ name: "w", edges: [["START", yielding]] }), appName: "app" });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      const codes: unknown[] = [];
      let thrown = false;
      try {
        for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "go" }] } })) codes.push(event.errorCode);
      } catch {
        thrown = true;
      }
      const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
      results.push({ codes, thrown, state: stored.state });
    }
    expect(results[0]).toEqual({ codes: ["UNKNOWN_ERROR"], thrown: true, state: {} });
    expect(results[1]).toEqual({ codes: ["STATE_SCHEMA_MISMATCH"], thrown: false, state: {} });
  });
});
