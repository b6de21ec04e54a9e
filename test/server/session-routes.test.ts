import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../src/index.js";
import { FunctionModel, textResponse } from "../../src/testing/index.js";
import { inlineApi } from "./inline-api.js";

const echo = () => new LlmAgent({ name: "echo", model: new FunctionModel(() => textResponse("ok")) });
const SESSIONS = "/apps/echo/users/u1/sessions";

describe("session routes: creating", () => {
  it("takes the session id from the body when the path gives none, and the path's over the body's", async () => {
    const { json } = await inlineApi({ echo: echo() });
    expect((await json(SESSIONS, { json: { sessionId: "from-body" } })).body.id).toBe("from-body");
    expect((await json(`${SESSIONS}/from-path`, { json: { sessionId: "ignored" } })).body.id).toBe("from-path");
    const listed = (await json(SESSIONS)).body as { id: string }[];
    expect(listed.map((session) => session.id).sort()).toEqual(["from-body", "from-path"]);
  });

  it("creates a session from an empty body, with a generated id and no state", async () => {
    const { app } = await inlineApi({ echo: echo() });
    const response = await app.request(SESSIONS, { method: "POST" });
    expect(response.status).toBe(200);
    const session = (await response.json()) as Record<string, unknown>;
    expect(session).toMatchObject({ appName: "echo", userId: "u1", state: {}, events: [] });
    expect(session.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("shares app: state with every user and user: state with the user's other sessions, and never stores temp: keys", async () => {
    const { json } = await inlineApi({ echo: echo() });
    await json(`${SESSIONS}/first`, { json: { state: { "app:theme": "dark", "user:name": "Ada", "temp:scratch": 1, draft: "x" } } });
    expect((await json(`${SESSIONS}/first`)).body.state).toEqual({ "app:theme": "dark", "user:name": "Ada", draft: "x" });
    expect((await json(`${SESSIONS}/second`, { json: {} })).body.state).toEqual({ "app:theme": "dark", "user:name": "Ada" });
    expect((await json("/apps/echo/users/u2/sessions/other", { json: {} })).body.state).toEqual({ "app:theme": "dark" });
  });

  it("refuses to create a session in an app that does not exist, and stores nothing", async () => {
    const { json, services } = await inlineApi({ echo: echo() });
    const response = await json("/apps/ghost/users/u1/sessions/s", { json: { state: { a: 1 } } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: "APP_NOT_FOUND", error: 'No app "ghost". Apps in the agents directory: echo.' });
    expect(await services.sessionService.getSession({ appName: "ghost", userId: "u1", sessionId: "s" })).toBeUndefined();
  });

  it("answers a taken id with 409 SESSION_EXISTS naming the id", async () => {
    const { json } = await inlineApi({ echo: echo() });
    await json(`${SESSIONS}/dup`, { json: {} });
    const again = await json(SESSIONS, { json: { sessionId: "dup" } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("SESSION_EXISTS");
    expect(again.body.error).toContain('Session "dup" already exists');
  });

  it("refuses state that is not an object with 400, creating nothing", async () => {
    const { json } = await inlineApi({ echo: echo() });
    for (const state of ["text", 3, [1]]) {
      const response = await json(`${SESSIONS}/bad`, { json: { state } });
      expect(response.status, JSON.stringify(state)).toBe(400);
      expect(response.body).toEqual({ code: "INVALID_BODY", error: '"state" must be a JSON object.' });
    }
    expect((await json(`${SESSIONS}/bad`)).status).toBe(404);
    // null counts as no state
    expect((await json(`${SESSIONS}/bad`, { json: { state: null } })).body.state).toEqual({});
  });
});

describe("session routes: listing", () => {
  it("walks every session of a user through the page tokens, each once, without events", async () => {
    const { json, call } = await inlineApi({ echo: echo() });
    for (let index = 0; index < 5; index++) await json(`${SESSIONS}/s${index}`, { json: {} });
    await json("/apps/echo/users/someone-else/sessions/x", { json: {} });
    await call("/run", { json: { appName: "echo", userId: "u1", sessionId: "s0", newMessage: { parts: [{ text: "hi" }] } } });

    const seen: string[] = [];
    let token: string | null = null;
    for (let page = 0; page < 10; page++) {
      const response = await json(`${SESSIONS}?pageSize=2${token ? `&pageToken=${token}` : ""}`);
      expect(response.status).toBe(200);
      expect(response.body.length).toBeLessThanOrEqual(2);
      for (const session of response.body) {
        expect(session.events).toEqual([]);
        seen.push(session.id);
      }
      token = response.headers.get("x-next-page-token");
      if (!token) break;
    }
    expect(seen.sort()).toEqual(["s0", "s1", "s2", "s3", "s4"]);
  });

  it("answers a page token it did not give with 400 INVALID_LIST_REQUEST, and lists as before after it", async () => {
    const { json } = await inlineApi({ echo: echo() });
    await json(`${SESSIONS}/kept`, { json: {} });
    const refused = await json(`${SESSIONS}?pageSize=2&pageToken=${encodeURIComponent("1 OR 1=1")}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      code: "INVALID_LIST_REQUEST",
      error: 'listSessions got pageToken "1 OR 1=1", which is not a token this store gave. Pass the nextPageToken of the page before, or leave it out for the first page.',
    });
    expect((await json(SESSIONS)).body.map((session: { id: string }) => session.id)).toEqual(["kept"]);
  });

  it("sends no page token when everything fits, and an empty array for a user with no sessions", async () => {
    const { json } = await inlineApi({ echo: echo() });
    await json(`${SESSIONS}/only`, { json: {} });
    const all = await json(`${SESSIONS}?pageSize=1000`);
    expect(all.body.map((session: { id: string }) => session.id)).toEqual(["only"]);
    expect(all.headers.get("x-next-page-token")).toBeNull();
    const none = await json("/apps/echo/users/nobody/sessions");
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
  });

  it.each(["0", "1001", "1.5", "ten"])("refuses pageSize=%s with 400 INVALID_QUERY", async (size) => {
    const { json } = await inlineApi({ echo: echo() });
    const response = await json(`${SESSIONS}?pageSize=${size}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "INVALID_QUERY", error: '"pageSize" must be a whole number from 1 to 1000.' });
  });

  it("treats an empty pageSize as none", async () => {
    const { json } = await inlineApi({ echo: echo() });
    for (let index = 0; index < 3; index++) await json(`${SESSIONS}/s${index}`, { json: {} });
    expect((await json(`${SESSIONS}?pageSize=`)).body).toHaveLength(3);
  });
});

describe("session routes: reading and deleting", () => {
  it("keeps one user's session out of another user's path", async () => {
    const { json } = await inlineApi({ echo: echo() });
    await json(`${SESSIONS}/mine`, { json: {} });
    expect((await json("/apps/echo/users/u2/sessions/mine")).status).toBe(404);
    expect((await json("/apps/echo/users/u2/sessions/mine", { method: "DELETE" })).status).toBe(404);
    expect((await json(`${SESSIONS}/mine`)).status).toBe(200);
  });

  it("returns the stored events of a session after a run, in order", async () => {
    const { json } = await inlineApi({ echo: echo() });
    await json(`${SESSIONS}/talk`, { json: {} });
    const events = (await json("/run", { json: { appName: "echo", userId: "u1", sessionId: "talk", newMessage: { parts: [{ text: "hello" }] } } })).body;
    const session = (await json(`${SESSIONS}/talk`)).body;
    expect(session.events.map((event: { author: string }) => event.author)).toEqual(["user", "echo"]);
    expect(session.events[0].content).toEqual({ role: "user", parts: [{ text: "hello" }] });
    expect(session.events[1].id).toBe(events[0].id);
  });

  it("deletes only the named session, leaving the user's others", async () => {
    const { json, call } = await inlineApi({ echo: echo() });
    await json(`${SESSIONS}/a`, { json: {} });
    await json(`${SESSIONS}/b`, { json: {} });
    const deleted = await call(`${SESSIONS}/a`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    expect((await json(SESSIONS)).body.map((session: { id: string }) => session.id)).toEqual(["b"]);
  });

  it("answers a deleted session's id as free again", async () => {
    const { json, call } = await inlineApi({ echo: echo() });
    await json(`${SESSIONS}/again`, { json: { state: { old: true } } });
    await call(`${SESSIONS}/again`, { method: "DELETE" });
    const recreated = await json(`${SESSIONS}/again`, { json: {} });
    expect(recreated.status).toBe(200);
    expect(recreated.body.state).toEqual({});
  });
});
