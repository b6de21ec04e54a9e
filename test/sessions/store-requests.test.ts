/**
 * `getOrCreateSessionIn`, the one `getOrCreateSession` behind every store (the conformance suite runs it on each
 * real store): the paths a real store reaches only by chance, with a store whose answers the test chooses.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planSessionList, sessionListResponse } from "../../src/sessions/store-requests.js";
import { ConfigurationError, getOrCreateSessionIn, type CreateSessionRequest, type GetSessionRequest, type Session } from "../../src/index.js";

const session = (id: string): Session => ({ id, appName: "app", userId: "u", state: {}, events: [], lastUpdateTime: 0 });

/** A store that records its calls and answers `getSession` from `found`, one answer per call. */
function scriptedStore(found: (Session | undefined)[], create: (request: CreateSessionRequest) => Promise<Session>) {
  const calls: string[] = [];
  return {
    calls,
    async getSession(request: GetSessionRequest) {
      calls.push(`get ${request.sessionId}`);
      return found.shift();
    },
    async createSession(request: CreateSessionRequest) {
      calls.push(`create ${request.sessionId ?? "(new id)"}`);
      return create(request);
    },
  };
}

describe("getOrCreateSessionIn", () => {
  it("makes a session without reading when no id is given", async () => {
    const store = scriptedStore([], async () => session("made"));
    expect((await getOrCreateSessionIn(store, { appName: "app", userId: "u" })).id).toBe("made");
    expect(store.calls).toEqual(["create (new id)"]);
  });

  it("returns the stored session without making one when the id exists", async () => {
    const store = scriptedStore([session("chat")], async () => session("never"));
    expect((await getOrCreateSessionIn(store, { appName: "app", userId: "u", sessionId: "chat", state: { ignored: true } })).id).toBe("chat");
    expect(store.calls).toEqual(["get chat"]);
  });

  it("reads the winner's session when its own create loses a race for the id", async () => {
    const store = scriptedStore([undefined, session("chat")], async () => {
      throw new ConfigurationError("SESSION_EXISTS", 'Session "chat" already exists.');
    });
    expect((await getOrCreateSessionIn(store, { appName: "app", userId: "u", sessionId: "chat" })).id).toBe("chat");
    expect(store.calls).toEqual(["get chat", "create chat", "get chat"]);
  });

  it("reports SESSION_EXISTS when the winner's session is deleted before it can be read, rather than making another", async () => {
    const refusal = new ConfigurationError("SESSION_EXISTS", 'Session "chat" already exists.');
    const store = scriptedStore([undefined, undefined], async () => {
      throw refusal;
    });
    await expect(getOrCreateSessionIn(store, { appName: "app", userId: "u", sessionId: "chat" })).rejects.toBe(refusal);
    expect(store.calls).toEqual(["get chat", "create chat", "get chat"]);
  });

  it("passes any other failure of create through without reading again", async () => {
    const diskFull = new Error("disk full");
    const store = scriptedStore([undefined], async () => {
      throw diskFull;
    });
    await expect(getOrCreateSessionIn(store, { appName: "app", userId: "u", sessionId: "chat" })).rejects.toBe(diskFull);
    expect(store.calls).toEqual(["get chat", "create chat"]);
  });
});

describe("planSessionList", () => {
  it("reads toolsmith's tokens and ADK's paging into offsets, one more session fetched for a token page", () => {
    expect(planSessionList({ appName: "a", pageSize: 2, pageToken: "4" })).toEqual({ kind: "token", offset: 4, pageSize: 2, fetch: 3, descending: false });
    expect(planSessionList({ appName: "a", pageSize: 0 })).toEqual({ kind: "token", offset: 0, pageSize: undefined, fetch: undefined, descending: false });
    expect(planSessionList({ appName: "a", limit: 5, page: 3, order: "desc" })).toEqual({ kind: "adk", offset: 10, limit: 5, page: 3, fetch: 5, descending: true });
    expect(() => planSessionList({ appName: "a", limit: 2 ** 40, page: 2 ** 40 })).toThrow(
      expect.objectContaining({ code: "INVALID_LIST_REQUEST", message: `listSessions got page ${2 ** 40} of ${2 ** 40} sessions, which starts past any store's sessions. Ask for an earlier page.` }),
    );
    expect(planSessionList({ appName: "a", offset: 7 })).toEqual({ kind: "adk", offset: 7, limit: undefined, page: undefined, fetch: undefined, descending: false });
  });

  it("answers with ADK's figures as ADK computes them, and a next token only when more follow", () => {
    const sessions = ["a", "b", "c"].map(session);
    expect(sessionListResponse(planSessionList({ appName: "a", pageSize: 2 }), sessions)).toEqual({ sessions: sessions.slice(0, 2), nextPageToken: "2" });
    expect(sessionListResponse(planSessionList({ appName: "a", pageSize: 3 }), sessions)).toEqual({ sessions });
    expect(sessionListResponse(planSessionList({ appName: "a" }), sessions)).toEqual({ sessions, page: 1, limit: 3, totalItems: 3, totalPages: 1 });
    expect(sessionListResponse(planSessionList({ appName: "a", pageToken: "3" }), [])).toEqual({ sessions: [] });
    expect(sessionListResponse(planSessionList({ appName: "a", limit: 2, offset: 5 }), sessions.slice(0, 2), 11)).toEqual({ sessions: sessions.slice(0, 2), page: 3, limit: 2, totalItems: 11, totalPages: 6 });
  });

  it("plans or refuses with INVALID_LIST_REQUEST, and nothing else, for 5,000 hostile requests", () => {
    const hostile = fc.oneof(fc.integer({ min: -5, max: 1e6 }), fc.double(), fc.string({ maxLength: 8 }), fc.constantFrom("0", "12", "-1", "1e3", "asc", "desc", " 3"), fc.constant(null), fc.boolean(), fc.constant(Number.MAX_SAFE_INTEGER + 2));
    // Mostly absent or fitting values, so that both outcomes are reached often.
    const value = (fitting: fc.Arbitrary<unknown>) => fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: fitting }, { weight: 1, arbitrary: hostile });
    const request = fc.record({
      pageSize: value(fc.integer({ min: 0, max: 50 })),
      pageToken: value(fc.integer({ min: 0, max: 99 }).map(String)),
      limit: value(fc.integer({ min: 0, max: 50 })),
      offset: value(fc.integer({ min: 0, max: 50 })),
      page: value(fc.oneof(fc.integer({ min: 1, max: 9 }), fc.constant(2 ** 45))),
      order: value(fc.constantFrom("asc", "desc")),
    });
    let planned = 0;
    let refused = 0;
    fc.assert(
      fc.property(request, (options) => {
        let plan;
        try {
          plan = planSessionList({ appName: "a", ...(options as object) });
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigurationError);
          expect((error as ConfigurationError).code).toBe("INVALID_LIST_REQUEST");
          refused++;
          return;
        }
        planned++;
        expect(Number.isSafeInteger(plan.offset) && plan.offset >= 0).toBe(true);
        if (plan.fetch !== undefined) expect(Number.isSafeInteger(plan.fetch) && plan.fetch >= 0).toBe(true);
      }),
      { numRuns: 5000 },
    );
    console.log(`planSessionList fuzz: 5000 requests, ${planned} planned, ${refused} refused with INVALID_LIST_REQUEST`);
    expect(planned).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });
});
