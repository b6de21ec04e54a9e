/**
 * ADK's `BaseSessionService`, for programs that bring a session store of their own: what `super.appendEvent` does
 * to the session and the event (ADK's rules, compared by running ADK in
 * test/adk-compat/programs/31-custom-session-service), `getOrCreateSession`, and a run over such a store.
 */
import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BaseSessionService, createEvent, createSession, FunctionTool, LlmAgent, Runner, type AppendEventRequest, type CreateSessionRequest, type DeleteSessionRequest, type Event, type GetSessionRequest, type ListSessionsRequest, type ListSessionsResponse, type Session } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

/** A store as an ADK program writes one: rows in a map, each event kept after `super.appendEvent`. */
class MapSessionService extends BaseSessionService {
  readonly rows = new Map<string, Session>();
  readonly kept: Event[] = [];
  #next = 1;

  async createSession({ appName, userId, state, sessionId }: CreateSessionRequest): Promise<Session> {
    const id = sessionId ?? `s${this.#next++}`;
    this.rows.set(id, { id, appName, userId, state: { ...state }, events: [], lastUpdateTime: 0 });
    return structuredClone(this.rows.get(id)!);
  }
  async getSession({ sessionId }: GetSessionRequest): Promise<Session | undefined> {
    const row = this.rows.get(sessionId);
    return row && structuredClone(row);
  }
  async listSessions({ appName }: ListSessionsRequest): Promise<ListSessionsResponse> {
    return { sessions: [...this.rows.values()].filter((row) => row.appName === appName) };
  }
  async deleteSession({ sessionId }: DeleteSessionRequest): Promise<void> {
    this.rows.delete(sessionId);
  }
  override async appendEvent(request: AppendEventRequest): Promise<Event> {
    const applied = await super.appendEvent(request);
    if (applied.partial) return applied;
    const row = this.rows.get(request.session.id)!;
    row.events.push(applied);
    Object.assign(row.state, applied.actions.stateDelta);
    this.kept.push(applied);
    return applied;
  }
}

const session = (): Session => ({ id: "s", appName: "app", userId: "u", state: { kept: 1 }, events: [], lastUpdateTime: 0 });

describe("BaseSessionService.appendEvent (what a store's own appendEvent calls first)", () => {
  it("takes temp: keys out of the event, writes the rest of the delta to the session, and adds the event", async () => {
    const store = new BaseSessionServiceProbe();
    const target = session();
    const event = createEvent({ invocationId: "i", author: "agent", actions: { stateDelta: { "temp:scratch": 1, "user:theme": "dark", count: 2 } } });
    const returned = await store.appendEvent({ session: target, event });
    expect(returned).toBe(event);
    expect(event.actions.stateDelta).toEqual({ "user:theme": "dark", count: 2 });
    expect(target.state).toEqual({ kept: 1, "user:theme": "dark", count: 2 });
    expect(target.events).toEqual([event]);
  });

  it("leaves a partial event and the session alone, and replaces an event appended again with the same id", async () => {
    const store = new BaseSessionServiceProbe();
    const target = session();
    const partial = createEvent({ invocationId: "i", author: "agent", partial: true, actions: { stateDelta: { "temp:x": 1, y: 2 } } });
    await store.appendEvent({ session: target, event: partial });
    expect([target.events.length, target.state, partial.actions.stateDelta]).toEqual([0, { kept: 1 }, { "temp:x": 1, y: 2 }]);
    const first = createEvent({ id: "same", invocationId: "i", author: "agent", content: { role: "model", parts: [{ text: "draft" }] } });
    const second = createEvent({ id: "same", invocationId: "i", author: "agent", content: { role: "model", parts: [{ text: "final" }] } });
    await store.appendEvent({ session: target, event: first });
    await store.appendEvent({ session: target, event: second });
    expect(target.events).toEqual([second]);
  });
});

/** The base class with the least a subclass must write, for the cases above that need no rows. */
class BaseSessionServiceProbe extends BaseSessionService {
  async createSession(request: CreateSessionRequest): Promise<Session> {
    return { id: request.sessionId ?? "new", appName: request.appName, userId: request.userId, state: { ...request.state }, events: [], lastUpdateTime: 0 };
  }
  async getSession(): Promise<Session | undefined> {
    return undefined;
  }
  async listSessions(): Promise<ListSessionsResponse> {
    return { sessions: [] };
  }
  async deleteSession(): Promise<void> {}
}

describe("BaseSessionService.getOrCreateSession", () => {
  it("gives the stored session for a known id, makes one with the id (and state) given for an unknown one, and one with a new id without", async () => {
    const store = new MapSessionService();
    const made = await store.createSession({ appName: "app", userId: "u", state: { plan: "pro" } });
    const found = await store.getOrCreateSession({ appName: "app", userId: "u", sessionId: made.id, state: { plan: "ignored" } });
    expect([found.id, found.state]).toEqual([made.id, { plan: "pro" }]);
    const chosen = await store.getOrCreateSession({ appName: "app", userId: "u", sessionId: "chosen", state: { plan: "free" } });
    expect([chosen.id, chosen.state]).toEqual(["chosen", { plan: "free" }]);
    const fresh = await store.getOrCreateSession({ appName: "app", userId: "u" });
    expect(fresh.id).toBe("s2");
    expect(store.rows.size).toBe(3);
  });
});

describe("a run over a store that extends BaseSessionService", () => {
  it("stores every complete event once, in order, through the store's own appendEvent, with temp: keys kept out", async () => {
    const store = new MapSessionService();
    const note = new FunctionTool({
      name: "note",
      description: "Notes.",
      parameters: z.object({ n: z.number() }),
      execute: ({ n }, context) => {
        context.state.set("count", n);
        context.state.set("temp:seen", n);
        return { n };
      },
    });
    const agent = new LlmAgent({ name: "agent", model: new ScriptedModel([functionCallsResponse({ name: "note", args: { n: 1 } }), textResponse("Noted.")]), tools: [note] });
    const runner = new Runner({ appName: "app", agent, sessionService: store });
    const created = await store.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: userMessage("note 1") }));
    const row = store.rows.get(created.id)!;
    expect(row.events.map((event) => event.id)).toEqual([...store.kept.map((event) => event.id)]);
    expect(row.events.map((event) => event.author)).toEqual(["user", "agent", "agent", "agent"]);
    expect(events.map((event) => event.id)).toEqual(row.events.slice(1).map((event) => event.id));
    expect(row.state).toEqual({ count: 1 });
    expect(row.events.every((event) => !("temp:seen" in event.actions.stateDelta))).toBe(true);
  });
});

describe("createSession (ADK's session maker)", () => {
  it("fills ADK's defaults as ADK's does, and keeps what is given", () => {
    for (const params of [{ id: "s", appName: "app" }, { id: "s", appName: "app", userId: "u", state: { a: 1 }, lastUpdateTime: 5 }, { id: "s", appName: "app", userId: "", lastUpdateTime: 0 }]) {
      expect(createSession(params)).toEqual(adk.createSession(params as never));
    }
    expect(createSession({ id: "s", appName: "app" })).toEqual({ id: "s", appName: "app", userId: "", state: {}, events: [], lastUpdateTime: 0 });
  });
});
