import { describe, expect, it } from "vitest";
import { createEvent, InMemorySessionService, State, StaleSessionError, StateValueError, type Event } from "../../src/index.js";
import { applyEventToLiveSession, nextUpdateTime, selectEvents, toStoredEvent } from "../../src/sessions/apply-event.js";
import { assertJsonValue } from "../../src/sessions/json-value.js";
import { hasTempKeys, splitStateDelta, withoutTempKeys } from "../../src/sessions/state-prefixes.js";
import { userMessage } from "../../src/testing/index.js";

const event = (stateDelta: Record<string, unknown> = {}, init: Partial<Event> = {}) => createEvent({ invocationId: "i", author: "user", actions: { stateDelta }, ...init });

describe("state prefixes", () => {
  it("splits a delta into app, user and session parts, keeping prefixes and dropping temp: keys", () => {
    expect(splitStateDelta({ "app:x": 1, "user:y": 2, "temp:z": 3, plain: 4, "application:w": 5, "User:v": 6 })).toEqual({
      app: { "app:x": 1 },
      user: { "user:y": 2 },
      session: { plain: 4, "application:w": 5, "User:v": 6 },
    });
  });

  it("finds and removes temp: keys without changing the delta it was given", () => {
    const delta = { "temp:a": 1, b: 2 };
    expect(hasTempKeys(delta)).toBe(true);
    expect(hasTempKeys({ b: 2, temporary: 1 })).toBe(false);
    expect(withoutTempKeys(delta)).toEqual({ b: 2 });
    expect(delta).toEqual({ "temp:a": 1, b: 2 });
  });
});

describe("State", () => {
  it("reads pending changes before the session's values, and writes only to the pending changes", () => {
    const value = { a: 1, b: 2 };
    const delta: Record<string, unknown> = { b: 20 };
    const state = new State(value, delta);
    expect(state.get("a")).toBe(1);
    expect(state.get("b")).toBe(20);
    state.set("c", [1, { d: null }]);
    expect(delta).toEqual({ b: 20, c: [1, { d: null }] });
    expect(value).toEqual({ a: 1, b: 2 });
    expect(state.toRecord()).toEqual({ a: 1, b: 20, c: [1, { d: null }] });
  });

  it("returns the default only for a key that is not set, not for one set to a falsy value", () => {
    const state = new State({ zero: 0, empty: "", nothing: null }, {});
    expect(state.get("zero", 5)).toBe(0);
    expect(state.get("empty", "x")).toBe("");
    expect(state.get("nothing", "x")).toBeNull();
    expect(state.get("missing", "fallback")).toBe("fallback");
    expect(state.get("missing")).toBeUndefined();
    expect(state.has("zero")).toBe(true);
    expect(state.has("missing")).toBe(false);
  });

  it("says whether anything was written", () => {
    const state = new State({ a: 1 }, {});
    expect(state.hasDelta()).toBe(false);
    state.set("a", 1);
    expect(state.hasDelta()).toBe(true);
  });

  it("shows the stored values and the pending changes as ADK's public value and delta, which console.log prints", async () => {
    const { inspect } = await import("node:util");
    const state = new State({ topic: "tides" }, {});
    state.update({ draft: "first", count: 2 });
    expect(state.value).toEqual({ topic: "tides" });
    expect(state.delta).toEqual({ draft: "first", count: 2 });
    expect(inspect(state, { breakLength: Infinity })).toBe("State { value: { topic: 'tides' }, delta: { draft: 'first', count: 2 } }");
  });

  it("checks every value update() writes, stopping at the first that is not JSON", () => {
    const state = new State({}, {});
    expect(() => state.update({ ok: 1, bad: () => 1 })).toThrow(StateValueError);
    expect(state.delta).toEqual({ ok: 1 });
  });

  it("refuses a value that is not JSON at the write, leaving the pending changes as they were", () => {
    const delta: Record<string, unknown> = {};
    const state = new State({}, delta);
    expect(() => state.set("when", new Date(0))).toThrow(StateValueError);
    expect(delta).toEqual({});
  });
});

describe("State keys that objects inherit or read as their prototype", () => {
  it("reads only the state's own keys: toString or constructor is not set", () => {
    const state = new State({ topic: "tides" }, { draft: "first" });
    expect([state.get("toString"), state.get("constructor", "none"), state.has("toString"), state.has("hasOwnProperty")]).toEqual([undefined, "none", false, false]);
    expect([state.get("topic"), state.has("draft")]).toEqual(["tides", true]);
  });

  it("refuses __proto__ at the write, bare or scoped, where it set the delta's prototype and wrote its fields as other keys", () => {
    const delta: Record<string, unknown> = {};
    const state = new State({}, delta);
    for (const key of ["__proto__", "app:__proto__", "user:__proto__", "temp:__proto__"]) {
      expect(() => state.set(key, { "app:admin": true })).toThrow(`State key "${key}" cannot be stored: JavaScript reads __proto__ as an object's prototype, not as a key. Use another key.`);
    }
    const written: string[] = [];
    for (const key in delta) written.push(key);
    expect(written).toEqual([]);
    expect(Object.getPrototypeOf(delta)).toBe(Object.prototype);
  });

  it("refuses a session created with a __proto__ key (as JSON.parse makes one) and an event whose delta has one, storing nothing", async () => {
    const service = new InMemorySessionService();
    const state = JSON.parse('{"kept": 1, "__proto__": {"app:admin": true}}') as Record<string, unknown>;
    await expect(service.createSession({ appName: "a", userId: "u", sessionId: "s", state })).rejects.toMatchObject({ code: "STATE_KEY_INVALID" });
    expect(await service.getSession({ appName: "a", userId: "u", sessionId: "s" })).toBeUndefined();
    const session = await service.createSession({ appName: "a", userId: "u", state: { kept: 1 } });
    const event = createEvent({ author: "agent", actions: { stateDelta: JSON.parse('{"user:__proto__": {"x": 1}}') as Record<string, unknown> } });
    await expect(service.appendEvent({ session, event })).rejects.toMatchObject({ code: "STATE_KEY_INVALID" });
    const stored = await service.getSession({ appName: "a", userId: "u", sessionId: session.id });
    expect([stored!.events, stored!.state]).toEqual([[], { kept: 1 }]);
  });
});

describe("assertJsonValue", () => {
  it("accepts JSON values, and undefined fields inside objects, which JSON leaves out", () => {
    for (const value of ["s", 1.5, -0, true, null, [], {}, [1, [2, [3]]], { a: { b: undefined } }, Object.create(null)]) expect(() => assertJsonValue("k", value)).not.toThrow();
  });

  it("accepts the same object twice when it is not a cycle", () => {
    const shared = { x: 1 };
    expect(() => assertJsonValue("k", { a: shared, b: shared, list: [shared, shared] })).not.toThrow();
  });

  it.each([
    [{ deep: { list: [1, Number.POSITIVE_INFINITY] } }, 'State key "k" cannot be stored: .deep.list[1] is Infinity.'],
    [undefined, 'State key "k" cannot be stored: is undefined.'],
    [{ f: () => 1 }, 'State key "k" cannot be stored: .f is a function.'],
    [{ big: 1n }, 'State key "k" cannot be stored: .big is a bigint.'],
    [{ s: Symbol("x") }, 'State key "k" cannot be stored: .s is a symbol.'],
    [[new Map()], 'State key "k" cannot be stored: [0] is a Map, not a plain object.'],
  ])("refuses %s, saying where and why", (value, message) => {
    expect(() => assertJsonValue("k", value)).toThrow(`${message} State values must be JSON: strings, finite numbers, booleans, null, arrays and plain objects.`);
  });

  it("refuses a cycle", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = { back: cyclic };
    expect(() => assertJsonValue("k", cyclic)).toThrow('State key "k" cannot be stored: .self.back refers to itself (a cycle).');
  });
});

describe("storing events", () => {
  it("stores an event without its temp: keys and undefined fields, leaving the caller's event whole", () => {
    const original = event({ "temp:scratch": 1, kept: 2 }, { branch: undefined, content: userMessage("hi") });
    const stored = toStoredEvent(original);
    expect(stored.actions.stateDelta).toEqual({ kept: 2 });
    expect("branch" in stored).toBe(false);
    expect(stored.content).toEqual(userMessage("hi"));
    expect(original.actions.stateDelta).toEqual({ "temp:scratch": 1, kept: 2 });
    expect("branch" in original).toBe(true);
  });

  it("keeps every field an event has beyond the usual ones (an adapter's, a plugin's), each once, and none left undefined", () => {
    const original = { ...event({}, { branch: "root.a", content: userMessage("hi") }), errorCode: "X", customMetadata: { source: "plugin" }, vendorField: { kept: true }, emptyField: undefined } as Event & Record<string, unknown>;
    const stored = toStoredEvent(original) as Event & Record<string, unknown>;
    expect(stored).toEqual({ id: original.id, invocationId: original.invocationId, author: original.author, timestamp: original.timestamp, actions: stored.actions, content: userMessage("hi"), branch: "root.a", errorCode: "X", customMetadata: { source: "plugin" }, vendorField: { kept: true } });
    expect(Object.keys(stored)).toHaveLength(new Set(Object.keys(stored)).size);
    expect("emptyField" in stored).toBe(false);
  });

  it("applies the whole delta, temp: keys too, to the caller's live session", () => {
    const session = { id: "s", appName: "a", userId: "u", state: { old: 1 } as Record<string, unknown>, events: [] as Event[], lastUpdateTime: 1 };
    const appended = event({ "temp:t": true, old: 2 });
    applyEventToLiveSession(session, appended, 99);
    expect(session.state).toEqual({ old: 2, "temp:t": true });
    expect(session.events).toEqual([appended]);
    expect(session.lastUpdateTime).toBe(99);
  });

  it("moves the update marker strictly forward, even when the clock does not", () => {
    expect(nextUpdateTime(100, 150)).toBe(150);
    expect(nextUpdateTime(100, 100)).toBe(101);
    expect(nextUpdateTime(100, 50)).toBe(101);
  });

  it("selects recent events, events from a time on, both, or all in a copy", () => {
    const events = [10, 20, 30, 40].map((timestamp) => event({}, { timestamp }));
    const times = (config?: Parameters<typeof selectEvents>[1]) => selectEvents(events, config).map((selected) => selected.timestamp);
    expect(times()).toEqual([10, 20, 30, 40]);
    expect(selectEvents(events)).not.toBe(events);
    expect(times({ afterTimestamp: 20 })).toEqual([20, 30, 40]);
    expect(times({ numRecentEvents: 1 })).toEqual([40]);
    expect(times({ numRecentEvents: -1 })).toEqual([]);
    expect(times({ numRecentEvents: 10, afterTimestamp: 35 })).toEqual([40]);
  });
});

describe("InMemorySessionService", () => {
  it("hands out copies: changing a read session's state or events changes nothing stored", async () => {
    const service = new InMemorySessionService();
    const created = await service.createSession({ appName: "a", userId: "u", state: { n: 1 } });
    const read = (await service.getSession({ appName: "a", userId: "u", sessionId: created.id }))!;
    read.state.n = 99;
    read.events.push(event());
    const again = (await service.getSession({ appName: "a", userId: "u", sessionId: created.id }))!;
    expect(again.state).toEqual({ n: 1 });
    expect(again.events).toEqual([]);
  });

  it("shows a user: change to the user's other sessions and an app: change to every user", async () => {
    const service = new InMemorySessionService();
    const writer = await service.createSession({ appName: "a", userId: "u" });
    const sibling = await service.createSession({ appName: "a", userId: "u" });
    const stranger = await service.createSession({ appName: "a", userId: "v" });
    await service.appendEvent({ session: writer, event: event({ "user:lang": "fr", "app:motd": "hello", own: true }) });
    const read = (id: string, userId = "u") => service.getSession({ appName: "a", userId, sessionId: id }).then((session) => session!.state);
    expect(await read(sibling.id)).toEqual({ "user:lang": "fr", "app:motd": "hello" });
    expect(await read(stranger.id, "v")).toEqual({ "app:motd": "hello" });
    expect((await service.getSession({ appName: "other", userId: "u", sessionId: sibling.id }))).toBeUndefined();
  });

  it("lets a later delta overwrite a key and keeps the others", async () => {
    const service = new InMemorySessionService();
    const session = await service.createSession({ appName: "a", userId: "u", state: { a: 1, b: 1 } });
    await service.appendEvent({ session, event: event({ b: 2, c: 3 }) });
    await service.appendEvent({ session, event: event({ c: null }) });
    expect((await service.getSession({ appName: "a", userId: "u", sessionId: session.id }))!.state).toEqual({ a: 1, b: 2, c: null });
  });

  it("refuses a writer whose copy predates another writer's event, naming both times, and lets it go on after a reload", async () => {
    const service = new InMemorySessionService();
    const session = await service.createSession({ appName: "a", userId: "u" });
    const other = (await service.getSession({ appName: "a", userId: "u", sessionId: session.id }))!;
    await service.appendEvent({ session, event: event({ by: "first" }, { timestamp: session.lastUpdateTime + 10 }) });
    const error = await service.appendEvent({ session: other, event: event({ by: "second" }) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StaleSessionError);
    expect((error as Error).message).toContain(`stored update ${session.lastUpdateTime}, this copy ${other.lastUpdateTime}`);
    expect(other.events).toEqual([]);
    const reloaded = (await service.getSession({ appName: "a", userId: "u", sessionId: session.id }))!;
    await service.appendEvent({ session: reloaded, event: event({ by: "second" }) });
    expect((await service.getSession({ appName: "a", userId: "u", sessionId: session.id }))!.state).toEqual({ by: "second" });
  });

  it("lists every user's sessions of an app, oldest update first, and nothing for an unknown app", async () => {
    const service = new InMemorySessionService();
    const first = await service.createSession({ appName: "a", userId: "u2", sessionId: "first" });
    await service.createSession({ appName: "a", userId: "u1", sessionId: "second" });
    await service.appendEvent({ session: first, event: event({}, { timestamp: Date.now() + 60_000 }) });
    const listed = await service.listSessions({ appName: "a" });
    expect(listed.sessions.map((session) => `${session.userId}/${session.id}`)).toEqual(["u1/second", "u2/first"]);
    expect(await service.listSessions({ appName: "nothing" })).toEqual({ sessions: [], page: 1, limit: 0, totalItems: 0, totalPages: 0 });
  });

  it("deletes a session that does not exist without complaint", async () => {
    const service = new InMemorySessionService();
    await expect(service.deleteSession({ appName: "a", userId: "u", sessionId: "never" })).resolves.toBeUndefined();
  });
});
