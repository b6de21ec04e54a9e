import { describe, expect, it } from "vitest";
import {
  ConfigurationError,
  createEvent,
  FunctionTool,
  LlmAgent,
  Runner,
  SessionNotFoundError,
  SharedStateConflictError,
  StaleSessionError,
  StateValueError,
  type SessionService,
} from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { expectRequestRefusals } from "./refusal.js";

/** Opens a service over empty storage; closed after each test. */
export type OpenSessionService = () => Promise<SessionService & { close(): Promise<void> }>;

let appCounter = 0;

/** The behaviour every session service shares, run against each implementation. */
export function describeSessionServiceConformance(name: string, open: OpenSessionService): void {
  describe(`${name} (session service conformance)`, () => {
    async function withService(test: (service: SessionService, appName: string) => Promise<void>) {
      const service = await open();
      try {
        await test(service, `app${++appCounter}-${Date.now()}`);
      } finally {
        await service.close();
      }
    }
    const event = (init: { text?: string; stateDelta?: Record<string, unknown>; timestamp?: number; partial?: boolean } = {}) =>
      createEvent({
        invocationId: "inv",
        author: "user",
        content: init.text === undefined ? undefined : userMessage(init.text),
        actions: { stateDelta: init.stateDelta ?? {} },
        timestamp: init.timestamp,
        partial: init.partial,
      });

    it("splits created state into app, user and session scopes", () =>
      withService(async (service, appName) => {
        const first = await service.createSession({ appName, userId: "u1", state: { "app:theme": "dark", "user:name": "Ada", draft: 1 } });
        expect(first.state).toEqual({ "app:theme": "dark", "user:name": "Ada", draft: 1 });
        const sameUser = await service.createSession({ appName, userId: "u1" });
        expect(sameUser.state).toEqual({ "app:theme": "dark", "user:name": "Ada" });
        const otherUser = await service.createSession({ appName, userId: "u2", sessionId: "chosen" });
        expect(otherUser).toMatchObject({ id: "chosen", appName, userId: "u2", state: { "app:theme": "dark" }, events: [] });
        expect(await service.getSession({ appName, userId: "u2", sessionId: first.id })).toBeUndefined();
      }));

    it("refuses a second session with the same id and keeps the first", () =>
      withService(async (service, appName) => {
        await service.createSession({ appName, userId: "u", sessionId: "s", state: { kept: true } });
        const error = await service.createSession({ appName, userId: "u", sessionId: "s", state: { kept: false } }).catch((caught) => caught);
        expect(error).toBeInstanceOf(ConfigurationError);
        expect(error.code).toBe("SESSION_EXISTS");
        expect((await service.getSession({ appName, userId: "u", sessionId: "s" }))!.state).toEqual({ kept: true });
      }));

    it("gets the session an id names with its events and state, and makes one with the given state when none has that id (ADK's getOrCreateSession)", () =>
      withService(async (service, appName) => {
        const started = await service.getOrCreateSession({ appName, userId: "u", sessionId: "chat", state: { plan: "pro" } });
        expect(started).toMatchObject({ id: "chat", appName, userId: "u", state: { plan: "pro" }, events: [] });
        await service.appendEvent({ session: started, event: event({ text: "hello", stateDelta: { turns: 1 } }) });
        const continued = await service.getOrCreateSession({ appName, userId: "u", sessionId: "chat", state: { plan: "free" } });
        expect(continued.state).toEqual({ plan: "pro", turns: 1 });
        expect(continued.events.map((stored) => stored.content?.parts?.[0]?.text)).toEqual(["hello"]);
        const unnamed = await service.getOrCreateSession({ appName, userId: "u", state: { plan: "trial" } });
        expect(unnamed.id).not.toBe("chat");
        expect(unnamed.state).toEqual({ plan: "trial" });
        const otherUser = await service.getOrCreateSession({ appName, userId: "v", sessionId: "chat" });
        expect(otherUser.events).toEqual([]);
        expect((await service.listSessions({ appName, userId: "u" })).sessions.map((session) => session.id).sort()).toEqual(["chat", unnamed.id].sort());
      }));

    it("gives every caller the one session when many race to get or create the same new id", () =>
      withService(async (service, appName) => {
        let lostRaces = 0;
        const createSession = service.createSession.bind(service);
        service.createSession = (request) =>
          createSession(request).catch((error: unknown) => {
            lostRaces++;
            throw error;
          });
        const callers = 20;
        const sessions = await Promise.all(
          Array.from({ length: callers }, (_, caller) => service.getOrCreateSession({ appName, userId: "u", sessionId: "raced", state: { caller } })),
        );
        console.log(`getOrCreateSession race: ${callers} callers, ${lostRaces} lost the create and read the winner's session`);
        expect(new Set(sessions.map((session) => session.id))).toEqual(new Set(["raced"]));
        const stored = (await service.getSession({ appName, userId: "u", sessionId: "raced" }))!;
        expect(sessions.every((session) => session.state["caller"] === stored.state["caller"])).toBe(true);
        expect((await service.listSessions({ appName, userId: "u" })).sessions).toHaveLength(1);
      }));

    it("stores events with their state deltas, drops temp: keys from storage only, and returns the event as stored", () =>
      withService(async (service, appName) => {
        const session = await service.createSession({ appName, userId: "u" });
        const appended = event({ text: "hello", stateDelta: { count: 1, "user:seen": true, "app:version": 2, "temp:scratch": "x", nested: { a: [1, null, "b"] } } });
        const returned = await service.appendEvent({ session, event: appended });
        expect(returned.actions.stateDelta).toEqual({ count: 1, "user:seen": true, "app:version": 2, nested: { a: [1, null, "b"] } });
        expect(appended.actions.stateDelta["temp:scratch"]).toBe("x"); // the caller's event is left as it was
        expect(session.state["temp:scratch"]).toBe("x");
        expect(session.events).toHaveLength(1);
        const stored = (await service.getSession({ appName, userId: "u", sessionId: session.id }))!;
        expect(stored.state).toEqual({ count: 1, "user:seen": true, "app:version": 2, nested: { a: [1, null, "b"] } });
        expect(stored.events).toHaveLength(1);
        expect(stored.events[0]).toMatchObject({ id: appended.id, author: "user", content: userMessage("hello"), timestamp: appended.timestamp });
        expect(stored.events[0]!.actions.stateDelta).toEqual({ count: 1, "user:seen": true, "app:version": 2, nested: { a: [1, null, "b"] } });
        expect(stored.lastUpdateTime).toBe(session.lastUpdateTime);
        const another = await service.createSession({ appName, userId: "u" });
        expect(another.state).toEqual({ "user:seen": true, "app:version": 2 });
      }));

    it("returns only recent events or those after a timestamp", () =>
      withService(async (service, appName) => {
        const session = await service.createSession({ appName, userId: "u" });
        for (let index = 0; index < 5; index++) await service.appendEvent({ session, event: event({ text: `m${index}`, timestamp: 1_000 + index }) });
        const texts = async (config: { numRecentEvents?: number; afterTimestamp?: number }) =>
          (await service.getSession({ appName, userId: "u", sessionId: session.id, config }))!.events.map((stored) => stored.content!.parts![0]!.text);
        expect(await texts({})).toEqual(["m0", "m1", "m2", "m3", "m4"]);
        expect(await texts({ numRecentEvents: 2 })).toEqual(["m3", "m4"]);
        expect(await texts({ numRecentEvents: 0 })).toEqual([]);
        expect(await texts({ afterTimestamp: 1_003 })).toEqual(["m3", "m4"]);
        expect(await texts({ afterTimestamp: 1_001, numRecentEvents: 10 })).toEqual(["m1", "m2", "m3", "m4"]);
      }));

    /** Five sessions of user "u", s0 updated first and s4 last, and one of another user. */
    async function fiveSessions(service: SessionService, appName: string) {
      for (let index = 0; index < 5; index++) {
        await service.createSession({ appName, userId: "u", sessionId: `s${index}` });
        await new Promise((resolve) => setTimeout(resolve, 3)); // distinct update times, in this order
      }
      await service.createSession({ appName, userId: "other", sessionId: "o" });
    }
    const listed = async (service: SessionService, request: Parameters<SessionService["listSessions"]>[0]) => {
      const { sessions, ...figures } = await service.listSessions(request);
      return { ids: sessions.map((session) => session.id), ...figures };
    };

    it("pages with ADK's limit, offset, page and order, counting every match as ADK does", () =>
      withService(async (service, appName) => {
        await fiveSessions(service, appName);
        expect(await listed(service, { appName, userId: "u", limit: 2 })).toEqual({ ids: ["s0", "s1"], page: 1, limit: 2, totalItems: 5, totalPages: 3 });
        expect(await listed(service, { appName, userId: "u", limit: 2, page: 3 })).toEqual({ ids: ["s4"], page: 3, limit: 2, totalItems: 5, totalPages: 3 });
        expect(await listed(service, { appName, userId: "u", limit: 2, offset: 1, order: "desc" })).toEqual({ ids: ["s3", "s2"], page: 1, limit: 2, totalItems: 5, totalPages: 3 });
        expect(await listed(service, { appName, userId: "u", offset: 3 })).toEqual({ ids: ["s3", "s4"], page: 1, limit: 5, totalItems: 5, totalPages: 1 });
        expect(await listed(service, { appName, userId: "u", limit: 0 })).toEqual({ ids: [], page: 1, limit: 0, totalItems: 5, totalPages: 0 });
        expect(await listed(service, { appName, userId: "u", limit: 2, page: 9 })).toEqual({ ids: [], page: 9, limit: 2, totalItems: 5, totalPages: 3 });
        expect(await listed(service, { appName, limit: 4, order: "desc" })).toEqual({ ids: ["o", "s4", "s3", "s2"], page: 1, limit: 4, totalItems: 6, totalPages: 2 });
        expect(await listed(service, { appName: `${appName}-none`, limit: 3 })).toEqual({ ids: [], page: 1, limit: 3, totalItems: 0, totalPages: 0 });
        // Not paged at all: every session, with ADK's figures.
        expect(await listed(service, { appName, userId: "u" })).toEqual({ ids: ["s0", "s1", "s2", "s3", "s4"], page: 1, limit: 5, totalItems: 5, totalPages: 1 });
      }));

    it("refuses a list request it would otherwise read some other way, and lists as before after it", () =>
      withService(async (service, appName) => {
        await fiveSessions(service, appName);
        const refusals: Array<[Record<string, unknown>, string]> = [
          [{ limit: 1, pageSize: 2 }, "listSessions got pageSize with ADK's limit: page one way, with pageSize and pageToken, or with ADK's limit and offset or page."],
          [{ page: 2 }, "listSessions got page without limit: a page is limit sessions long. Give limit too."],
          [{ limit: 2, page: 2, offset: 1 }, "listSessions got both page and offset, which both say where to start. Give one of them."],
          [{ order: "newest" }, 'listSessions got order "newest": use "asc" (oldest update first, the default) or "desc".'],
          [{ limit: -1 }, "listSessions got limit -1: it must be a whole number of at least 0."],
          [{ limit: 2, page: 0 }, "listSessions got page 0: it must be a whole number of at least 1."],
          [{ offset: 1.5 }, "listSessions got offset 1.5: it must be a whole number of at least 0."],
          [{ pageSize: -3 }, "listSessions got pageSize -3: it must be a whole number of at least 1."],
          [{ pageSize: 2, pageToken: "'; DROP TABLE toolsmith_sessions; --" }, `listSessions got pageToken "'; DROP TABLE toolsmith_sessions; --", which is not a token this store gave. Pass the nextPageToken of the page before, or leave it out for the first page.`],
        ];
        for (const [options, message] of refusals) {
          const error = await service.listSessions({ appName, userId: "u", ...options } as never).catch((caught: unknown) => caught);
          expect(error).toBeInstanceOf(ConfigurationError);
          expect(error).toMatchObject({ code: "INVALID_LIST_REQUEST", message });
        }
        expect((await listed(service, { appName, userId: "u" })).ids).toEqual(["s0", "s1", "s2", "s3", "s4"]);
      }));

    it("pages session lists, without events, for one user or all", () =>
      withService(async (service, appName) => {
        for (let index = 0; index < 5; index++) {
          const session = await service.createSession({ appName, userId: "u", sessionId: `s${index}` });
          await service.appendEvent({ session, event: event({ text: "x" }) });
        }
        await service.createSession({ appName, userId: "other", sessionId: "o" });
        const ids: string[] = [];
        let pageToken: string | undefined;
        for (let page = 0; page < 5; page++) {
          const listed = await service.listSessions({ appName, userId: "u", pageSize: 2, pageToken });
          expect(listed.sessions.length).toBeLessThanOrEqual(2);
          for (const session of listed.sessions) {
            expect(session.events).toEqual([]);
            ids.push(session.id);
          }
          pageToken = listed.nextPageToken;
          if (!pageToken) break;
        }
        expect(ids.sort()).toEqual(["s0", "s1", "s2", "s3", "s4"]);
        const everyone = await service.listSessions({ appName });
        expect(everyone.sessions.map((session) => `${session.userId}/${session.id}`).sort()).toEqual(["other/o", "u/s0", "u/s1", "u/s2", "u/s3", "u/s4"]);
        expect(everyone.nextPageToken).toBeUndefined();
      }));

    it("deletes a session with its events", () =>
      withService(async (service, appName) => {
        const session = await service.createSession({ appName, userId: "u" });
        await service.appendEvent({ session, event: event({ text: "x" }) });
        await service.deleteSession({ appName, userId: "u", sessionId: session.id });
        expect(await service.getSession({ appName, userId: "u", sessionId: session.id })).toBeUndefined();
        await expect(service.appendEvent({ session, event: event({ text: "y" }) })).rejects.toBeInstanceOf(SessionNotFoundError);
        const recreated = await service.createSession({ appName, userId: "u", sessionId: session.id });
        expect(recreated.events).toEqual([]);
      }));

    it("refuses an append from a stale copy and stores nothing from it", () =>
      withService(async (service, appName) => {
        const writer = await service.createSession({ appName, userId: "u" });
        const reader = (await service.getSession({ appName, userId: "u", sessionId: writer.id }))!;
        await service.appendEvent({ session: writer, event: event({ stateDelta: { n: 1 } }) });
        const error = await service.appendEvent({ session: reader, event: event({ stateDelta: { n: 2, "user:lost": true } }) }).catch((caught) => caught);
        expect(error).toBeInstanceOf(StaleSessionError);
        expect(error.message).toMatch(/reload the session with getSession/);
        const stored = (await service.getSession({ appName, userId: "u", sessionId: writer.id }))!;
        expect(stored.state).toEqual({ n: 1 });
        expect(stored.events).toHaveLength(1);
        await service.appendEvent({ session: stored, event: event({ stateDelta: { n: 2 } }) });
        expect((await service.getSession({ appName, userId: "u", sessionId: writer.id }))!.state).toEqual({ n: 2 });
      }));

    it("refuses a write to a user: key another session changed since this one was read, and stores nothing of that event", () =>
      withService(async (service, appName) => {
        const first = await service.createSession({ appName, userId: "u", state: { "user:counter": 0 } });
        const second = await service.createSession({ appName, userId: "u" });
        expect(second.state["user:counter"]).toBe(0);
        await service.appendEvent({ session: first, event: event({ stateDelta: { "user:counter": 1 } }) });
        const markerBefore = second.lastUpdateTime;
        const error = await service
          .appendEvent({ session: second, event: event({ text: "stale", stateDelta: { "user:counter": 1, mine: "b", "app:seen": true } }) })
          .catch((caught) => caught);
        expect(error).toBeInstanceOf(SharedStateConflictError);
        expect(error).toMatchObject({ code: "SHARED_STATE_CONFLICT", sessionId: second.id, keys: ["user:counter"] });
        expect(error.message).toMatch(/Nothing was stored: reload the session with getSession/);
        expect(second).toMatchObject({ events: [], lastUpdateTime: markerBefore, state: { "user:counter": 0 } });
        const stored = (await service.getSession({ appName, userId: "u", sessionId: second.id }))!;
        expect(stored.state).toEqual({ "user:counter": 1 });
        expect(stored.events).toEqual([]);
        // Reloaded, the session computes from the new value and its write is accepted.
        await service.appendEvent({ session: stored, event: event({ stateDelta: { "user:counter": (stored.state["user:counter"] as number) + 1 } }) });
        expect((await service.getSession({ appName, userId: "u", sessionId: first.id }))!.state).toEqual({ "user:counter": 2 });
      }));

    it("refuses a write to an app: key another user's session changed, and to a shared key another session created after the read", () =>
      withService(async (service, appName) => {
        const ada = await service.createSession({ appName, userId: "ada", state: { "app:version": 1 } });
        const bob = await service.createSession({ appName, userId: "bob" });
        await service.appendEvent({ session: ada, event: event({ stateDelta: { "app:version": 2, "user:new": "ada's" } }) });
        const appConflict = await service.appendEvent({ session: bob, event: event({ stateDelta: { "app:version": 2 } }) }).catch((caught) => caught);
        expect(appConflict).toMatchObject({ code: "SHARED_STATE_CONFLICT", keys: ["app:version"] });
        const adaAgain = await service.createSession({ appName, userId: "ada", sessionId: "late" });
        const adaOld = (await service.getSession({ appName, userId: "ada", sessionId: ada.id }))!;
        await service.appendEvent({ session: adaAgain, event: event({ stateDelta: { "user:fresh": 1 } }) });
        const created = await service.appendEvent({ session: adaOld, event: event({ stateDelta: { "user:fresh": 5, "app:version": 3 } }) }).catch((caught) => caught);
        expect(created).toMatchObject({ code: "SHARED_STATE_CONFLICT", keys: ["user:fresh"] });
        expect((await service.getSession({ appName, userId: "ada", sessionId: ada.id }))!.state).toEqual({ "app:version": 2, "user:new": "ada's", "user:fresh": 1 });
      }));

    it("accepts a write to a user: key nobody else changed, even when other shared keys changed since the read", () =>
      withService(async (service, appName) => {
        const first = await service.createSession({ appName, userId: "u", state: { "user:a": 0, "user:b": 0, "app:shared": "x" } });
        const second = await service.createSession({ appName, userId: "u" });
        await service.appendEvent({ session: first, event: event({ stateDelta: { "user:a": 1, "app:shared": "y" } }) });
        // The same value written twice is no conflict: what the session computed from is still what is stored.
        await service.appendEvent({ session: second, event: event({ stateDelta: { "user:b": 1, "user:new": true, "app:other": 1 } }) });
        await service.appendEvent({ session: second, event: event({ stateDelta: { "user:b": 2 } }) });
        await service.appendEvent({ session: first, event: event({ stateDelta: { "user:a": 2 } }) });
        expect((await service.getSession({ appName, userId: "u", sessionId: second.id }))!.state).toEqual({
          "user:a": 2,
          "user:b": 2,
          "user:new": true,
          "app:shared": "y",
          "app:other": 1,
        });
      }));

    it("reports a stale copy as StaleSessionError even when its shared write also conflicts", () =>
      withService(async (service, appName) => {
        const writer = await service.createSession({ appName, userId: "u", state: { "user:counter": 0 } });
        const reader = (await service.getSession({ appName, userId: "u", sessionId: writer.id }))!;
        await service.appendEvent({ session: writer, event: event({ stateDelta: { "user:counter": 1 } }) });
        await expect(service.appendEvent({ session: reader, event: event({ stateDelta: { "user:counter": 1 } }) })).rejects.toBeInstanceOf(StaleSessionError);
      }));

    it("ends a run whose tool writes a user: key another session changed meanwhile with a stored SHARED_STATE_CONFLICT error event, without throwing", () =>
      withService(async (service, appName) => {
        const other = await service.createSession({ appName, userId: "u", state: { "user:counter": 10 } });
        const tool = new FunctionTool({
          name: "increment",
          description: "Adds one to the user's counter.",
          parameters: { type: "object", properties: {} },
          execute: async (_args, context) => {
            const counter = context.state.get<number>("user:counter")!;
            // Another session of the user increments the counter while this tool works.
            await service.appendEvent({ session: other, event: event({ stateDelta: { "user:counter": 11 } }) });
            context.state.set("user:counter", counter + 1);
            return { counter: counter + 1 };
          },
        });
        const model = new ScriptedModel([functionCallsResponse({ name: "increment", args: {} }), textResponse("done")]);
        const runner = new Runner({ appName, agent: new LlmAgent({ name: "agent", model, tools: [tool] }), sessionService: service });
        const session = await service.createSession({ appName, userId: "u" });
        const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
        const last = events.at(-1)!;
        expect(last).toMatchObject({ author: "agent", errorCode: "SHARED_STATE_CONFLICT" });
        expect(last.errorMessage).toMatch(/"user:counter".*reload the session/);
        const stored = (await service.getSession({ appName, userId: "u", sessionId: session.id }))!;
        expect(stored.state).toEqual({ "user:counter": 11 });
        expect(stored.events.map((stored) => stored.errorCode ?? (stored.content?.parts?.[0]?.functionCall ? "call" : stored.author))).toEqual([
          "user",
          "call",
          "SHARED_STATE_CONFLICT",
        ]);
      }));

    it("keeps the update marker strictly increasing when events share a timestamp", () =>
      withService(async (service, appName) => {
        const session = await service.createSession({ appName, userId: "u" });
        const markers: number[] = [];
        for (let index = 0; index < 3; index++) {
          await service.appendEvent({ session, event: event({ timestamp: 5 }) });
          markers.push(session.lastUpdateTime);
        }
        expect(markers[1]).toBeGreaterThan(markers[0]!);
        expect(markers[2]).toBeGreaterThan(markers[1]!);
        expect((await service.getSession({ appName, userId: "u", sessionId: session.id }))!.lastUpdateTime).toBe(markers[2]);
      }));

    it("does not store partial events", () =>
      withService(async (service, appName) => {
        const session = await service.createSession({ appName, userId: "u" });
        await service.appendEvent({ session, event: event({ text: "streaming", partial: true }) });
        expect((await service.getSession({ appName, userId: "u", sessionId: session.id }))!.events).toEqual([]);
      }));

    it("rejects a state value that is not JSON and stores nothing", () =>
      withService(async (service, appName) => {
        const session = await service.createSession({ appName, userId: "u", state: { ok: 1 } });
        for (const value of [() => 1, 10n, Number.NaN, new Map(), undefined]) {
          const error = await service.appendEvent({ session, event: event({ text: "bad", stateDelta: { ok: 2, bad: value } }) }).catch((caught) => caught);
          expect(error).toBeInstanceOf(StateValueError);
          expect(error.message).toMatch(/State key "bad" cannot be stored/);
        }
        await expect(service.createSession({ appName, userId: "u", sessionId: "bad", state: { when: new Date() } })).rejects.toBeInstanceOf(StateValueError);
        const stored = (await service.getSession({ appName, userId: "u", sessionId: session.id }))!;
        expect(stored.state).toEqual({ ok: 1 });
        expect(stored.events).toEqual([]);
        expect(await service.getSession({ appName, userId: "u", sessionId: "bad" })).toBeUndefined();
      }));

    it("runs parallel tool calls of one run without tripping the stale check", () =>
      withService(async (service, appName) => {
        const tool = new FunctionTool({
          name: "count",
          description: "Counts.",
          parameters: { type: "object", properties: { index: { type: "number" } } },
          execute: async ({ index }, context) => {
            await new Promise((resolve) => setTimeout(resolve, 5 * (5 - (index as number))));
            context.state.set(`call${index}`, index);
            context.state.set("user:calls", index);
            return { index };
          },
        });
        const calls = Array.from({ length: 5 }, (_, index) => ({ name: "count", args: { index } }));
        const model = new ScriptedModel([functionCallsResponse(...calls), functionCallsResponse(...calls), textResponse("done")]);
        const runner = new Runner({ appName, agent: new LlmAgent({ name: "agent", model, tools: [tool] }), sessionService: service });
        const session = await service.createSession({ appName, userId: "u" });
        const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
        expect(events).toHaveLength(5);
        const stored = (await service.getSession({ appName, userId: "u", sessionId: session.id }))!;
        expect(stored.events.map((stored) => stored.id)).toEqual([expect.any(String), ...events.map((emitted) => emitted.id)]);
        expect(stored.state).toEqual({ call0: 0, call1: 1, call2: 2, call3: 3, call4: 4, "user:calls": 4 });
      }));

    it("refuses requests it cannot read with the error a user sees, and leaves what is stored as it was", () =>
      withService(async (service, appName) => {
        const session = await service.createSession({ appName, userId: "u", state: { plan: "tuesday", "user:name": "Ada" } });
        await service.appendEvent({ session, event: event({ text: "hello", stateDelta: { seen: true } }) });
        const before = await service.getSession({ appName, userId: "u", sessionId: session.id });
        const cases: [string, unknown, string][] = [
          ["createSession", undefined, "createSession takes an options object: createSession({ appName, userId })."],
          ["createSession", { appName }, "createSession needs userId as a non-empty string; it got nothing."],
          // SQLite would store the number as "5.0".
          ["createSession", { appName, userId: 5 }, "createSession needs userId as a non-empty string; it got 5."],
          ["createSession", { appName, userId: "u", sessionId: "" }, "createSession needs sessionId as a non-empty string; it got an empty string."],
          // Spread into the state, a string would be stored as {"0": "x"}.
          ["createSession", { appName, userId: "u", state: "x" }, 'createSession\'s state is an object of keys and values ({ "user:name": "Ada" }); it got "x".'],
          ["createSession", { appName, userId: "u", state: ["x"] }, 'createSession\'s state is an object of keys and values ({ "user:name": "Ada" }); it got a list.'],
          ["getSession", { appName, userId: "u" }, "getSession needs sessionId as a non-empty string; it got nothing."],
          ["getSession", undefined, "getSession takes an options object: getSession({ appName, userId, sessionId })."],
          ["listSessions", { userId: "u" }, "listSessions needs appName as a non-empty string; it got nothing."],
          ["listSessions", { appName, userId: 7 }, "listSessions needs userId as a non-empty string; it got 7."],
          ["deleteSession", { appName, userId: "u" }, "deleteSession needs sessionId as a non-empty string; it got nothing."],
          ["appendEvent", { event: event({ text: "lost" }) }, "appendEvent needs the session the event goes into, as createSession or getSession gave it (with its id, appName and userId)."],
          ["appendEvent", { session, event: "hello" }, "appendEvent got a string, which is not an event. Make it with createEvent({ invocationId, author, content }), which fills in its id, time and actions."],
          ["appendEvent", { session, event: { author: "user", content: userMessage("no actions") } }, "appendEvent got an object without actions, which is not an event. Make it with createEvent({ invocationId, author, content }), which fills in its id, time and actions."],
        ];
        await expectRequestRefusals(service, cases);
        expect(await service.getSession({ appName, userId: "u", sessionId: session.id })).toEqual(before);
        const listed = await service.listSessions({ appName, userId: "u" });
        expect(listed.sessions.map((stored) => stored.id)).toEqual([session.id]);
      }));
  });
}
