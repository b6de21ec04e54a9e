import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  asRunnableRoot,
  createEvent,
  DEFAULT_ROUTE,
  FunctionNode,
  FunctionTool,
  InMemoryRunner,
  isRunnableRoot,
  isWorkflow,
  JoinNode,
  LlmAgent,
  node,
  SequentialAgent,
  ToolsmithError,
  Workflow,
  type AgentLike,
  type Content,
  type Event,
  type NodeContext,
} from "toolsmith";
import { collect, ScriptedModel, textResponse, userMessage } from "toolsmith/testing";

type Handler = (ctx: NodeContext, input: unknown) => unknown;

/** A handler whose function name (and so node name) is `name`. */
function named(name: string, handler: Handler): Handler {
  Object.defineProperty(handler, "name", { value: name });
  return handler;
}

/** A handler that records each input it gets in `log` and outputs `name(input)`. */
function recorder(name: string, log: Array<[string, unknown]>): Handler {
  return named(name, (_ctx, input) => {
    log.push([name, input]);
    return `${name}(${typeof input === "string" ? input : JSON.stringify(input)})`;
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A runner over `agent` with one session: `send` runs a turn and collects its events, `stored` reads the session back. */
async function start(agent: AgentLike) {
  const runner = new InMemoryRunner({ agent, appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const send = (message: string | Content, extra: { abortSignal?: AbortSignal } = {}) =>
    collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: typeof message === "string" ? userMessage(message) : message, ...extra }));
  const stored = async () => (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
  return { runner, session, send, stored };
}

/** One line per event: author, node path, and its output, error or text. */
function said(event: Event): string {
  const path = event.nodeInfo?.path ? ` [${event.nodeInfo.path}]` : "";
  const what = event.errorCode ? `error ${event.errorCode}` : event.output !== undefined ? `output ${JSON.stringify(event.output)}` : event.route !== undefined ? `route ${JSON.stringify(event.route)}` : event.content?.parts?.map((part) => part.text ?? (part.functionCall ? `call ${part.functionCall.name}` : "?")).join("+") ?? `state ${JSON.stringify(event.actions.stateDelta)}`;
  return `${event.author}${path}: ${what}`;
}

/** The stored events after the user's message are exactly the events the run yielded, in order. */
async function expectStoredAsYielded(events: Event[], stored: () => Promise<{ events: Event[] }>, userEvents = 1) {
  const session = await stored();
  expect(session.events.slice(userEvents).map((event) => event.id)).toEqual(events.map((event) => event.id));
  expect(new Set(session.events.map((event) => event.id)).size).toBe(session.events.length);
}

/** What `make` throws: code and message. */
function refusal(make: () => unknown): [string, string] {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolsmithError);
    return [(error as ToolsmithError).code, (error as Error).message];
  }
  throw new Error("Nothing was refused.");
}

describe("running a graph workflow through the runner", () => {
  it("runs a chain: the user's text goes to the first node, each output to the next, and the last output is the workflow's", async () => {
    const upper = named("upper", (_ctx, input) => String(input).toUpperCase());
    const exclaim = named("exclaim", (_ctx, input) => `${String(input)}!`);
    const { send, stored } = await start(new Workflow({ name: "wf", edges: [["START", upper, exclaim]] }));
    const events = await send("hello");
    expect(events.map(said)).toEqual(['upper [wf.upper]: output "HELLO"', 'exclaim [wf.exclaim]: output "HELLO!"']);
    // The last node's event already carries the workflow's output: no event is added for it.
    expect(events[1]!.content).toEqual({ role: "model", parts: [{ text: "HELLO!" }] });
    expect(events[1]!.nodeInfo).toEqual({ path: "wf.exclaim", outputFor: ["wf.exclaim"] });
    await expectStoredAsYielded(events, stored);
  });

  it("adds the workflow's output as its own event when another node's output came after the terminal one", async () => {
    const quick = named("quick", () => "quick answer");
    const late = named("late", async () => {
      await sleep(15);
      return "late note";
    });
    const quiet = named("quiet", () => undefined);
    const { send, stored } = await start(new Workflow({ name: "wf", edges: [["START", [quick, late]], [late, quiet]] }));
    const events = await send("go");
    expect(events.map(said)).toEqual(['quick [wf.quick]: output "quick answer"', 'late [wf.late]: output "late note"', 'wf: output "quick answer"']);
    expect(events[2]!.content).toEqual({ role: "model", parts: [{ text: "quick answer" }] });
    await expectStoredAsYielded(events, stored);
  });

  it("follows the route a node took through a routing map, and the DEFAULT_ROUTE edge when no route matched", async () => {
    const log: Array<[string, unknown]> = [];
    const classify = named("classify", (ctx, input) => {
      const text = String(input);
      const route = text.endsWith("?") ? "question" : text.includes("angry") ? "complaint" : "other";
      return createEvent({ author: "classify", invocationId: ctx.invocationId, output: text, route });
    });
    const [answer, apologise, escalate, note] = ["answer", "apologise", "escalate", "note"].map((name) => recorder(name, log));
    const workflow = new Workflow({ name: "triage", edges: [["START", classify, { question: answer!, complaint: [apologise!, escalate!], [DEFAULT_ROUTE]: note! }]] });
    const ran: Record<string, string[]> = {};
    for (const message of ["Where is it?", "I am angry", "Hello there"]) {
      log.length = 0;
      const { send } = await start(workflow);
      const events = await send(message);
      expect(events[0]!.route).toBe(message.endsWith("?") ? "question" : message.includes("angry") ? "complaint" : "other");
      ran[message] = log.map(([name, input]) => `${name}<-${String(input)}`).sort();
    }
    expect(ran).toEqual({
      "Where is it?": ["answer<-Where is it?"],
      "I am angry": ["apologise<-I am angry", "escalate<-I am angry"],
      "Hello there": ["note<-Hello there"],
    });
  });

  it("matches a route set on ctx.route by hand, and a text route against a number or boolean key", async () => {
    const log: Array<[string, unknown]> = [];
    const pick = named("pick", (ctx, input) => {
      ctx.route = input === "both" ? ["1", "true"] : String(input);
      return `picked ${String(input)}`;
    });
    const [one, yes, other] = ["one", "yes", "other"].map((name) => recorder(name, log));
    const workflow = new Workflow({ name: "wf", edges: [["START", pick, { 1: one!, true: yes!, [DEFAULT_ROUTE]: other! }]] });
    const outcomes: Record<string, string[]> = {};
    for (const message of ["1", "true", "both", "2"]) {
      log.length = 0;
      await (await start(workflow)).send(message);
      outcomes[message] = log.map(([name]) => name).sort();
    }
    expect(outcomes).toEqual({ 1: ["one"], true: ["yes"], both: ["one", "yes"], 2: ["other"] });
  });

  it("reads a routing map key written DEFAULT_ROUTE (the text) as an ordinary route; the fallback is the constant, [DEFAULT_ROUTE]", async () => {
    const log: Array<[string, unknown]> = [];
    const classify = named("classify", (ctx, input) => createEvent({ invocationId: ctx.invocationId, output: input, route: String(input).endsWith("?") ? "question" : "statement" }));
    const [answer, note] = ["answer", "note"].map((name) => recorder(name, log));
    const asText = new Workflow({ name: "triage", edges: [["START", classify, { question: answer!, DEFAULT_ROUTE: note! }]] });
    expect(asText.graph!.edges.map((edge) => edge.route)).toEqual([null, "question", "DEFAULT_ROUTE"]);
    await (await start(asText)).send("Just saying.");
    expect(log).toEqual([]);
    const asConstant = new Workflow({ name: "triage", edges: [["START", classify, { question: answer!, [DEFAULT_ROUTE]: note! }]] });
    await (await start(asConstant)).send("Just saying.");
    expect(log.map(([name]) => name)).toEqual(["note"]);
  });

  it("loops through a routed edge back to an earlier node until the node takes the other route", async () => {
    const init = named("init", (ctx) => {
      ctx.state.set("count", 0);
      return 0;
    });
    const count = named("count", (ctx, input) => {
      const next = Number(input) + 1;
      ctx.state.set("count", next);
      ctx.route = next < 4 ? "again" : "done";
      return next;
    });
    const finish = named("finish", (_ctx, input) => `counted to ${String(input)}`);
    const { send, stored } = await start(new Workflow({ name: "wf", edges: [["START", init, count, { again: count, done: finish }]] }));
    const events = await send("go");
    expect(events.map(said)).toEqual(["init [wf.init]: output 0", "count [wf.count]: output 1", "count [wf.count]: output 2", "count [wf.count]: output 3", "count [wf.count]: output 4", 'finish [wf.finish]: output "counted to 4"']);
    expect((await stored()).state).toEqual({ count: 4 });
  });

  it("fans out to nodes on branches of their own and joins their outputs by name, once", async () => {
    const split = named("split", (_ctx, input) => String(input).split(" "));
    const left = named("left", async (_ctx, input) => {
      await sleep(10);
      return (input as string[])[0];
    });
    const right = named("right", (_ctx, input) => (input as string[]).at(-1));
    const merge = new JoinNode({ name: "merge" });
    const joined: unknown[] = [];
    const summarise = named("summarise", (_ctx, input) => {
      joined.push(input);
      return `${(input as Record<string, string>).left}…${(input as Record<string, string>).right}`;
    });
    const { send, stored } = await start(new Workflow({ name: "wf", edges: [["START", split, [left, right], merge, summarise]] }));
    const events = await send("first middle last");
    expect(events.map(said)).toEqual([
      'split [wf.split]: output ["first","middle","last"]',
      'right [wf.right]: output "last"',
      'left [wf.left]: output "first"',
      'merge [wf.merge]: output {"left":"first","right":"last"}',
      'summarise [wf.summarise]: output "first…last"',
    ]);
    expect(joined).toEqual([{ left: "first", right: "last" }]);
    const branchOf = Object.fromEntries(events.map((event) => [event.author, event.branch]));
    // Fanned-out nodes run on branches of their own; the join runs where the branches meet (here, the root).
    expect(branchOf).toEqual({ split: undefined, left: "left#1", right: "right#1", merge: undefined, summarise: undefined });
    await expectStoredAsYielded(events, stored);
  });

  it("fans out from START itself, each node getting the user's text", async () => {
    const log: Array<[string, unknown]> = [];
    const [a, b] = ["a", "b"].map((name) => recorder(name, log));
    const { send } = await start(new Workflow({ name: "wf", edges: [["START", [a!, b!], new JoinNode({ name: "both" })]] }));
    const events = await send("hi");
    expect(log.sort()).toEqual([["a", "hi"], ["b", "hi"]]);
    expect(events.at(-1)!.output).toEqual({ a: "a(hi)", b: "b(hi)" });
    expect(events.filter((event) => event.author !== "both").map((event) => event.branch).sort()).toEqual(["a#1", "b#1"]);
  });

  it("runs a workflow nested in a workflow: its nodes' paths go through it, and its output goes to the next node", async () => {
    const log: Array<[string, unknown]> = [];
    const inner = new Workflow({ name: "inner", edges: [["START", recorder("x", log), recorder("y", log)]] });
    const deeper = new Workflow({ name: "deeper", edges: [["START", recorder("z", log)]] });
    const outer = new Workflow({ name: "outer", edges: [["START", recorder("prep", log), inner, deeper, recorder("finish", log)]] });
    const { send, stored } = await start(outer);
    const events = await send("in");
    expect(events.map(said)).toEqual([
      'prep [outer.prep]: output "prep(in)"',
      'x [outer.inner.x]: output "x(prep(in))"',
      'y [outer.inner.y]: output "y(x(prep(in)))"',
      'z [outer.deeper.z]: output "z(y(x(prep(in))))"',
      'finish [outer.finish]: output "finish(z(y(x(prep(in)))))"',
    ]);
    expect(log.map(([name]) => name)).toEqual(["prep", "x", "y", "z", "finish"]);
    await expectStoredAsYielded(events, stored);
  });

  it("runs a dynamicEntry: ctx.runNode runs children under the workflow's path, numbered per name (name@run), and its return value is the output", async () => {
    const up = named("up", (_ctx, input) => String(input).toUpperCase());
    const seen: unknown[] = [];
    const workflow = new Workflow({
      name: "wf",
      dynamicEntry: async (ctx, input) => {
        const first = await ctx.runNode(up, input);
        const second = await ctx.runNode(up, `${String(first.output)}!`);
        const renamed = await ctx.runNode(up, "x", { nodeName: "shout" });
        // Each ran (nothing is resumed here), so each result is the child's context.
        const [a, b, c] = [first, second, renamed] as NodeContext[];
        seen.push([a!.runId, b!.runId, c!.runId, c!.nodePath]);
        return `${String(second.output)} ${String(renamed.output)}`;
      },
    });
    const { send, stored } = await start(workflow);
    const events = await send("hi");
    expect(events.map(said)).toEqual(['up [wf.up@1]: output "HI"', 'up [wf.up@2]: output "HI!"', 'up [wf.shout@1]: output "X"', 'wf: output "HI! X"']);
    expect(seen).toEqual([["1", "2", "1", "wf.shout@1"]]);
    await expectStoredAsYielded(events, stored);
  });

  it("runs a child asked for twice under one runId once, giving the first run's context again", async () => {
    let runs = 0;
    const once = named("once", (_ctx, input) => {
      runs += 1;
      return `once(${String(input)})`;
    });
    const workflow = new Workflow({
      name: "wf",
      dynamicEntry: async (ctx) => {
        const first = await ctx.runNode(once, "a", { runId: "fixed" });
        const again = await ctx.runNode(once, "b", { runId: "fixed" });
        return [first === again, again.output, (again as NodeContext).nodePath];
      },
    });
    const events = await (await start(workflow)).send("go");
    expect(runs).toBe(1);
    expect(events.map(said)).toEqual(['once [wf.once@fixed]: output "once(a)"', 'wf: output [true,"once(a)","wf.once@fixed"]']);
  });

  it("takes a child's output as the workflow's with useAsOutput, marking the event as the output of both", async () => {
    const up = named("up", (_ctx, input) => String(input).toUpperCase());
    const workflow = new Workflow({
      name: "wf",
      dynamicEntry: async (ctx, input) => {
        await ctx.runNode(up, input, { useAsOutput: true });
        return undefined;
      },
    });
    const events = await (await start(workflow)).send("hi");
    expect(events.map(said)).toEqual(['up [wf.up@1]: output "HI"']);
    expect(events[0]!.nodeInfo!.outputFor).toEqual(["wf.up@1", "wf"]);
  });

  it("runs ctx.runNode children of a graph node under that node's path", async () => {
    const up = named("up", (_ctx, input) => String(input).toUpperCase());
    const caller = named("caller", async (ctx, input) => `${String((await ctx.runNode(up, input)).output)} via caller`);
    const events = await (await start(new Workflow({ name: "wf", edges: [["START", caller]] }))).send("hi");
    expect(events.map(said)).toEqual(['up [wf.caller.up@1]: output "HI"', 'caller [wf.caller]: output "HI via caller"']);
  });
});

describe("what a function node returns or yields", () => {
  /** Runs `handler` as the node `subject` before a node `sink`, and gives the events and what `sink` got. */
  async function around(handler: Handler) {
    const got: unknown[] = [];
    const sink = named("sink", (_ctx, input) => {
      got.push(input);
      return "sunk";
    });
    const { send, stored } = await start(new Workflow({ name: "wf", edges: [["START", named("subject", handler), sink]] }));
    const events = await send("in");
    await expectStoredAsYielded(events, stored);
    return { events: events.filter((event) => event.author === "subject"), got };
  }

  it("makes a plain value the output, shown as text (JSON for anything but a string)", async () => {
    const number = await around(() => 42);
    expect(number.events.map((event) => [event.output, event.content])).toEqual([[42, { role: "model", parts: [{ text: "42" }] }]]);
    expect(number.got).toEqual([42]);
    const object = await around(async () => ({ total: 3, items: ["a"] }));
    expect(object.events[0]!.content!.parts![0]!.text).toBe('{"total":3,"items":["a"]}');
    expect(object.got).toEqual([{ total: 3, items: ["a"] }]);
    const falsy = await around(() => 0);
    expect(falsy.got).toEqual([0]);
  });

  it("sends a Content as the event's content with no output, so the next node gets nothing", async () => {
    const { events, got } = await around(() => ({ role: "model", parts: [{ text: "just words" }] }));
    expect(events.map((event) => [event.content, event.output])).toEqual([[{ role: "model", parts: [{ text: "just words" }] }, undefined]]);
    expect(got).toEqual([undefined]);
  });

  it("sends an Event as it is, marked with the node, its output going on", async () => {
    const { events, got } = await around((ctx) => createEvent({ invocationId: ctx.invocationId, output: { id: 7 }, customMetadata: { source: "test" } }));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ author: "subject", output: { id: 7 }, customMetadata: { source: "test" }, nodeInfo: { path: "wf.subject" } });
    expect(got).toEqual([{ id: 7 }]);
  });

  it("sends nothing for null or undefined, and the next node still runs, with no input", async () => {
    for (const nothing of [null, undefined]) {
      const { events, got } = await around(() => nothing);
      expect(events).toEqual([]);
      expect(got).toEqual([undefined]);
    }
  });

  it("sends one event per value a generator yields, sync or async; the last output goes on", async () => {
    const sync = await around(function* () {
      yield "one";
      yield null;
      yield "two";
    });
    expect(sync.events.map(said)).toEqual(['subject [wf.subject]: output "one"', 'subject [wf.subject]: output "two"']);
    expect(sync.got).toEqual(["two"]);
    const asynchronous = await around(async function* (ctx) {
      yield { role: "model", parts: [{ text: "thinking" }] };
      await sleep(1);
      yield createEvent({ invocationId: ctx.invocationId, output: "from event" });
      yield 3;
    });
    expect(asynchronous.events.map(said)).toEqual(["subject [wf.subject]: thinking", 'subject [wf.subject]: output "from event"', "subject [wf.subject]: output 3"]);
    expect(asynchronous.got).toEqual([3]);
  });
});

describe("state", () => {
  it("lets the next node see state a node wrote, and stores it in the session", async () => {
    const seen: unknown[] = [];
    const write = named("write", (ctx) => {
      ctx.state.set("greeting", "hello");
      ctx.state.set("count", 1);
      return "written";
    });
    const read = named("read", async function* (ctx) {
      seen.push([ctx.state.get("greeting"), ctx.state.get("count")]);
      yield "read";
      // A change after the node's last event goes out on an event of its own.
      ctx.state.set("count", 2);
    } as Handler);
    const { send, stored } = await start(new Workflow({ name: "wf", edges: [["START", write, read]] }));
    const events = await send("go");
    expect(seen).toEqual([["hello", 1]]);
    expect(events.map((event) => [said(event), event.actions.stateDelta])).toEqual([
      ['write [wf.write]: output "written"', { greeting: "hello", count: 1 }],
      ['read [wf.read]: output "read"', {}],
      ["read [wf.read]: state {\"count\":2}", { count: 2 }],
    ]);
    expect((await stored()).state).toEqual({ greeting: "hello", count: 2 });
    await expectStoredAsYielded(events, stored);
  });

  it("lets the next node see a temp: key, which is neither on the events nor stored", async () => {
    const seen: unknown[] = [];
    const scratch = named("scratch", (ctx) => {
      ctx.state.set("temp:draft", "half done");
      ctx.state.set("kept", true);
      return "drafted";
    });
    const finish = named("finish", (ctx) => {
      seen.push(ctx.state.get("temp:draft"));
      return "finished";
    });
    const { send, stored } = await start(new Workflow({ name: "wf", edges: [["START", scratch, finish]] }));
    const events = await send("go");
    expect(seen).toEqual(["half done"]);
    expect(events.map((event) => event.actions.stateDelta)).toEqual([{ kept: true }, {}]);
    const session = await stored();
    expect(session.state).toEqual({ kept: true });
    expect(JSON.stringify(session.events)).not.toContain("half done");
  });

  it("lets nodes fanned out after a node all see what it wrote", async () => {
    const seen: string[] = [];
    const write = named("write", (ctx) => {
      ctx.state.set("topic", "tides");
      return "ok";
    });
    const readers = ["r1", "r2", "r3"].map((name) => named(name, (ctx) => void seen.push(`${name}:${String(ctx.state.get("topic"))}`)));
    await (await start(new Workflow({ name: "wf", edges: [["START", write, readers]] }))).send("go");
    expect(seen.sort()).toEqual(["r1:tides", "r2:tides", "r3:tides"]);
  });
});

describe("node options", () => {
  it("leaves a waitForOutput node that gave no output or route waiting: nothing after it runs", async () => {
    const log: Array<[string, unknown]> = [];
    const silent = () => undefined;
    const waiting = new Workflow({ name: "wf", edges: [["START", node(silent, { name: "silent", waitForOutput: true }), recorder("after", log)]] });
    expect(await (await start(waiting)).send("go")).toEqual([]);
    expect(log).toEqual([]);
    // Without waitForOutput the next node runs, with no input.
    const going = new Workflow({ name: "wf", edges: [["START", node(silent, { name: "silent" }), recorder("after", log)]] });
    await (await start(going)).send("go");
    expect(log).toEqual([["after", undefined]]);
    // A route counts as something: a waiting node that routes lets its edge fire.
    log.length = 0;
    const routing = (ctx: NodeContext) => {
      ctx.route = "on";
    };
    const routed = new Workflow({ name: "wf", edges: [["START", node(routing, { name: "routing", waitForOutput: true }), { on: recorder("after", log) }]] });
    await (await start(routed)).send("go");
    expect(log).toEqual([["after", undefined]]);
  });

  it("runs at most maxConcurrency nodes at once, and every node in the end", async () => {
    const peaks: Record<string, number> = {};
    for (const limit of [1, 2, 3, undefined]) {
      let live = 0;
      let peak = 0;
      const ran: string[] = [];
      const workers = ["w1", "w2", "w3", "w4", "w5", "w6"].map((name) =>
        named(name, async () => {
          live += 1;
          peak = Math.max(peak, live);
          await sleep(4);
          live -= 1;
          ran.push(name);
          return name;
        }),
      );
      const workflow = new Workflow({ name: "wf", maxConcurrency: limit, edges: [["START", named("fan", () => "go"), workers, new JoinNode({ name: "all" })]] });
      const events = await (await start(workflow)).send("go");
      expect(ran.sort()).toEqual(["w1", "w2", "w3", "w4", "w5", "w6"]);
      expect(Object.keys(events.at(-1)!.output as object).sort()).toEqual(["w1", "w2", "w3", "w4", "w5", "w6"]);
      peaks[String(limit)] = peak;
    }
    console.log(`peak concurrency of 6 parallel nodes by maxConcurrency: ${JSON.stringify(peaks)}`);
    expect(peaks).toEqual({ 1: 1, 2: 2, 3: 3, undefined: 6 });
  });

  it("refuses a node name holding \"@\", however the node is made", () => {
    const message = (name: string) => `Node "${name}": a node's name cannot hold "@", which marks the branch of an agent run as a tool (its events would not reach the caller). Rename the node.`;
    expect(refusal(() => new FunctionNode("a@b", () => 1))).toEqual(["INVALID_WORKFLOW", message("a@b")]);
    expect(refusal(() => node(() => 1, { name: "x@1" }))).toEqual(["INVALID_WORKFLOW", message("x@1")]);
    expect(refusal(() => node(node(named("fine", () => 1)), { name: "@" }))).toEqual(["INVALID_WORKFLOW", message("@")]);
    expect(refusal(() => new JoinNode({ name: "join@2" }))).toEqual(["INVALID_WORKFLOW", message("join@2")]);
    expect(refusal(() => new Workflow({ name: "flow@home", edges: [["START", named("a", () => 1)]] }))).toEqual(["INVALID_WORKFLOW", message("flow@home")]);
  });

  it("refuses the node options toolsmith does not honour, and isolation scopes it cannot use, saying why", () => {
    const f = named("f", () => 1);
    // retryConfig, timeout, stateSchema and isolationScope are honoured (retry-and-timeout.test.ts,
    // adk-compat/state-schema-side-by-side.test.ts, isolation-scope.test.ts).
    expect(node(f, { stateSchema: z.object({}) }).stateSchema).toBeDefined();
    expect(node(f, { isolationScope: true }).isolationScope).toBe(true);
    // A copy with other options keeps the options the node had.
    const scoped = node(f, { isolationScope: "s", stateSchema: z.object({}) });
    expect(node(scoped, { timeout: 2 })).toMatchObject({ isolationScope: "s", timeout: 2, stateSchema: scoped.stateSchema });
    for (const bad of ["", false, 3]) {
      const expected = ["INVALID_WORKFLOW", `Node "f": isolationScope must be a non-empty string, or true for a scope per run, not ${JSON.stringify(bad)}.`];
      expect(refusal(() => node(f, { isolationScope: bad as never }))).toEqual(expected);
      expect(refusal(() => new FunctionNode("f", f, { isolationScope: bad as never }))).toEqual(expected);
    }
    // parallelWorker is honoured (test/workflow/parallel-worker.test.ts); its bound alone is refused.
    expect(refusal(() => node(f, { maxParallelWorkers: 4 }))).toEqual(["INVALID_WORKFLOW", "node(): maxParallelWorkers goes with parallelWorker: true (a worker running the node once per item of a list)."]);
    // authConfig is honoured on function nodes (test/workflow/node-credential.test.ts); one with no scheme is refused.
    expect(refusal(() => node(f, { authConfig: { credentialKey: "k" } as never }))).toEqual([
      "UNSUPPORTED_OPTION",
      'Node "f": authConfig must be an auth config with an authScheme (such as { authScheme: { type: "apiKey", in: "header", name: "X-Api-Key" }, credentialKey: "weather" }).',
    ]);
    const [code, misspelt] = refusal(() => node(f, { waitforoutput: true } as never));
    expect(code).toBe("UNSUPPORTED_OPTION");
    expect(misspelt).toMatch(/^Node "f" has no option "waitforoutput": it takes name, description, waitForOutput, inputSchema, outputSchema\b.*\. Check its spelling\.$/);
    const [workflowCode, workflowMisspelt] = refusal(() => new Workflow({ name: "w", edges: [["START", f]], maxconcurrency: 2 } as never));
    expect(workflowCode).toBe("UNSUPPORTED_OPTION");
    expect(workflowMisspelt).toMatch(/^Node "w" has no option "maxconcurrency": it takes name, .*edges, dynamicEntry, maxConcurrency\. Check its spelling\.$/);
  });

  // An option set to what toolsmith does anyway changes nothing, and the project's rule (unhonouredOption's
  // `behavesAs`) is to take it.
  it("takes rerunOnResume, and parallelWorker: false, which is what toolsmith does anyway", () => {
    const f = named("f", () => 1);
    expect(node(f, { rerunOnResume: false }).rerunOnResume).toBe(false);
    expect(node(f, { rerunOnResume: true }).rerunOnResume).toBe(true);
    expect(new FunctionNode("f", f).rerunOnResume).toBe(false);
    expect(node(f, { parallelWorker: false }).name).toBe("f");
  });
});

describe("input and output schemas (zod)", () => {
  it("passes the parsed value on: an output schema strips what it does not know, an input schema coerces", async () => {
    const got: unknown[] = [];
    const produce = node(named("produce", () => ({ n: 1, secret: "dropped" })), { outputSchema: z.object({ n: z.number() }) });
    const consume = node(
      named("consume", (_ctx, input) => {
        got.push(input);
        return "ok";
      }),
      { inputSchema: z.object({ n: z.coerce.string() }) },
    );
    const { send, stored } = await start(new Workflow({ name: "wf", edges: [["START", produce, consume]] }));
    const events = await send("go");
    expect(events[0]!.output).toEqual({ n: 1 });
    expect(events[0]!.content!.parts![0]!.text).toBe('{"n":1}');
    expect(got).toEqual([{ n: "1" }]);
    expect((await stored()).events[1]!.output).toEqual({ n: 1 });
  });

  it("ends the run with a NODE_SCHEMA_MISMATCH event for a wrong output; what came before stays stored, the wrong output is not", async () => {
    const log: Array<[string, unknown]> = [];
    const first = named("first", (ctx) => {
      ctx.state.set("kept", true);
      return "fine";
    });
    const bad = node(named("bad", () => ({ n: "not a number" })), { outputSchema: z.object({ n: z.number() }) });
    const { send, stored } = await start(new Workflow({ name: "wf", edges: [["START", first, bad, recorder("after", log)]] }));
    const events = await send("go");
    expect(events.map(said)).toEqual(['first [wf.first]: output "fine"', "bad [wf.bad]: error NODE_SCHEMA_MISMATCH"]);
    const message = events[1]!.errorMessage!;
    expect(message.startsWith('Node "wf.bad" failed: Node "bad" got an output that does not match its outputSchema: ')).toBe(true);
    expect(message.endsWith(". Fix the node itself, or loosen the schema.")).toBe(true);
    expect(message).toContain("n");
    expect(log).toEqual([]);
    const session = await stored();
    expect(session.state).toEqual({ kept: true });
    expect(JSON.stringify(session.events)).not.toContain("not a number");
    await expectStoredAsYielded(events, stored);
  });

  it("ends the run with a NODE_SCHEMA_MISMATCH event for a wrong input, before the node runs", async () => {
    let ran = false;
    const picky = node(
      named("picky", () => {
        ran = true;
        return "x";
      }),
      { inputSchema: z.number() },
    );
    const events = await (await start(new Workflow({ name: "wf", edges: [["START", named("text", () => "words"), picky]] }))).send("go");
    expect(ran).toBe(false);
    expect(events.at(-1)).toMatchObject({ author: "picky", errorCode: "NODE_SCHEMA_MISMATCH", nodeInfo: { path: "wf.picky" } });
    expect(events.at(-1)!.errorMessage).toMatch(/^Node "wf\.picky" failed: Node "picky" got an input that does not match its inputSchema: .*\. Fix the node before it, or loosen the schema\.$/s);
  });

  it("lets a Content input through an input schema unchecked, as ADK does", async () => {
    const got: unknown[] = [];
    const content = { role: "model", parts: [{ text: "a message" }] };
    const asContent = named("asContent", (ctx) => createEvent({ invocationId: ctx.invocationId, output: content }));
    const strict = node(
      named("strict", (_ctx, input) => {
        got.push(input);
        return "took it";
      }),
      { inputSchema: z.number() },
    );
    await (await start(new Workflow({ name: "wf", edges: [["START", asContent, strict]] }))).send("go");
    expect(got).toEqual([content]);
  });

  it("refuses a schema that is not zod", () => {
    expect(refusal(() => node(named("f", () => 1), { inputSchema: { type: "object" } as never }))).toEqual([
      "INVALID_WORKFLOW",
      'Node "f": inputSchema must be a zod schema (ADK checks nothing for a genai Schema, so toolsmith does not take one). Write it with zod.',
    ]);
    expect(refusal(() => new JoinNode({ name: "j", outputSchema: { type: "string" } as never }))).toEqual([
      "INVALID_WORKFLOW",
      'Node "j": outputSchema must be a zod schema (ADK checks nothing for a genai Schema, so toolsmith does not take one). Write it with zod.',
    ]);
  });
});

describe("failures", () => {
  it("ends the run with one NODE_FAILED event of the node that threw; the run does not throw, and what came before is stored", async () => {
    const log: Array<[string, unknown]> = [];
    const first = named("first", (ctx) => {
      ctx.state.set("before", 1);
      return "fine";
    });
    const boom = named("boom", () => {
      throw new Error("kaput");
    });
    const { send, stored } = await start(new Workflow({ name: "wf", edges: [["START", first, boom, recorder("never", log)]] }));
    const events = await send("go");
    expect(events.map(said)).toEqual(['first [wf.first]: output "fine"', "boom [wf.boom]: error NODE_FAILED"]);
    expect(events[1]!.errorMessage).toBe('Node "wf.boom" failed: Error: kaput The workflow stopped there; the session holds every event up to it.');
    expect(log).toEqual([]);
    expect((await stored()).state).toEqual({ before: 1 });
    await expectStoredAsYielded(events, stored);
  });

  it("lets a parallel sibling of a failed node finish and stores its events, but starts nothing after either", async () => {
    const log: Array<[string, unknown]> = [];
    const boom = named("boom", async () => {
      await sleep(2);
      throw new TypeError("bad input");
    });
    const sawAbort: boolean[] = [];
    const slow = named("slow", async function* (ctx) {
      yield "slow started";
      await sleep(25);
      // Told to stop (NodeContext.abortSignal), it may still finish; what it sends is stored.
      sawAbort.push(ctx.abortSignal?.aborted ?? false);
      ctx.state.set("slow", "done");
      yield "slow finished";
    } as Handler);
    const { send, stored } = await start(new Workflow({ name: "wf", edges: [["START", named("first", () => "go"), [boom, slow]], [slow, recorder("afterSlow", log)]] }));
    const events = await send("go");
    expect(events.map(said)).toEqual(['first [wf.first]: output "go"', 'slow [wf.slow]: output "slow started"', "boom [wf.boom]: error NODE_FAILED", 'slow [wf.slow]: output "slow finished"']);
    expect(events[2]!.errorMessage).toBe('Node "wf.boom" failed: TypeError: bad input The workflow stopped there; the session holds every event up to it.');
    expect(events.filter((event) => event.errorCode)).toHaveLength(1);
    expect(sawAbort).toEqual([true]);
    expect(log).toEqual([]);
    expect((await stored()).state).toEqual({ slow: "done" });
    await expectStoredAsYielded(events, stored);
  });

  it("reports a failure deep in nested workflows once, with the failed node's full path", async () => {
    const log: Array<[string, unknown]> = [];
    const boom = named("boom", () => {
      throw "not even an Error";
    });
    const inner = new Workflow({ name: "inner", edges: [["START", boom]] });
    const middle = new Workflow({ name: "middle", edges: [["START", inner, recorder("afterInner", log)]] });
    const outer = new Workflow({ name: "outer", edges: [["START", middle, recorder("afterMiddle", log)]] });
    const { send, stored } = await start(outer);
    const events = await send("go");
    expect(events.map(said)).toEqual(["boom [outer.middle.inner.boom]: error NODE_FAILED"]);
    expect(events[0]!.errorMessage).toBe('Node "outer.middle.inner.boom" failed: not even an Error The workflow stopped there; the session holds every event up to it.');
    expect(log).toEqual([]);
    await expectStoredAsYielded(events, stored);
  });

  it("stops at a node that sends an error event of its own, without adding another", async () => {
    const log: Array<[string, unknown]> = [];
    const refuses = named("refuses", (ctx) => createEvent({ invocationId: ctx.invocationId, errorCode: "QUOTA", errorMessage: "Out of quota." }));
    const { send, stored } = await start(new Workflow({ name: "wf", edges: [["START", refuses, recorder("after", log)]] }));
    const events = await send("go");
    expect(events.map((event) => [said(event), event.errorMessage])).toEqual([["refuses [wf.refuses]: error QUOTA", "Out of quota."]]);
    expect(log).toEqual([]);
    await expectStoredAsYielded(events, stored);
  });

  it("ends a dynamicEntry run whose child threw with one NODE_FAILED event; the run does not throw, and what came before is stored", async () => {
    const boom = named("boom", () => {
      throw new Error("kaput");
    });
    const up = named("up", (_ctx, input) => String(input).toUpperCase());
    const { send, stored } = await start(
      new Workflow({
        name: "wf",
        dynamicEntry: async (ctx, input) => {
          await ctx.runNode(up, input);
          await ctx.runNode(boom);
          return "unreached";
        },
      }),
    );
    const events = await send("go");
    expect(events.map(said).slice(0, 1)).toEqual(['up [wf.up@1]: output "GO"']);
    expect(events.filter((event) => event.errorCode)).toHaveLength(1);
    // The event names the child that failed, by the path ctx.runNode gave it, as ADK's DynamicNodeFailError does.
    expect(events.at(-1)).toMatchObject({ author: "boom", errorCode: "NODE_FAILED", nodeInfo: { path: "wf.boom@1" } });
    expect(events.at(-1)!.errorMessage).toBe('Node "wf.boom@1" failed: Error: kaput The workflow stopped there; the session holds every event up to it.');
    expect(events.some((event) => event.output === "unreached")).toBe(false);
    await expectStoredAsYielded(events, stored);
  });

  it("lets a node catch the failure of a child it ran, and go on: nothing is reported", async () => {
    const boom = named("boom", () => {
      throw new Error("kaput");
    });
    const careful = named("careful", async (ctx) => {
      try {
        await ctx.runNode(boom);
        return "unreached";
      } catch (error) {
        return `caught: ${(error as Error).message}`;
      }
    });
    const { send } = await start(new Workflow({ name: "wf", edges: [["START", careful]] }));
    const events = await send("go");
    expect(events.filter((event) => event.errorCode)).toEqual([]);
    expect(events.at(-1)!.output).toBe('caught: Node "wf.careful.boom@1" failed: Error: kaput The workflow stopped there; the session holds every event up to it.');
  });

  it("ends the run with NODE_OUTPUT_NOT_JSON at a node whose output no store could keep, before storing it", async () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    for (const [name, output, problem] of [
      ["big", { total: 10n }, "total is a bigint"],
      ["cycle", cyclic, "self refers to itself (a cycle)"],
      ["when", new Date(0), "it is a Date, not a plain object"],
    ] as const) {
      const bad = named(name, () => output);
      const after = named("after", () => "unreached");
      const { send, stored } = await start(new Workflow({ name: "wf", edges: [["START", bad, after]] }));
      const events = await send("go");
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ author: name, errorCode: "NODE_OUTPUT_NOT_JSON", nodeInfo: { path: `wf.${name}` } });
      expect(events[0]!.errorMessage).toBe(`Node "wf.${name}" produced an output that cannot be stored with its event: ${problem}. A node's output must be JSON (strings, finite numbers, booleans, null, arrays and plain objects); return plain data.`);
      // The user's message and the error event: the output was never stored.
      expect((await stored()).events.map((event) => event.errorCode ?? event.author)).toEqual(["user", "NODE_OUTPUT_NOT_JSON"]);
    }
  });

  it("ends with WORKFLOW_OUTPUT_AMBIGUOUS when two terminal nodes gave output, after storing both", async () => {
    const a = named("a", () => "from a");
    const b = named("b", () => "from b");
    const { send, stored } = await start(new Workflow({ name: "wf", edges: [["START", [a, b]]] }));
    const events = await send("go");
    expect(events.slice(0, 2).map(said)).toEqual(['a [wf.a]: output "from a"', 'b [wf.b]: output "from b"']);
    expect(events).toHaveLength(3);
    expect(events[2]).toMatchObject({ author: "wf", errorCode: "WORKFLOW_OUTPUT_AMBIGUOUS" });
    expect(events[2]!.errorMessage).toContain('Workflow "wf": 2 terminal nodes produced output (a, b), and a workflow has one output. Join them with a JoinNode, or let only one of them answer.');
    await expectStoredAsYielded(events, stored);
    // One terminal node without output leaves one output: no ambiguity.
    const quiet = named("quiet", () => undefined);
    const fine = await (await start(new Workflow({ name: "wf", edges: [["START", [a, quiet]]] }))).send("go");
    expect(fine.map(said)).toEqual(['a [wf.a]: output "from a"']);
  });
});

describe("pauses, resumes and cancellation", () => {
  const ask = named("ask", (ctx) =>
    createEvent({ invocationId: ctx.invocationId, content: { role: "model", parts: [{ functionCall: { id: "call-1", name: "approve", args: {} } }] }, longRunningToolIds: ["call-1"] }),
  );

  it("ends the run at a node that waits on a long-running call: nothing after it runs, no output event", async () => {
    const log: Array<[string, unknown]> = [];
    const { send } = await start(new Workflow({ name: "wf", edges: [["START", ask, recorder("after", log)]] }));
    const events = await send("go");
    expect(events.map(said)).toEqual(["ask [wf.ask]: call approve"]);
    expect(events[0]!.longRunningToolIds).toEqual(["call-1"]);
    expect(log).toEqual([]);
  });

  it("answers a run that sends the result of a long-running call it did not stop for with a stored WORKFLOW_RESUME_UNSUPPORTED event, running no node", async () => {
    let runs = 0;
    const counted = named("counted", (ctx) => {
      runs += 1;
      return (ask as Handler)(ctx, undefined);
    });
    const { send, stored } = await start(new Workflow({ name: "wf", edges: [["START", counted]] }));
    await send("go");
    const answer = { role: "user", parts: [{ functionResponse: { id: "call-1", name: "approve", response: { approved: true } } }] };
    const events = await send(answer);
    expect(events.map(said)).toEqual(["wf: error WORKFLOW_RESUME_UNSUPPORTED"]);
    // A generic long-running call does not pause a workflow (only what it asks the person does, as in ADK).
    expect(events[0]!.errorMessage).toBe(
      'Workflow "wf" was sent the result of a call its last run did not stop for. A workflow waits only for what it asks the person (an input request, a confirmation, a credential); a long-running tool\'s later result is not awaited. Send a new message to run the workflow again.',
    );
    expect(runs).toBe(1);
    expect((await stored()).events.at(-1)!.errorCode).toBe("WORKFLOW_RESUME_UNSUPPORTED");
    // A new message runs the workflow again.
    await send("again");
    expect(runs).toBe(2);
  });

  // ADK's DynamicNodeScheduler copies a ctx.runNode child's interrupt ids onto the caller's context, so a dynamicEntry
  // whose child waits ends waiting, with no output (checked on @google/adk 2.0.0: the run ends with an event of "wf"
  // carrying longRunningToolIds ["call-1"], and no output). Workflow.runImpl's own check (`ctx.interruptIds.length
  // === 0`) means the same, but nothing puts the child's ids there: the workflow gives "after:undefined" as output.
  it("leaves a dynamicEntry waiting, with no output, when a child it ran waits on a long-running call", async () => {
    const { send } = await start(
      new Workflow({
        name: "wf",
        dynamicEntry: async (ctx) => {
          const asked = await ctx.runNode(ask);
          return `after:${String(asked.output)}`;
        },
      }),
    );
    const events = await send("go");
    expect(events.filter((event) => event.output !== undefined).map(said)).toEqual([]);
  });

  // The same in a graph: ADK marks a node whose ctx.runNode child waits as waiting, so the nodes after it do not run
  // (checked on @google/adk 2.0.0). Here the caller completes with its output and `next` runs on it.
  it("runs nothing after a graph node whose ctx.runNode child waits on a long-running call", async () => {
    const log: Array<[string, unknown]> = [];
    const caller = named("caller", async (ctx) => `caller:${String((await ctx.runNode(ask)).output)}`);
    await (await start(new Workflow({ name: "wf", edges: [["START", caller, recorder("next", log)]] }))).send("go");
    expect(log).toEqual([]);
  });

  it("stops on the run's abortSignal: the running node sees it, its later events are dropped, and no further node starts", async () => {
    const controller = new AbortController();
    const started: string[] = [];
    const first = named("first", () => {
      started.push("first");
      return "first done";
    });
    const slow = named("slow", async function* (ctx) {
      started.push("slow");
      yield "slow started";
      const signal = ctx.invocationContext.abortSignal;
      await new Promise((resolve) => (signal.aborted ? resolve(undefined) : signal.addEventListener("abort", resolve, { once: true })));
      yield "slow saw the abort";
    } as Handler);
    const never = named("never", () => {
      started.push("never");
      return "x";
    });
    const { runner, session, stored } = await start(new Workflow({ name: "wf", edges: [["START", first, slow, never]] }));
    const events: Event[] = [];
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go"), abortSignal: controller.signal })) {
      events.push(event);
      if (event.output === "slow started") controller.abort();
    }
    expect(started).toEqual(["first", "slow"]);
    expect(events.map(said)).toEqual(['first [wf.first]: output "first done"', 'slow [wf.slow]: output "slow started"']);
    await expectStoredAsYielded(events, stored);
  });
});

describe("a routed loop that never ends", () => {
  it("runs until the run's abortSignal stops it, then ends without throwing", async () => {
    const controller = new AbortController();
    let runs = 0;
    const spin = named("spin", (ctx) => {
      runs += 1;
      ctx.route = "again";
      return runs;
    });
    const { runner, session, stored } = await start(new Workflow({ name: "wf", edges: [["START", spin, { again: spin }]] }));
    const events: Event[] = [];
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go"), abortSignal: controller.signal })) {
      events.push(event);
      if (events.length === 200) controller.abort();
    }
    expect(events).toHaveLength(200);
    expect(runs).toBe(200);
    expect(events.map((event) => event.output)).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
    expect(new Set(events.map((event) => event.nodeInfo?.path))).toEqual(new Set(["wf.spin"]));
    await expectStoredAsYielded(events, stored);
  });
});

describe("a workflow among agents", () => {
  it("runs as a sub-agent of a SequentialAgent, on the user's message, before the next agent", async () => {
    const up = named("up", (ctx, input) => {
      ctx.state.set("shouted", String(input).toUpperCase());
      return String(input).toUpperCase();
    });
    const workflow = new Workflow({ name: "wf", edges: [["START", up]] });
    const model = new ScriptedModel([textResponse("noted")]);
    const sequence = new SequentialAgent({ name: "seq", subAgents: [workflow, new LlmAgent({ name: "after", model })] });
    expect(workflow.parentAgent).toBe(sequence);
    const { send, stored } = await start(sequence);
    const events = await send("quiet words");
    expect(events.map(said)).toEqual(['up [wf.up]: output "QUIET WORDS"', "after: noted"]);
    // The next agent sees the workflow's answer as something said before.
    expect(JSON.stringify(model.requests[0]!.contents)).toContain("QUIET WORDS");
    expect((await stored()).state).toEqual({ shouted: "QUIET WORDS" });
    await expectStoredAsYielded(events, stored);
  });

  it("takes the user's message as input when it runs after another agent in a sequence", async () => {
    const got: unknown[] = [];
    const echo = named("echo", (_ctx, input) => {
      got.push(input);
      return "echoed";
    });
    const sequence = new SequentialAgent({ name: "seq", subAgents: [new LlmAgent({ name: "before", model: new ScriptedModel([textResponse("model words")]) }), new Workflow({ name: "wf", edges: [["START", echo]] })] });
    await (await start(sequence)).send("user words");
    expect(got).toEqual(["user words"]);
  });

  it("runs an LlmAgent as a node: the input becomes its user message, its answer the node's output", async () => {
    const model = new ScriptedModel([textResponse("a tidy answer")]);
    const helper = new LlmAgent({ name: "helper", model });
    const got: unknown[] = [];
    const after = named("after", (_ctx, input) => {
      got.push(input);
      return "done";
    });
    const events = await (await start(new Workflow({ name: "wf", edges: [["START", named("prep", () => "prepared question"), helper, after]] }))).send("go");
    expect(model.requests[0]!.contents.at(-1)).toEqual({ role: "user", parts: [{ text: "prepared question" }] });
    expect(events.find((event) => event.author === "helper")).toMatchObject({ output: "a tidy answer", nodeInfo: { path: "wf.helper", messageAsOutput: true } });
    expect(got).toEqual(["a tidy answer"]);
  });

  it("makes a workflow of one node from a function or a node with asRunnableRoot, and leaves agents and workflows as they are", async () => {
    const shout = named("shout", (_ctx, input) => `${String(input).toUpperCase()}!`);
    const root = asRunnableRoot(shout as never);
    expect(isWorkflow(root)).toBe(true);
    expect(root.name).toBe("shout");
    const events = await (await start(root)).send("hey");
    expect(events.map(said)).toEqual(['shout [shout.shout]: output "HEY!"']);

    const fromNode = asRunnableRoot(node(shout as never, { name: "loud", description: "Shouts." }));
    expect([fromNode.name, fromNode.description]).toEqual(["loud", "Shouts."]);
    expect((await (await start(fromNode)).send("a")).map(said)).toEqual(['loud [loud.loud]: output "A!"']);

    const workflow = new Workflow({ name: "wf", edges: [["START", shout]] });
    const agent = new LlmAgent({ name: "agent", model: new ScriptedModel([]) });
    expect(asRunnableRoot(workflow)).toBe(workflow);
    expect(asRunnableRoot(agent as never)).toBe(agent);
    expect(refusal(() => asRunnableRoot("START"))).toEqual(["INVALID_WORKFLOW", "START cannot be a root: give an agent, a workflow, a node or a function."]);
    expect([isRunnableRoot(workflow), isRunnableRoot(agent), isRunnableRoot(node(shout as never)), isRunnableRoot(shout), isRunnableRoot(null)]).toEqual([true, true, false, false, false]);
  });

  it("makes a workflow of one tool node from a tool with asRunnableRoot (a tool has runAsync, but is no agent), as ADK does", async () => {
    const echo = new FunctionTool({ name: "echo", description: "Echoes.", execute: (args: Record<string, unknown>) => args });
    const root = asRunnableRoot(echo);
    expect([isWorkflow(root), root.name, isRunnableRoot(echo)]).toEqual([true, "echo", false]);
    const events = await (await start(root)).send('{"said":"hi"}');
    expect(events.map(said)).toEqual(['echo [echo.echo]: output {"said":"hi"}']);
  });
});
