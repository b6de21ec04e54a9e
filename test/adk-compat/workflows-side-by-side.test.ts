import { describe, expect, it } from "vitest";
import * as adkModule from "@google/adk";
import { z } from "zod";
import * as toolsmithModule from "../../src/index.js";
import { runOnBoth, text, type Framework, type ModelScript } from "./side-by-side.js";

/**
 * ADK 2's graph workflows (`Workflow`, `FunctionNode`, `JoinNode`, routing maps, `dynamicEntry`, agents as nodes)
 * on `@google/adk` 2.0 and on toolsmith: the same program run on both, what each runner yields and stores compared
 * event by event (author, text, output, node path, outputFor, branch, state delta, error), and the session's state.
 *
 * Deliberate differences, asserted as such where they show:
 * - a parallel node's branch is `name#1` in toolsmith, `name@1` in ADK (toolsmith's `@` marks an agent run as a
 *   tool), so branches are compared with toolsmith's `#` read as `@`;
 * - a node that throws: ADK yields the node's error event and the run throws; toolsmith ends the run with one
 *   error event (code `NODE_FAILED`) and does not throw;
 * - event ids and timestamps differ (not compared).
 */

/** What a node sees, as the programs below use it (both frameworks' `NodeContext`). */
interface Ctx {
  route?: unknown;
  output?: unknown;
  state: { get(key: string): unknown; set(key: string, value: unknown): void };
  runNode(node: unknown, input?: unknown, options?: Record<string, unknown>): Promise<{ output: unknown; route?: unknown }>;
}

/** An event as compared: what a workflow program can observe of it. */
interface Brief {
  author: string;
  text?: string;
  output?: unknown;
  path?: string;
  outputFor?: string[];
  messageAsOutput?: boolean;
  branch?: string;
  stateDelta?: Record<string, unknown>;
  errorCode?: string;
}

/** One turn of a workflow: the events the runner yielded, those the session stored, its state, what the run threw. */
interface Turn {
  events: Brief[];
  stored: Brief[];
  state: Record<string, unknown>;
  thrown?: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEvent = any;

function brief(event: AnyEvent): Brief {
  const out: Brief = { author: String(event.author) };
  const parts: Array<{ text?: string; thought?: boolean }> = event.content?.parts ?? [];
  if (event.content) out.text = parts.map((part) => part.text ?? "").join("|");
  if (event.output !== undefined) out.output = event.output;
  if (event.nodeInfo?.path !== undefined) out.path = event.nodeInfo.path;
  if (event.nodeInfo?.outputFor !== undefined) out.outputFor = event.nodeInfo.outputFor;
  if (event.nodeInfo?.messageAsOutput) out.messageAsOutput = true;
  if (event.branch) out.branch = event.branch;
  const delta = event.actions?.stateDelta as Record<string, unknown> | undefined;
  if (delta && Object.keys(delta).length > 0) out.stateDelta = { ...delta };
  if (event.errorCode !== undefined) out.errorCode = String(event.errorCode);
  return out;
}

/** Toolsmith's branches read as ADK writes them (`#` → `@`, a deliberate difference). */
function asAdkBranches(turns: Turn[]): Turn[] {
  const fix = (event: Brief): Brief => (event.branch ? { ...event, branch: event.branch.replaceAll("#", "@") } : event);
  return turns.map((turn) => ({ ...turn, events: turn.events.map(fix), stored: turn.stored.map(fix) }));
}

/** Runs each message in a new session of one runner over `workflow`. */
async function runWorkflow(f: Framework, workflow: unknown, messages: string[]): Promise<Turn[]> {
  const runner = new f.InMemoryRunner({ agent: workflow, appName: "app" });
  const turns: Turn[] = [];
  for (const message of messages) {
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events: AnyEvent[] = [];
    let thrown: string | undefined;
    try {
      for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: message }] } })) events.push(event);
    } catch (error) {
      thrown = error instanceof Error ? error.message : String(error);
    }
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    turns.push({ events: events.filter((event) => !event.partial).map(brief), stored: stored.events.map(brief), state: { ...stored.state }, ...(thrown !== undefined ? { thrown } : {}) });
  }
  return turns;
}

/** Builds the workflow on each framework and runs the messages; toolsmith's branches read as ADK's. */
async function sideBySide(build: (f: Framework, model: string) => unknown, messages: string[] = ["go"], script: ModelScript = []) {
  const { adk, toolsmith } = await runOnBoth(script, async (f, model) => ({ runner: undefined, events: [], output: await runWorkflow(f, build(f, model), messages) }));
  return {
    adk: adk.output as Turn[],
    toolsmith: asAdkBranches(toolsmith.output as Turn[]),
    rawToolsmith: toolsmith.output as Turn[],
    requests: { adk: adk.requests, toolsmith: toolsmith.requests },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const textOf = (input: unknown) => (typeof input === "string" ? input : JSON.stringify(input));

describe("ADK 2 graph workflows, side by side with @google/adk 2.0", () => {
  it("a chain of function nodes (sync return, async return, sync generator, async generator) passes each output on as the next input", async () => {
    const { adk, toolsmith } = await sideBySide((f) => {
      const shout = f.node((_ctx: Ctx, input: unknown) => textOf(input).toUpperCase(), { name: "shout" });
      const bang = f.node(async (_ctx: Ctx, input: unknown) => {
        await pause(1);
        return `${textOf(input)}!`;
      }, { name: "bang" });
      const split = new f.FunctionNode("split", function* (_ctx: Ctx, input: unknown) {
        yield `first:${textOf(input)}`;
        yield `second:${textOf(input)}`;
      });
      const count = f.node(async function* count(_ctx: Ctx, input: unknown) {
        yield { got: input };
        await pause(1);
        yield 2;
        yield { n: 3, last: true };
      });
      return new f.Workflow({ name: "chain", edges: [["START", shout, bang, split, count]] });
    }, ["hello"]);
    expect(toolsmith).toEqual(adk);
    expect(adk[0]!.events.map((event) => [event.author, event.output])).toEqual([
      ["shout", "HELLO"],
      ["bang", "HELLO!"],
      ["split", "first:HELLO!"],
      ["split", "second:HELLO!"],
      ["count", { got: "second:HELLO!" }],
      ["count", 2],
      ["count", { n: 3, last: true }],
    ]);
    expect(adk[0]!.events[0]).toEqual({ author: "shout", text: "HELLO", output: "HELLO", path: "chain.shout", outputFor: ["chain.shout"] });
  });

  it("a routing map follows ctx.route: named, numeric (\"1\") and boolean (\"true\"/\"false\") keys, DEFAULT_ROUTE, and a route array firing several branches", async () => {
    const messages = ["what?", "one", "yes", "no", "anything", "both"];
    const { adk, toolsmith } = await sideBySide((f) => {
      const classify = f.node((ctx: Ctx, input: unknown) => {
        const said = String(input);
        ctx.route = said.endsWith("?") ? "question" : said === "one" ? 1 : said === "yes" ? true : said === "no" ? false : said === "both" ? ["question", "1"] : "nothing-matches";
        return `classified ${said}`;
      }, { name: "classify" });
      const reply = (name: string) => f.node((_ctx: Ctx, input: unknown) => `${name}(${textOf(input)})`, { name });
      const [question, one, yes, no, other] = ["question", "one", "yes", "no", "other"].map(reply);
      const done = f.node((_ctx: Ctx, input: unknown) => `done:${textOf(input)}`, { name: "done" });
      return new f.Workflow({
        name: "router",
        edges: [
          ["START", classify, { question, 1: one, true: yes, false: no, [f.DEFAULT_ROUTE]: other }],
          [[question, one, yes, no, other], done],
        ],
      });
    }, messages);
    expect(toolsmith).toEqual(adk);
    const path = (turn: Turn) => turn.events.map((event) => event.author);
    expect(adk.map(path)).toEqual([
      ["classify", "question", "done"],
      ["classify", "one", "done"],
      ["classify", "yes", "done"],
      ["classify", "no", "done"],
      ["classify", "other", "done"],
      // A routing map's integer-like keys come first (JavaScript's key order), so the edge for 1 is first.
      ["classify", "one", "question", "done", "done"],
    ]);
    // Several routes fired: each target on a branch of its own, and what follows stays on it.
    expect(adk[5]!.events.map((event) => event.branch)).toEqual([undefined, "one@1", "question@1", "one@1", "question@1"]);
  });

  it("fan-out to parallel nodes then a JoinNode: the join's output maps each predecessor's name to its output; branches are name@1 in ADK, name#1 in toolsmith", async () => {
    const { adk, toolsmith, rawToolsmith } = await sideBySide((f) => {
      const fetch = (name: string, ms: number, value: unknown) =>
        f.node(async () => {
          await pause(ms);
          return value;
        }, { name });
      const join = new f.JoinNode({ name: "join" });
      const summarise = f.node((_ctx: Ctx, input: unknown) => `summary of ${JSON.stringify(input)}`, { name: "summarise" });
      return new f.Workflow({ name: "fan", edges: [["START", [fetch("alpha", 30, "A"), fetch("beta", 5, { b: 2 }), fetch("gamma", 15, 3)], join, summarise]] });
    });
    expect(toolsmith).toEqual(adk);
    expect(adk[0]!.events).toEqual([
      { author: "beta", text: '{"b":2}', output: { b: 2 }, path: "fan.beta", outputFor: ["fan.beta"], branch: "beta@1" },
      { author: "gamma", text: "3", output: 3, path: "fan.gamma", outputFor: ["fan.gamma"], branch: "gamma@1" },
      { author: "alpha", text: "A", output: "A", path: "fan.alpha", outputFor: ["fan.alpha"], branch: "alpha@1" },
      { author: "join", output: { alpha: "A", beta: { b: 2 }, gamma: 3 }, path: "fan.join", outputFor: ["fan.join"] },
      { author: "summarise", text: 'summary of {"alpha":"A","beta":{"b":2},"gamma":3}', output: 'summary of {"alpha":"A","beta":{"b":2},"gamma":3}', path: "fan.summarise", outputFor: ["fan.summarise"] },
    ]);
    // Deliberate difference: toolsmith's branch segment is name#runId.
    expect(rawToolsmith[0]!.events.slice(0, 3).map((event) => event.branch)).toEqual(["beta#1", "gamma#1", "alpha#1"]);
  });

  it("fan-out of synchronous nodes: the same event order on both", async () => {
    const { adk, toolsmith } = await sideBySide((f) => {
      const leaf = (name: string) => f.node((_ctx: Ctx, input: unknown) => `${name}:${textOf(input)}`, { name });
      return new f.Workflow({ name: "sync_fan", edges: [["START", [leaf("a"), leaf("b"), leaf("c")], new f.JoinNode({ name: "join" })]] });
    });
    expect(toolsmith).toEqual(adk);
    expect(adk[0]!.events.map((event) => event.author)).toEqual(["a", "b", "c", "join"]);
  });

  it("ctx.state: a write rides on the node's event, a node that writes and returns nothing gets an event of its own, a later node reads it, and the session keeps it", async () => {
    const { adk, toolsmith } = await sideBySide((f) => {
      const writer = f.node((ctx: Ctx, input: unknown) => {
        ctx.state.set("count", 1);
        ctx.state.set("said", input);
        return "written";
      }, { name: "writer" });
      const silent = f.node((ctx: Ctx) => {
        ctx.state.set("silent", true);
      }, { name: "silent" });
      const stepper = f.node(function* stepper(ctx: Ctx) {
        yield "step one";
        ctx.state.set("count", 2);
        ctx.state.set("user:seen", "yes");
        yield "step two";
        ctx.state.set("after", "last");
      });
      const reader = f.node((ctx: Ctx, input: unknown) => `${textOf(input)}|count=${String(ctx.state.get("count"))}|silent=${String(ctx.state.get("silent"))}|said=${String(ctx.state.get("said"))}|after=${String(ctx.state.get("after"))}`, { name: "reader" });
      return new f.Workflow({ name: "stateful", edges: [["START", writer, silent, stepper, reader]] });
    }, ["hi"]);
    expect(toolsmith).toEqual(adk);
    expect(adk[0]!.events.map(({ author, output, stateDelta }) => ({ author, output, stateDelta }))).toEqual([
      { author: "writer", output: "written", stateDelta: { count: 1, said: "hi" } },
      { author: "silent", output: undefined, stateDelta: { silent: true } },
      { author: "stepper", output: "step one", stateDelta: undefined },
      { author: "stepper", output: "step two", stateDelta: { count: 2, "user:seen": "yes" } },
      { author: "stepper", output: undefined, stateDelta: { after: "last" } },
      { author: "reader", output: "step two|count=2|silent=true|said=hi|after=last", stateDelta: undefined },
    ]);
    expect(toolsmith[0]!.state).toEqual(adk[0]!.state);
  });

  it("ctx.state: a generator node that yields nothing still reports its write, and a delta on an event the node yields is read by the next node", async () => {
    const { adk, toolsmith } = await sideBySide((f) => {
      // eslint-disable-next-line require-yield
      const quiet = f.node(async function* quiet(ctx: Ctx, input: unknown) {
        ctx.state.set("seen", input);
      });
      const carry = f.node((ctx: Ctx & { invocationId: string }) => f.createEvent({ invocationId: ctx.invocationId, author: "carry", actions: { stateDelta: { carried: String(ctx.state.get("seen")).toUpperCase() } } }), { name: "carry" });
      const read = f.node((ctx: Ctx) => `read:${String(ctx.state.get("seen"))}:${String(ctx.state.get("carried"))}`, { name: "read" });
      return new f.Workflow({ name: "deltas", edges: [["START", quiet, carry, read]] });
    }, ["x"]);
    expect(toolsmith).toEqual(adk);
    expect(adk[0]!.events.map(({ author, output, stateDelta }) => ({ author, output, stateDelta }))).toEqual([
      { author: "quiet", output: undefined, stateDelta: { seen: "x" } },
      { author: "carry", output: undefined, stateDelta: { carried: "X" } },
      { author: "read", output: "read:x:X", stateDelta: undefined },
    ]);
    expect(adk[0]!.state).toEqual({ seen: "x", carried: "X" });
  });

  it("ctx.state: a temp: key is taken out of the event's delta the runner yields, not only out of the stored one", async () => {
    const { adk, toolsmith } = await sideBySide((f) => {
      const scratch = f.node((ctx: Ctx) => {
        ctx.state.set("kept", 1);
        ctx.state.set("temp:scratch", "gone");
        return `scratch=${String(ctx.state.get("temp:scratch"))}`;
      }, { name: "scratch" });
      return new f.Workflow({ name: "temps", edges: [["START", scratch]] });
    });
    // ADK's session service removes temp: keys from the event it is given, so the yielded event has none.
    expect(adk[0]!.events).toEqual([{ author: "scratch", text: "scratch=gone", output: "scratch=gone", path: "temps.scratch", outputFor: ["temps.scratch"], stateDelta: { kept: 1 } }]);
    expect(adk[0]!.state).toEqual({ kept: 1 });
    expect(toolsmith).toEqual(adk);
  });

  it("a Workflow nested as a node: paths outer.inner.x, outputFor, the inner workflow's output goes to the next node, and as the last node it adds no event", async () => {
    const { adk, toolsmith } = await sideBySide((f) => {
      const x = f.node((_ctx: Ctx, input: unknown) => `x(${textOf(input)})`, { name: "x" });
      const y = f.node((_ctx: Ctx, input: unknown) => ({ y: input }), { name: "y" });
      const inner = new f.Workflow({ name: "inner", edges: [["START", x, y]] });
      const pre = f.node((_ctx: Ctx, input: unknown) => `pre(${textOf(input)})`, { name: "pre" });
      const post = f.node((_ctx: Ctx, input: unknown) => `post(${textOf(input)})`, { name: "post" });
      const x2 = f.node((_ctx: Ctx, input: unknown) => `x2(${textOf(input)})`, { name: "x2" });
      const innerLast = new f.Workflow({ name: "inner_last", edges: [["START", x2]] });
      const outer = new f.Workflow({ name: "outer", edges: [["START", pre, inner, post, innerLast]] });
      return outer;
    }, ["in"]);
    expect(toolsmith).toEqual(adk);
    expect(adk[0]!.events.map(({ author, path, outputFor, output }) => ({ author, path, outputFor, output }))).toEqual([
      { author: "pre", path: "outer.pre", outputFor: ["outer.pre"], output: "pre(in)" },
      { author: "x", path: "outer.inner.x", outputFor: ["outer.inner.x"], output: "x(pre(in))" },
      { author: "y", path: "outer.inner.y", outputFor: ["outer.inner.y"], output: { y: "x(pre(in))" } },
      { author: "post", path: "outer.post", outputFor: ["outer.post"], output: 'post({"y":"x(pre(in))"})' },
      { author: "x2", path: "outer.inner_last.x2", outputFor: ["outer.inner_last.x2"], output: 'x2(post({"y":"x(pre(in))"}))' },
    ]);
  });

  it("dynamicEntry: ctx.runNode runs nodes and functions (numbered name@1, name@2 in the path), useAsOutput, and the returned value ends the run as the workflow's event", async () => {
    const { adk, toolsmith } = await sideBySide((f) => {
      const double = f.node((_ctx: Ctx, input: unknown) => Number(input) * 2, { name: "double" });
      function describe(_ctx: Ctx, input: unknown) {
        return `value ${textOf(input)}`;
      }
      return new f.Workflow({
        name: "dyn",
        dynamicEntry: async (ctx: Ctx, input: unknown) => {
          const first = await ctx.runNode(double, String(input).length);
          const second = await ctx.runNode(double, first.output);
          const described = await ctx.runNode(describe, second.output);
          return { first: first.output, second: second.output, described: described.output };
        },
      });
    }, ["abc"]);
    expect(toolsmith).toEqual(adk);
    expect(adk[0]!.events).toEqual([
      { author: "double", text: "6", output: 6, path: "dyn.double@1", outputFor: ["dyn.double@1"] },
      { author: "double", text: "12", output: 12, path: "dyn.double@2", outputFor: ["dyn.double@2"] },
      { author: "describe", text: "value 12", output: "value 12", path: "dyn.describe@1", outputFor: ["dyn.describe@1"] },
      { author: "dyn", text: '{"first":6,"second":12,"described":"value 12"}', output: { first: 6, second: 12, described: "value 12" } },
    ]);
  });

  it("ctx.runNode from a function node of a graph, with and without useAsOutput", async () => {
    const { adk, toolsmith } = await sideBySide((f) => {
      const inc = f.node((_ctx: Ctx, input: unknown) => Number(input) + 1, { name: "inc" });
      const caller = f.node(async (ctx: Ctx, input: unknown) => {
        const once = await ctx.runNode(inc, String(input).length);
        await ctx.runNode(inc, once.output, { useAsOutput: true });
      }, { name: "caller" });
      const after = f.node((_ctx: Ctx, input: unknown) => `after ${textOf(input)}`, { name: "after" });
      return new f.Workflow({ name: "graph_dyn", edges: [["START", caller, after]] });
    }, ["abcd"]);
    expect(toolsmith).toEqual(adk);
    expect(adk[0]!.events.map(({ author, path, outputFor, output }) => ({ author, path, outputFor, output }))).toEqual([
      { author: "inc", path: "graph_dyn.caller.inc@1", outputFor: ["graph_dyn.caller.inc@1"], output: 5 },
      { author: "inc", path: "graph_dyn.caller.inc@2", outputFor: ["graph_dyn.caller.inc@2", "graph_dyn.caller"], output: 6 },
      { author: "after", path: "graph_dyn.after", outputFor: ["graph_dyn.after"], output: "after 6" },
    ]);
  });

  it("an LlmAgent as a node: the node's input is a user turn, the final text is the node's output, the next node gets it; with outputSchema the output is the parsed JSON", async () => {
    const script: ModelScript = [text("a short summary"), text('{"verdict": "good", "score": 7}')];
    const { adk, toolsmith, requests } = await sideBySide(
      (f, model) => {
        const prep = f.node((_ctx: Ctx, input: unknown) => `Summarise: ${textOf(input)}`, { name: "prep" });
        const writer = new f.LlmAgent({ name: "writer", model, instruction: "Summarise what you are given." });
        const judge = new f.LlmAgent({ name: "judge", model, instruction: "Judge the summary.", outputSchema: z.object({ verdict: z.string(), score: z.number() }), outputKey: "judgement" });
        const after = f.node((_ctx: Ctx, input: unknown) => ({ received: input }), { name: "after" });
        return new f.Workflow({ name: "agents", edges: [["START", prep, writer, judge, after]] });
      },
      ["the long text"],
      script,
    );
    expect(requests.toolsmith.map((request) => request.contents)).toEqual(requests.adk.map((request) => request.contents));
    expect(requests.adk.map((request) => request.contents)).toEqual([
      [{ role: "user", parts: [{ text: "Summarise: the long text" }] }],
      [{ role: "user", parts: [{ text: "a short summary" }] }],
    ]);
    expect(requests.toolsmith.map((request) => request.systemInstruction)).toEqual(requests.adk.map((request) => request.systemInstruction));
    expect(toolsmith).toEqual(adk);
    expect(adk[0]!.events.map(({ author, output, messageAsOutput }) => ({ author, output, messageAsOutput }))).toEqual([
      { author: "prep", output: "Summarise: the long text", messageAsOutput: undefined },
      { author: "writer", output: "a short summary", messageAsOutput: true },
      { author: "judge", output: { verdict: "good", score: 7 }, messageAsOutput: true },
      { author: "after", output: { received: { verdict: "good", score: 7 } }, messageAsOutput: undefined },
    ]);
    // The node inputs are stored as user turns, though not yielded.
    expect(adk[0]!.stored.filter((event) => event.author === "user").map((event) => event.text)).toEqual(["the long text", "Summarise: the long text", "a short summary"]);
  });

  it("the workflow's final output event: none when the last output event already carries it; one authored by the workflow when a later event carried another output", async () => {
    const { adk, toolsmith } = await sideBySide((f) => {
      const final = f.node(() => ({ final: 1 }), { name: "final" });
      const side = f.node(async () => {
        await pause(10);
        return "late";
      }, { name: "side" });
      const sink = f.node(() => undefined, { name: "sink" });
      return new f.Workflow({ name: "ending", edges: [["START", [final, side]], [side, sink]] });
    });
    expect(toolsmith).toEqual(adk);
    expect(adk[0]!.events.map(({ author, output, path }) => ({ author, output, path }))).toEqual([
      { author: "final", output: { final: 1 }, path: "ending.final" },
      { author: "side", output: "late", path: "ending.side" },
      { author: "ending", output: { final: 1 }, path: undefined },
    ]);

    const quiet = await sideBySide((f) => {
      const say = f.node((_ctx: Ctx, input: unknown) => `said ${textOf(input)}`, { name: "say" });
      const nothing = f.node(() => undefined, { name: "nothing" });
      return new f.Workflow({ name: "quiet", edges: [["START", say, nothing]] });
    });
    expect(quiet.toolsmith).toEqual(quiet.adk);
    // The terminal node gave no output: the workflow has none, and no event says so.
    expect(quiet.adk[0]!.events.map((event) => event.author)).toEqual(["say"]);
  });

  it("two terminal nodes that both produce output: ADK's run throws; toolsmith's ends with the workflow's WORKFLOW_OUTPUT_AMBIGUOUS error event", async () => {
    const { adk, toolsmith } = await sideBySide((f) => {
      const a = f.node(() => "a", { name: "a" });
      const b = f.node(() => "b", { name: "b" });
      return new f.Workflow({ name: "two_ends", edges: [["START", [a, b]]] });
    });
    expect(toolsmith[0]!.events.slice(0, 2)).toEqual(adk[0]!.events);
    expect(adk[0]!.events.map((event) => event.output)).toEqual(["a", "b"]);
    expect(adk[0]!.thrown).toMatch(/multiple terminal nodes produced output/);
    // Difference (docs/adk-compat.md, Runs: "a run never throws for what happens inside it", as for a node that
    // throws): the run ends with an error event authored by the workflow, at its path, stored, and does not throw.
    expect(toolsmith[0]!.events.slice(2)).toEqual([{ author: "two_ends", errorCode: "WORKFLOW_OUTPUT_AMBIGUOUS", path: "two_ends" }]);
    expect(toolsmith[0]!.thrown).toBeUndefined();
  });

  it("routes from ADK's routing tests: an Event's route, a list route on an explicit Edge, one route fanning out to a JoinNode, one sub-workflow behind two route keys", async () => {
    const build = (route: unknown) => (f: Framework) => {
      const router = f.node((ctx: Ctx & { invocationId: string }) => f.createEvent({ invocationId: ctx.invocationId, author: "router", route, output: route }), { name: "router" });
      const echo = (name: string) => f.node((_ctx: Ctx, input: unknown) => `${name}(${textOf(input)})`, { name });
      const [listed, nine, a, b] = ["listed", "nine", "a", "b"].map(echo);
      const shared = new f.Workflow({ name: "shared_sub", edges: [["START", echo("wrapped")]] });
      const join = new f.JoinNode({ name: "join" });
      return new f.Workflow({
        name: "routes",
        edges: [["START", router], new f.Edge(router, listed, [2, 3]), new f.Edge(router, nine, 9), [router, { go: [a, b], approve: shared, escalate: shared }], [[a, b], join]],
      });
    };
    const outputs: Record<string, unknown[]> = {};
    for (const route of [3, "go", "approve", "escalate"]) {
      const { adk, toolsmith } = await sideBySide(build(route));
      expect(toolsmith, `route ${String(route)}`).toEqual(adk);
      outputs[String(route)] = adk[0]!.events.map((event) => event.output);
    }
    expect(outputs).toEqual({
      3: [3, "listed(3)"],
      go: ["go", "a(go)", "b(go)", { a: "a(go)", b: "b(go)" }],
      approve: ["approve", "wrapped(approve)"],
      escalate: ["escalate", "wrapped(escalate)"],
    });
  });

  it("graph validation: both refuse the same invalid workflows at construction (toolsmith with INVALID_WORKFLOW)", () => {
    const cases: Record<string, (f: Framework) => unknown> = {
      "duplicate node names": (f) => new f.Workflow({ name: "w", edges: [["START", f.node(() => 1, { name: "a" }), f.node(() => 2, { name: "a" })]] }),
      "unreachable node": (f) => {
        const a = f.node(() => 1, { name: "a" });
        const b = f.node(() => 1, { name: "b" });
        const c = f.node(() => 1, { name: "c" });
        return new f.Workflow({ name: "w", edges: [["START", a], [b, c]] });
      },
      "route on an edge from START (routing map)": (f) => new f.Workflow({ name: "w", edges: [["START", { x: f.node(() => 1, { name: "a" }) }]] }),
      "route on an edge from START (Edge)": (f) => new f.Workflow({ name: "w", edges: [new f.Edge(f.START, f.node(() => 1, { name: "a" }), "x")] }),
      "edge into START": (f) => {
        const a = f.node(() => 1, { name: "a" });
        return new f.Workflow({ name: "w", edges: [["START", a], [a, "START"]] });
      },
      "two DEFAULT_ROUTE edges from one node": (f) => {
        const a = f.node(() => 1, { name: "a" });
        const b = f.node(() => 1, { name: "b" });
        const c = f.node(() => 1, { name: "c" });
        return new f.Workflow({ name: "w", edges: [["START", a], new f.Edge(a, b, f.DEFAULT_ROUTE), new f.Edge(a, c, f.DEFAULT_ROUTE)] });
      },
      "DEFAULT_ROUTE in a list of routes": (f) => {
        const a = f.node(() => 1, { name: "a" });
        return new f.Workflow({ name: "w", edges: [["START", a], new f.Edge(a, f.node(() => 1, { name: "b" }), ["x", f.DEFAULT_ROUTE])] });
      },
      "unconditional cycle": (f) => {
        const a = f.node(() => 1, { name: "a" });
        const b = f.node(() => 1, { name: "b" });
        return new f.Workflow({ name: "w", edges: [["START", a, b, a]] });
      },
      "empty routing map": (f) => new f.Workflow({ name: "w", edges: [["START", f.node(() => 1, { name: "a" }), {}]] }),
      "duplicate edge": (f) => {
        const a = f.node(() => 1, { name: "a" });
        return new f.Workflow({ name: "w", edges: [["START", a], ["START", a]] });
      },
      "consecutive routing maps": (f) => {
        const a = f.node(() => 1, { name: "a" });
        return new f.Workflow({ name: "w", edges: [["START", a, { x: f.node(() => 1, { name: "b" }) }, { y: f.node(() => 1, { name: "c" }) }]] });
      },
      "edges and dynamicEntry together": (f) => new f.Workflow({ name: "w", edges: [["START", f.node(() => 1, { name: "a" })]], dynamicEntry: () => 1 }),
      "neither edges nor dynamicEntry": (f) => new f.Workflow({ name: "w" }),
      "maxConcurrency 0": (f) => new f.Workflow({ name: "w", edges: [["START", f.node(() => 1, { name: "a" })]], maxConcurrency: 0 }),
      "an empty node name": (f) => f.node(() => 1, { name: "  " }),
    };
    const verdict = (f: Framework, build: (f: Framework) => unknown) => {
      try {
        build(f);
        return "accepted";
      } catch (error) {
        return f === toolsmithModule ? `refused ${(error as { code?: string }).code}` : "refused";
      }
    };
    const adkVerdicts = Object.fromEntries(Object.entries(cases).map(([name, build]) => [name, verdict(adkModule, build)]));
    const toolsmithVerdicts = Object.fromEntries(Object.entries(cases).map(([name, build]) => [name, verdict(toolsmithModule, build)]));
    expect(adkVerdicts).toEqual(Object.fromEntries(Object.keys(cases).map((name) => [name, "refused"])));
    expect(toolsmithVerdicts).toEqual(Object.fromEntries(Object.keys(cases).map((name) => [name, "refused INVALID_WORKFLOW"])));
    // A valid routed cycle is accepted by both.
    for (const f of [adkModule, toolsmithModule] as Framework[]) {
      const a = f.node(() => 1, { name: "a" });
      const b = f.node(() => 1, { name: "b" });
      expect(() => new f.Workflow({ name: "w", edges: [["START", a, b, { again: a }]] })).not.toThrow();
    }
  });

  it("a node that throws: ADK yields the node's error event and the run throws; toolsmith ends the run with one NODE_FAILED event and does not throw (deliberate difference)", async () => {
    const { adk, toolsmith } = await sideBySide((f) => {
      const ok = f.node((_ctx: Ctx, input: unknown) => `ok ${textOf(input)}`, { name: "ok" });
      const boom = f.node(() => {
        throw new Error("kaput");
      }, { name: "boom" });
      const never = f.node(() => "never", { name: "never" });
      return new f.Workflow({ name: "failing", edges: [["START", ok, boom, never]] });
    });
    // What happens before the failure is the same.
    expect(toolsmith[0]!.events[0]).toEqual(adk[0]!.events[0]);
    // ADK: an error event from the node (its code from the error, UNKNOWN_ERROR for a plain Error), then the run throws.
    expect(adk[0]!.events.slice(1)).toEqual([{ author: "boom", path: "failing.boom", errorCode: "UNKNOWN_ERROR" }]);
    expect(adk[0]!.thrown).toBe("kaput");
    // toolsmith: one error event authored by the node, with NODE_FAILED and the node's path; the run ends without throwing.
    expect(toolsmith[0]!.events.slice(1)).toEqual([{ author: "boom", path: "failing.boom", errorCode: "NODE_FAILED" }]);
    expect(toolsmith[0]!.thrown).toBeUndefined();
    // Neither runs the node after.
    for (const run of [adk, toolsmith]) expect(run[0]!.stored.map((event) => event.author)).not.toContain("never");
  });

  it("a node that fails cancels a running sibling through ctx.abortSignal", async () => {
    const cancelled: Record<string, boolean> = {};
    const { adk, toolsmith } = await sideBySide((f) => {
      const key = f === adkModule ? "adk" : "toolsmith";
      cancelled[key] = false;
      const patient = f.node(async (ctx: Ctx & { abortSignal?: AbortSignal }) => {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 300);
          ctx.abortSignal?.addEventListener("abort", () => {
            cancelled[key] = true;
            clearTimeout(timer);
            resolve();
          }, { once: true });
        });
        return "patient-done";
      }, { name: "patient" });
      const boom = f.node(async () => {
        await pause(10);
        throw new Error("boom");
      }, { name: "boom" });
      return new f.Workflow({ name: "cancel_siblings", edges: [["START", [patient, boom]]] });
    });
    // ADK: the error event, then the sibling, cancelled, finishes at once; then the run throws.
    expect(adk[0]!.thrown).toBe("boom");
    expect(adk[0]!.events.map(({ author, output, branch }) => ({ author, output, branch }))).toEqual([
      { author: "boom", output: undefined, branch: undefined },
      { author: "patient", output: "patient-done", branch: "patient@1" },
    ]);
    expect(cancelled.adk).toBe(true);
    // The same events on toolsmith (its error event and not throwing are the deliberate difference asserted above).
    expect(toolsmith[0]!.events.map(({ author, output, branch }) => ({ author, output, branch }))).toEqual(adk[0]!.events.map(({ author, output, branch }) => ({ author, output, branch })));
    expect(cancelled.toolsmith).toBe(true);
  });

  it("maxConcurrency: 1 runs a fan-out of three async nodes one at a time on both (2 lets two run)", async () => {
    const peaks: Record<string, number> = {};
    const build = (limit: number) => (f: Framework) => {
      let running = 0;
      const key = `${f === adkModule ? "adk" : "toolsmith"}/${limit}`;
      peaks[key] = 0;
      const worker = (name: string) =>
        f.node(async () => {
          running += 1;
          peaks[key] = Math.max(peaks[key]!, running);
          await pause(5);
          running -= 1;
          return name;
        }, { name });
      return new f.Workflow({ name: "limited", maxConcurrency: limit, edges: [["START", [worker("w1"), worker("w2"), worker("w3")], new f.JoinNode({ name: "join" })]] });
    };
    const one = await sideBySide(build(1));
    expect(one.toolsmith).toEqual(one.adk);
    expect(one.adk[0]!.events.map((event) => event.author)).toEqual(["w1", "w2", "w3", "join"]);
    const two = await sideBySide(build(2));
    expect(two.toolsmith).toEqual(two.adk);
    expect(peaks).toEqual({ "adk/1": 1, "toolsmith/1": 1, "adk/2": 2, "toolsmith/2": 2 });
  });

  it("waitForOutput: a node that ends without output stays waiting (nothing after it runs) and runs again on its next trigger", async () => {
    const build = (waitForOutput: boolean) => (f: Framework) => {
      let seen = 0;
      const a = f.node(() => "from a", { name: "a" });
      const b = f.node(async () => {
        await pause(5);
        return "from b";
      }, { name: "b" });
      const gate = f.node((_ctx: Ctx, input: unknown) => {
        seen += 1;
        return seen === 2 ? `open after ${textOf(input)}` : undefined;
      }, { name: "gate", waitForOutput });
      const after = f.node((_ctx: Ctx, input: unknown) => `after ${textOf(input)}`, { name: "after" });
      return new f.Workflow({ name: "gated", edges: [["START", [a, b], gate, after]] });
    };
    const waiting = await sideBySide(build(true));
    expect(waiting.toolsmith).toEqual(waiting.adk);
    expect(waiting.adk[0]!.events.map((event) => `${event.author}:${textOf(event.output)}`)).toEqual(["a:from a", "b:from b", "gate:open after from b", "after:after open after from b"]);
    const eager = await sideBySide(build(false));
    expect(eager.toolsmith).toEqual(eager.adk);
  });

  it("a routed loop runs a node again until it takes the way out", async () => {
    const { adk, toolsmith } = await sideBySide((f) => {
      const count = f.node((ctx: Ctx, input: unknown) => {
        const n = typeof input === "number" ? input + 1 : 1;
        ctx.route = n < 3 ? "again" : "done";
        return n;
      }, { name: "count" });
      const finish = f.node((_ctx: Ctx, input: unknown) => `counted to ${textOf(input)}`, { name: "finish" });
      return new f.Workflow({ name: "loop", edges: [["START", count, { again: count, done: finish }]] });
    });
    expect(toolsmith).toEqual(adk);
    expect(adk[0]!.events.map((event) => `${event.author}:${textOf(event.output)}`)).toEqual(["count:1", "count:2", "count:3", "finish:counted to 3"]);
  });

  it("events a node yields itself: an Event with route and output, and a Content (no output: the next node gets undefined)", async () => {
    const { adk, toolsmith } = await sideBySide((f) => {
      const decide = new f.FunctionNode("decide", (ctx: Ctx & { invocationId: string }) => f.createEvent({ invocationId: ctx.invocationId, author: "decide", output: { picked: "right" }, route: "right", content: { role: "model", parts: [{ text: "picking right" }] } }));
      const left = f.node(() => "left", { name: "left" });
      const note = f.node(function* note() {
        yield { role: "model", parts: [{ text: "just a note" }] };
      });
      const last = f.node((_ctx: Ctx, input: unknown) => `last got ${String(input)}`, { name: "last" });
      return new f.Workflow({ name: "own_events", edges: [["START", decide, { left, right: note }], [note, last]] });
    });
    expect(toolsmith).toEqual(adk);
    expect(adk[0]!.events.map(({ author, text, output }) => ({ author, text, output }))).toEqual([
      { author: "decide", text: "picking right", output: { picked: "right" } },
      { author: "note", text: "just a note", output: undefined },
      { author: "last", text: "last got undefined", output: "last got undefined" },
    ]);
  });

  it("inputSchema and outputSchema (zod): parsed values flow on; a mismatch fails the node (ADK throws, toolsmith ends with the node's error event)", async () => {
    const { adk, toolsmith } = await sideBySide((f) => {
      const parse = f.node((_ctx: Ctx, input: unknown) => (input as number) + 1, { name: "parse", inputSchema: z.coerce.number(), outputSchema: z.number().transform((n) => ({ n })) });
      const show = f.node((_ctx: Ctx, input: unknown) => textOf(input), { name: "show" });
      return new f.Workflow({ name: "schemas", edges: [["START", parse, show]] });
    }, ["41"]);
    expect(toolsmith).toEqual(adk);
    expect(adk[0]!.events.map((event) => event.output)).toEqual([{ n: 42 }, '{"n":42}']);

    const bad = await sideBySide((f) => new f.Workflow({ name: "bad", edges: [["START", f.node(() => "not a number", { name: "strict", outputSchema: z.number() })]] }));
    expect(bad.adk[0]!.events.map(({ author, path, errorCode }) => ({ author, path, errorCode: errorCode !== undefined }))).toEqual([{ author: "strict", path: "bad.strict", errorCode: true }]);
    expect(bad.adk[0]!.thrown).toBeDefined();
    // Deliberate difference (as for a node that throws): toolsmith's run ends with the error event and does not throw.
    expect(bad.toolsmith[0]!.events.map(({ author, path, errorCode }) => ({ author, path, errorCode: errorCode !== undefined }))).toEqual([{ author: "strict", path: "bad.strict", errorCode: true }]);
    expect(bad.toolsmith[0]!.thrown).toBeUndefined();
  });

  it("asRunnableRoot: a lone function given to the runner runs as a one-node workflow named after it", async () => {
    const { adk, toolsmith } = await sideBySide((f) => {
      function greet(_ctx: Ctx, input: unknown) {
        return `hello ${textOf(input)}`;
      }
      const root = f.asRunnableRoot(greet);
      expect(f.isWorkflow(root)).toBe(true);
      expect(f.isRunnableRoot(root)).toBe(true);
      return root;
    }, ["there"]);
    expect(toolsmith).toEqual(adk);
    expect(adk[0]!.events).toEqual([{ author: "greet", text: "hello there", output: "hello there", path: "greet.greet", outputFor: ["greet.greet"] }]);
  });

  it("commonPrefixOf and createSubBranch agree (but for the segment mark)", () => {
    for (const f of [adkModule, toolsmithModule] as Framework[]) {
      expect(f.commonPrefixOf(["a.b.c", "a.b.d", "a.b"])).toBe("a.b");
      expect(f.commonPrefixOf(["x", "y"])).toBe("");
    }
    expect(adkModule.createSubBranch("root", { name: "n", runId: "2" })).toBe("root.n@2");
    // Deliberate difference: toolsmith's sub-branch segment is name#runId.
    expect(toolsmithModule.createSubBranch("root", { name: "n", runId: "2" })).toBe("root.n#2");
  });
});
