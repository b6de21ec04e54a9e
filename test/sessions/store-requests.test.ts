/**
 * `getOrCreateSessionIn`, the one `getOrCreateSession` behind every store (the conformance suite runs it on each
 * real store): the paths a real store reaches only by chance, with a store whose answers the test chooses.
 */
import { describe, expect, it } from "vitest";
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
