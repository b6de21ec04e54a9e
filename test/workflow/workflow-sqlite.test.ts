import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEvent, DEFAULT_ROUTE, JoinNode, Runner, Workflow, type Event, type NodeContext } from "toolsmith";
import { SqliteSessionService } from "toolsmith/sqlite";
import { collect, userMessage } from "toolsmith/testing";
import { tempDir } from "../support/temp-dir.js";

const dir = tempDir("toolsmith-workflow-sqlite-");

type Handler = (ctx: NodeContext, input: unknown) => unknown;

function named(name: string, handler: Handler): Handler {
  Object.defineProperty(handler, "name", { value: name });
  return handler;
}

/**
 * A workflow as a new process would build it: classify takes a route (a list of two), the routes fan out to two
 * nodes that join, a nested workflow tallies, and nodes write session, user and app state.
 */
function buildWorkflow() {
  const classify = named("classify", (ctx, input) => {
    ctx.state.set("lastMessage", input);
    // For this invocation only: never stored.
    ctx.state.set("temp:raw", `raw ${String(input)}`);
    return createEvent({ invocationId: ctx.invocationId, output: { text: input, words: String(input).split(" ").length }, route: ["count", 2] });
  });
  const count = named("count", (ctx, input) => {
    const visits = Number(ctx.state.get("visits") ?? 0) + 1;
    ctx.state.set("visits", visits);
    ctx.state.set("user:lastWords", (input as { words: number }).words);
    return { visits, flags: [true, false, null], nested: { deep: { value: 1.5 } } };
  });
  const echo = named("echo", (_ctx, input) => (input as { text: string }).text.toUpperCase());
  const tally = named("tally", (ctx, input) => {
    ctx.state.set("app:tallies", Number(ctx.state.get("app:tallies") ?? 0) + 1);
    return Object.keys(input as object).length;
  });
  const inner = new Workflow({ name: "inner", edges: [["START", tally]] });
  const unused = named("unused", () => "never");
  return new Workflow({
    name: "wf",
    edges: [["START", classify, { count, 2: echo, [DEFAULT_ROUTE]: unused }], [[count, echo], new JoinNode({ name: "both" }), inner]],
  });
}

/** What a reload must keep of an event: everything a workflow adds, and the basics. */
const kept = (event: Event) => ({
  id: event.id,
  author: event.author,
  invocationId: event.invocationId,
  branch: event.branch,
  output: event.output,
  route: event.route,
  nodeInfo: event.nodeInfo,
  content: event.content,
  stateDelta: event.actions.stateDelta,
  errorCode: event.errorCode,
  errorMessage: event.errorMessage,
});

describe("a workflow over a SQLite session file", () => {
  it("keeps its events' output, route, nodeInfo and branch, and the state its nodes wrote, through a fresh service on the same file", async () => {
    const file = join(dir, "workflow.db");
    const first = new SqliteSessionService({ path: file });
    const session = await first.createSession({ appName: "app", userId: "u" });
    const events = await collect(new Runner({ appName: "app", agent: buildWorkflow(), sessionService: first }).runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("tide tables please") }));
    await first.close();
    expect(existsSync(file)).toBe(true);

    expect(events.map((event) => `${event.author} [${event.nodeInfo?.path ?? ""}] ${JSON.stringify(event.output)}`)).toEqual([
      'classify [wf.classify] {"text":"tide tables please","words":3}',
      expect.stringMatching(/^(count|echo) /),
      expect.stringMatching(/^(count|echo) /),
      'both [wf.both] {"count":{"visits":1,"flags":[true,false,null],"nested":{"deep":{"value":1.5}}},"echo":"TIDE TABLES PLEASE"}',
      "tally [wf.inner.tally] 2",
    ]);
    expect(events[0]!.route).toEqual(["count", 2]);
    expect(events.filter((event) => ["count", "echo"].includes(event.author)).map((event) => event.branch).sort()).toEqual(["count#1", "echo#1"]);

    // A new service on the same file, as a restarted process opens it.
    const second = new SqliteSessionService({ path: file });
    const reloaded = (await second.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
    expect(reloaded.events[0]!.author).toBe("user");
    expect(reloaded.events.slice(1).map(kept)).toEqual(events.map(kept));
    expect(reloaded.events.slice(1).every((event) => event.nodeInfo?.path?.startsWith("wf."))).toBe(true);
    expect(reloaded.state).toEqual({ lastMessage: "tide tables please", visits: 1, "user:lastWords": 3, "app:tallies": 1 });
    expect(JSON.stringify(reloaded.events)).not.toContain("temp:raw");
    await second.close();
    console.log(`reloaded ${reloaded.events.length} events of a workflow run from ${file.slice(dir.length + 1)}: outputs, routes, nodeInfo and branches intact`);
  });

  it("lets the next run, in a new process with a new workflow, see what the last one stored, and shares user and app state with new sessions", async () => {
    const file = join(dir, "two-runs.db");
    const send = async (sessionId: string | undefined, text: string) => {
      const service = new SqliteSessionService({ path: file });
      const id = sessionId ?? (await service.createSession({ appName: "app", userId: "u" })).id;
      const events = await collect(new Runner({ appName: "app", agent: buildWorkflow(), sessionService: service }).runAsync({ userId: "u", sessionId: id, newMessage: userMessage(text) }));
      const stored = (await service.getSession({ appName: "app", userId: "u", sessionId: id }))!;
      await service.close();
      return { id, events, stored };
    };
    const one = await send(undefined, "one two");
    const two = await send(one.id, "three");
    expect(two.events.find((event) => event.author === "count")!.output).toMatchObject({ visits: 2 });
    expect(two.stored.state).toMatchObject({ visits: 2, lastMessage: "three", "user:lastWords": 1, "app:tallies": 2 });
    expect(two.stored.events.filter((event) => event.author === "user")).toHaveLength(2);
    expect(two.stored.events).toHaveLength(one.stored.events.length + 1 + two.events.length);

    // A new session of the same user starts its own visits, but sees the user's and the app's state.
    const fresh = await send(undefined, "four five six");
    expect(fresh.stored.state).toMatchObject({ visits: 1, "user:lastWords": 3, "app:tallies": 3 });
  });

  it("keeps a failed node's NODE_FAILED event, with its path, and the events before it, through a reload", async () => {
    const file = join(dir, "failure.db");
    const first = new SqliteSessionService({ path: file });
    const session = await first.createSession({ appName: "app", userId: "u" });
    const saved = named("saved", (ctx) => {
      ctx.state.set("saved", "yes");
      return "saved";
    });
    const broken = named("broken", () => {
      throw new RangeError("out of range");
    });
    const workflow = new Workflow({ name: "wf", edges: [["START", saved, broken]] });
    const events = await collect(new Runner({ appName: "app", agent: workflow, sessionService: first }).runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
    await first.close();

    const second = new SqliteSessionService({ path: file });
    const reloaded = (await second.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
    await second.close();
    expect(reloaded.events.slice(1).map(kept)).toEqual(events.map(kept));
    expect(reloaded.events.at(-1)).toMatchObject({ author: "broken", errorCode: "NODE_FAILED", nodeInfo: { path: "wf.broken" } });
    expect(reloaded.events.at(-1)!.errorMessage).toContain("RangeError: out of range");
    expect(reloaded.state).toEqual({ saved: "yes" });
  });

  it("refuses an output no store could keep as the in-memory store does: one NODE_OUTPUT_NOT_JSON event, stored, and the session intact", async () => {
    const file = join(dir, "not-json.db");
    const service = new SqliteSessionService({ path: file });
    const session = await service.createSession({ appName: "app", userId: "u" });
    const big = named("big", () => ({ total: 10n }));
    const events = await collect(new Runner({ appName: "app", agent: new Workflow({ name: "wf", edges: [["START", big]] }), sessionService: service }).runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
    await service.close();
    expect(events.map((event) => [event.author, event.errorCode])).toEqual([["big", "NODE_OUTPUT_NOT_JSON"]]);
    const reopened = new SqliteSessionService({ path: file });
    const reloaded = (await reopened.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
    await reopened.close();
    expect(reloaded.events.map((event) => event.errorCode ?? event.author)).toEqual(["user", "NODE_OUTPUT_NOT_JSON"]);
  });
});
