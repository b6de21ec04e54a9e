import { describe, expect, it } from "vitest";
import { z } from "zod";
import { call, runOn, text, type ModelScript } from "./side-by-side.js";

/**
 * ADK 2's task mode (`LlmAgent({ mode: "task" })` and its `finish_task` tool) and isolation scopes, on
 * `@google/adk` 2.0 and on toolsmith: the requests the model gets (instruction, history, tools), the events each
 * runner stores, the node outputs and the state, over one turn and over two (a task agent that asks the user first).
 * Deliberate difference, asserted as such: `finish_task`'s arguments are checked against the whole output schema,
 * so a wrong type comes back to the model as an error it can fix, as a missing field does; the error's words are
 * toolsmith's for any tool. ADK checks only that required fields are there, and a wrong type then fails the whole
 * workflow when the node's output misses the schema (its run throws the zod error).
 */

type Any = any;

/** An event as compared: who, where, what it says, and what it gives the workflow. */
const brief = (event: Any) => ({
  author: event.author,
  scope: event.isolationScope ?? undefined,
  path: event.nodeInfo?.path,
  parts: (event.content?.parts ?? []).map((part: Any) =>
    part.text !== undefined ? part.text : part.functionCall ? `call ${part.functionCall.name} ${JSON.stringify(part.functionCall.args)}` : part.functionResponse ? `response ${part.functionResponse.name} ${JSON.stringify(part.functionResponse.response)}` : Object.keys(part)[0],
  ),
  output: event.output ?? undefined,
  delta: Object.keys(event.actions?.stateDelta ?? {}).length > 0 ? event.actions.stateDelta : undefined,
});

/** Runs `build`'s root over `messages` (one turn each) on a framework; the stored events, state and model requests. */
async function program(framework: "adk" | "toolsmith", script: ModelScript, messages: string[], build: (f: Any, model: string) => Any) {
  let stored: Any;
  let thrown: string | undefined;
  let root: Any;
  const record = await runOn(framework, script, async (f, model) => {
    root = build(f, model);
    const runner = new f.InMemoryRunner({ agent: root, appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events: Any[] = [];
    for (const message of messages) {
      try {
        for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: message }] } })) events.push(event);
      } catch (error) {
        thrown = (error as Error).message;
      }
    }
    stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    return { runner, events };
  });
  return { stored: stored.events.map(brief), state: stored.state, requests: record.requests, thrown, root };
}

async function both(script: ModelScript, messages: string[], build: (f: Any, model: string) => Any) {
  return { theirs: await program("adk", script, messages, build), ours: await program("toolsmith", script, messages, build) };
}

const FINISH_INSTRUCTION =
  "Do NOT call `finish_task` prematurely. Use your available tools to fully complete every aspect of the task first. If the task is unclear, ask the user for clarification before proceeding. Once the task is fully complete, call `finish_task` by itself with no accompanying text output.";

describe("an LLM agent in task mode", () => {
  it("is given finish_task and ADK's instruction on when to call it, and as a root agent goes on after the call", async () => {
    const script = [call("finish_task", { result: "done" }), text("All done.")];
    const { theirs, ours } = await both(script, ["go"], (f, model) => new f.LlmAgent({ name: "worker", model, instruction: "Work.", mode: "task" }));
    expect(theirs.requests.map((request) => request.tools)).toEqual([["finish_task"], ["finish_task"]]);
    expect(theirs.requests[0]!.systemInstruction).toBe(`You are an agent. Your internal name is "worker".\n\nWork.\n\n${FINISH_INSTRUCTION}`);
    expect(ours.requests).toEqual(theirs.requests);
    expect(theirs.stored).toEqual([
      { author: "user", parts: ["go"] },
      { author: "worker", parts: ['call finish_task {"result":"done"}'] },
      { author: "worker", parts: ['response finish_task {"result":"Task completed."}'] },
      { author: "worker", parts: ["All done."] },
    ]);
    expect(ours.stored).toEqual(theirs.stored);
  });

  it("declares finish_task as ADK does: a summary without an outputSchema, the schema's fields with one, a non-object wrapped as result", async () => {
    const adk = await import("@google/adk");
    const toolsmith = await import("../../src/index.js");
    const lower = (schema: Any): Any => JSON.parse(JSON.stringify(schema).replace(/"type":"([A-Z]+)"/g, (_m, type: string) => `"type":"${type.toLowerCase()}"`));
    for (const f of [adk, toolsmith] as Any[]) {
      expect(f.FINISH_TASK_TOOL_NAME).toBe("finish_task");
      expect(f.FINISH_TASK_SUCCESS_RESULT).toBe("Task completed.");
    }
    const summary = { name: "finish_task", description: "Signal that this agent has completed its delegated task. Call this when you have finished your delegated task.", parameters: { type: "object", properties: { result: { type: "string", description: "A brief summary of what the agent accomplished." } }, required: ["result"] } };
    expect(lower(new (adk as Any).FinishTaskTool()._getDeclaration())).toEqual(summary);
    expect(new toolsmith.FinishTaskTool()._getDeclaration()).toEqual(summary);
    const withSchema = (f: Any) => new f.LlmAgent({ name: "p", model: "gemini-2.5-flash", mode: "task", outputSchema: z.object({ city: z.string(), days: z.number() }) }).finishTaskTool._getDeclaration();
    const theirs = lower(withSchema(adk));
    expect(theirs).toMatchObject({ description: `${summary.description} Pass the required output data in the parameters.`, parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "number" } }, required: ["city", "days"] } });
    expect(withSchema(toolsmith)).toMatchObject(theirs);
    const wrapped = (f: Any, schema: Any) => new f.FinishTaskTool(schema)._getDeclaration().parameters;
    expect(lower(wrapped(adk, { type: "STRING" }))).toEqual({ type: "object", properties: { result: { type: "string" } }, required: ["result"] });
    expect(wrapped(toolsmith, { type: "string" })).toEqual({ type: "object", properties: { result: { type: "string" } }, required: ["result"] });
    expect(new toolsmith.FinishTaskTool({ type: "string" }).extractOutput({ result: "Paris" })).toBe("Paris");
    expect(new toolsmith.FinishTaskTool().extractOutput({ result: "Paris" })).toEqual({ result: "Paris" });
  });

  it("as a workflow node: asks the user, waits with no output, and on the next message finishes; finish_task's arguments are its output", async () => {
    const script = [text("Which city?"), call("finish_task", { result: "Paris" }), text("never asked")];
    const { theirs, ours } = await both(script, ["Book a trip", "Paris"], (f, model) => {
      const planner = new f.LlmAgent({ name: "planner", model, instruction: "Plan.", mode: "task", outputKey: "plan" });
      const after = new f.FunctionNode("after", (_ctx: Any, input: Any) => `got ${JSON.stringify(input)}`);
      return new f.Workflow({ name: "wf", edges: [["START", planner, after]] });
    });
    expect(theirs.thrown).toBeUndefined();
    expect(theirs.stored).toEqual([
      { author: "user", parts: ["Book a trip"] },
      { author: "planner", path: "wf.planner", parts: ["Which city?"], delta: { plan: "Which city?" } },
      { author: "user", parts: ["Paris"] },
      { author: "planner", path: "wf.planner", parts: ['call finish_task {"result":"Paris"}'] },
      { author: "planner", path: "wf.planner", parts: ['response finish_task {"result":"Task completed."}'], output: { result: "Paris" }, delta: { plan: { result: "Paris" } } },
      { author: "after", path: "wf.after", parts: ['got {"result":"Paris"}'], output: 'got {"result":"Paris"}' },
    ]);
    // The task agent sees the whole conversation (no input turn of its own), and is not called after finishing.
    expect(theirs.requests.map((request) => request.contents)).toEqual([
      [{ role: "user", parts: [{ text: "Book a trip" }] }],
      [{ role: "user", parts: [{ text: "Book a trip" }] }, { role: "model", parts: [{ text: "Which city?" }] }, { role: "user", parts: [{ text: "Paris" }] }],
    ]);
    expect(ours.thrown).toBeUndefined();
    expect(ours.stored).toEqual(theirs.stored);
    expect(ours.requests).toEqual(theirs.requests);
    expect(ours.state).toEqual(theirs.state);
  });

  it("with an outputSchema: a call missing a field is answered with an error the model fixes, and the fixed call's arguments are the output", async () => {
    const script = [call("finish_task", { city: "Paris" }), call("finish_task", { city: "Paris", days: 3 }), text("never asked")];
    const { theirs, ours } = await both(script, ["Plan"], (f, model) => {
      const planner = new f.LlmAgent({ name: "planner", model, instruction: "Plan.", mode: "task", outputKey: "plan", outputSchema: z.object({ city: z.string(), days: z.number() }) });
      return new f.Workflow({ name: "wf", edges: [["START", planner, new f.FunctionNode("after", (_ctx: Any, input: Any) => input.days * 2)]] });
    });
    const answered = (stored: Any[]) => stored.map((event) => ({ ...event, parts: event.parts.map((part: string) => (part.startsWith("response finish_task {\"error\"") || part.startsWith("response finish_task {\"status\":\"error\"") ? "an error" : part)) }));
    expect(answered(theirs.stored)).toEqual([
      { author: "user", parts: ["Plan"] },
      { author: "planner", path: "wf.planner", parts: ['call finish_task {"city":"Paris"}'] },
      { author: "planner", path: "wf.planner", parts: ["an error"] },
      { author: "planner", path: "wf.planner", parts: ['call finish_task {"city":"Paris","days":3}'] },
      { author: "planner", path: "wf.planner", parts: ['response finish_task {"result":"Task completed."}'], output: { city: "Paris", days: 3 }, delta: { plan: { city: "Paris", days: 3 } } },
      { author: "after", path: "wf.after", parts: ["6"], output: 6 },
    ]);
    expect(answered(ours.stored)).toEqual(answered(theirs.stored));
    expect(theirs.stored[2].parts[0]).toContain("missing required parameters: days");
    expect(ours.stored[2].parts[0]).toContain("days");
    // The schema shapes finish_task, not the answers: neither asks the model for JSON.
    expect(ours.requests.map((request) => request.tools)).toEqual(theirs.requests.map((request) => request.tools));
    expect(ours.state).toEqual(theirs.state);
  });

  it("answers a finish_task argument of the wrong type with an error the model fixes, where ADK's workflow fails (deliberate difference)", async () => {
    const script = [call("finish_task", { city: "Paris", days: "three" }), call("finish_task", { city: "Paris", days: 3 }), text("never asked")];
    const build = (f: Any, model: string) => new f.Workflow({ name: "wf", edges: [["START", new f.LlmAgent({ name: "planner", model, mode: "task", outputSchema: z.object({ city: z.string(), days: z.number() }) })]] });
    const { theirs, ours } = await both(script, ["Plan"], build);
    // ADK accepts the call, and the node's output then misses its schema: the run throws zod's error.
    expect(theirs.thrown).toContain("expected number, received string");
    expect(theirs.stored.some((event: Any) => event.output !== undefined)).toBe(false);
    // toolsmith tells the model what is wrong, and takes the fixed call.
    expect(ours.thrown).toBeUndefined();
    expect(ours.stored[2].parts[0]).toBe('response finish_task {"status":"error","error":"Invalid arguments for tool \\"finish_task\\": days: must be number. Call the tool again with arguments that match its schema.","invalidArguments":[{"field":"days","problem":"must be number"}]}');
    expect(ours.stored.at(-1)).toMatchObject({ output: { city: "Paris", days: 3 } });
  });
});

describe("isolation scopes", () => {
  it("mark a node's events with its scope (true: one per run), and leave other scopes' events out of an agent's history", async () => {
    const script = [call("finish_task", { result: "A done" }), call("finish_task", { result: "B done" }), text("plain")];
    const { theirs, ours } = await both(script, ["go"], (f, model) => {
      const a = new f.LlmAgent({ name: "a", model, instruction: "A.", mode: "task", isolationScope: true });
      const b = new f.LlmAgent({ name: "b", model, instruction: "B.", mode: "task", isolationScope: "shared" });
      const c = new f.LlmAgent({ name: "c", model, instruction: "C.", includeContents: "default" });
      return new f.Workflow({ name: "wf", edges: [["START", a, b, c]] });
    });
    expect(theirs.stored.map((event: Any) => [event.author, event.scope])).toEqual([
      ["user", undefined],
      ["a", "wf.a@1"],
      ["a", "wf.a@1"],
      ["b", "shared"],
      ["b", "shared"],
      ["user", undefined],
      ["c", undefined],
    ]);
    // b does not see a's call; c sees neither's, only the user's message and its input.
    expect(theirs.requests.map((request) => request.contents)).toEqual([
      [{ role: "user", parts: [{ text: "go" }] }],
      [{ role: "user", parts: [{ text: "go" }] }],
      [{ role: "user", parts: [{ text: "go" }] }, { role: "user", parts: [{ text: '{"result":"B done"}' }] }],
    ]);
    expect(ours.stored).toEqual(theirs.stored);
    expect(ours.requests).toEqual(theirs.requests);
  });

  it("given with node(): the node's input turn is in its scope too, and the agent after it does not see the scoped answer", async () => {
    const script = [text("one"), text("two")];
    const { theirs, ours } = await both(script, ["go"], (f, model) => {
      const a = new f.LlmAgent({ name: "a", model, instruction: "A." });
      const b = new f.LlmAgent({ name: "b", model, instruction: "B.", includeContents: "default" });
      return new f.Workflow({ name: "wf", edges: [["START", f.node(a, { isolationScope: "s1" }), b]] });
    });
    expect(theirs.stored).toEqual([
      { author: "user", parts: ["go"] },
      { author: "user", scope: "s1", parts: ["go"] },
      { author: "a", scope: "s1", path: "wf.a", parts: ["one"], output: "one" },
      { author: "user", parts: ["one"] },
      { author: "b", path: "wf.b", parts: ["two"], output: "two" },
    ]);
    expect(theirs.requests.map((request) => request.contents)).toEqual([[{ role: "user", parts: [{ text: "go" }] }], [{ role: "user", parts: [{ text: "go" }] }, { role: "user", parts: [{ text: "one" }] }]]);
    expect(ours.stored).toEqual(theirs.stored);
    expect(ours.requests).toEqual(theirs.requests);
  });

  it("give each run of a node that ctx.runNode runs twice a scope of its own, so the second run does not see the first", async () => {
    const { theirs, ours } = await both([text("one"), text("two")], ["go"], (f, model) => {
      const a = new f.LlmAgent({ name: "a", model, instruction: "A.", isolationScope: true, includeContents: "default" });
      return new f.Workflow({
        name: "wf",
        dynamicEntry: async (ctx: Any) => {
          await ctx.runNode(a, "first");
          return (await ctx.runNode(a, "second")).output;
        },
      });
    });
    expect(theirs.stored.map((event: Any) => [event.author, event.scope, event.parts[0]])).toEqual([
      ["user", undefined, "go"],
      ["user", "wf.a@1@1", "first"],
      ["a", "wf.a@1@1", "one"],
      ["user", "wf.a@2@2", "second"],
      ["a", "wf.a@2@2", "two"],
    ]);
    expect(theirs.requests.map((request) => request.contents)).toEqual([
      [{ role: "user", parts: [{ text: "go" }] }, { role: "user", parts: [{ text: "first" }] }],
      [{ role: "user", parts: [{ text: "go" }] }, { role: "user", parts: [{ text: "second" }] }],
    ]);
    expect(ours.stored).toEqual(theirs.stored);
    expect(ours.requests).toEqual(theirs.requests);
  });
});
