import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../src/index.js";
import { DEFAULT_MAX_BODY_BYTES, LOOPBACK_HOSTS } from "../../src/server/create-api-app.js";
import { FunctionModel, textResponse } from "../../src/testing/index.js";
import { inlineApi } from "./inline-api.js";

const echo = () => new LlmAgent({ name: "echo", model: new FunctionModel(() => textResponse("ok")) });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("bearer tokens", () => {
  it("asks for a token with 401, a WWW-Authenticate header and the header to send", async () => {
    const { json } = await inlineApi({ echo: echo() }, { tokens: { t1: "alice" } });
    for (const authorization of [undefined, "Bearer", "Basic dDE=", "Bearer t2", "t1"]) {
      const response = await json("/list-apps", { headers: authorization === undefined ? {} : { authorization } });
      expect(response.status, authorization).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
      expect(response.body).toEqual({ code: "UNAUTHORIZED", error: "This server needs a bearer token: send Authorization: Bearer <token>." });
    }
  });

  it("takes the scheme in any case and spaces around the token", async () => {
    const { call } = await inlineApi({ echo: echo() }, { tokens: { t1: "alice" } });
    for (const authorization of ["Bearer t1", "bearer t1", "BEARER   t1  "]) expect((await call("/list-apps", { headers: { authorization } })).status, authorization).toBe(200);
  });

  it("lets a token act for its own user through sessions and runs", async () => {
    const { json } = await inlineApi({ echo: echo() }, { tokens: { t1: "alice" } });
    const created = await json("/apps/echo/users/alice/sessions/s", { json: {}, headers: bearer("t1") });
    expect(created.status).toBe(200);
    const run = await json("/run", { json: { appName: "echo", userId: "alice", sessionId: "s", newMessage: { parts: [{ text: "hi" }] } }, headers: bearer("t1") });
    expect(run.status).toBe(200);
    expect(run.body.at(-1).content.parts[0].text).toBe("ok");
  });

  it("answers another user's path as if nothing were there, and creates nothing for them", async () => {
    const { json, services } = await inlineApi({ echo: echo() }, { tokens: { t1: "alice" } });
    const attempt = await json("/apps/echo/users/bob/sessions/planted", { json: { state: { evil: true } }, headers: bearer("t1") });
    expect(attempt.status).toBe(404);
    expect(attempt.body).toEqual({ code: "NOT_FOUND", error: "Session not found." });
    expect(await services.sessionService.getSession({ appName: "echo", userId: "bob", sessionId: "planted" })).toBeUndefined();
    const run = await json("/run", { json: { appName: "echo", userId: "bob", sessionId: "whatever", newMessage: { parts: [{ text: "hi" }] } }, headers: bearer("t1") });
    expect(run.status).toBe(404);
    expect(run.body.code).toBe("SESSION_NOT_FOUND");
  });

  it("serves no traces, which are kept by session id alone: another user's runs would be readable by guessing the id", async () => {
    const { json } = await inlineApi({ echo: echo() }, { tokens: { t1: "alice", t2: "bob" } });
    await json("/apps/echo/users/alice/sessions/s1", { json: {}, headers: bearer("t1") });
    const run = await json("/run", { json: { appName: "echo", userId: "alice", sessionId: "s1", newMessage: { parts: [{ text: "hi" }] } }, headers: bearer("t1") });
    const eventId = run.body.at(-1).id as string;
    for (const path of ["/debug/trace/session/s1", `/debug/trace/${eventId}`, "/dev/apps/echo/debug/trace/session/s1", `/dev/apps/echo/debug/trace/${eventId}`]) {
      for (const token of ["t2", "t1"]) {
        const response = await json(path, { headers: bearer(token) });
        expect([path, token, response.status, response.body]).toEqual([
          path,
          token,
          403,
          { code: "TRACES_NOT_SERVED", error: "Traces are not served with bearer tokens: they are kept by session id alone, so one user could read another's. Export them over OTLP (OTEL_EXPORTER_OTLP_ENDPOINT) instead." },
        ]);
      }
    }
  });

  it("refuses app: state from a request, which every user shares, and keeps the app's state as it was; a user's own keys are taken", async () => {
    const { json, services } = await inlineApi({ echo: echo() }, { tokens: { t1: "alice" } });
    const created = await json("/apps/echo/users/alice/sessions/s", { json: { state: { "app:banner": "pwned", "user:theme": "dark" } }, headers: bearer("t1") });
    expect(created.status).toBe(403);
    expect(created.body).toEqual({ code: "APP_STATE_REFUSED", error: 'With bearer tokens a request may not write app: state, which every user of the app shares ("app:banner" in state). Write it from the app\'s own code, or use a user: key.' });
    expect(await services.sessionService.getSession({ appName: "echo", userId: "alice", sessionId: "s" })).toBeUndefined();
    expect((await json("/apps/echo/users/alice/sessions/s", { json: { state: { "user:theme": "dark", draft: 1 } }, headers: bearer("t1") })).status).toBe(200);
    const run = await json("/run", { json: { appName: "echo", userId: "alice", sessionId: "s", stateDelta: { "app:banner": "pwned" }, newMessage: { parts: [{ text: "hi" }] } }, headers: bearer("t1") });
    expect([run.status, run.body.code]).toEqual([403, "APP_STATE_REFUSED"]);
    const session = await services.sessionService.getSession({ appName: "echo", userId: "alice", sessionId: "s" });
    expect([session!.events, session!.state]).toEqual([[], { "user:theme": "dark", draft: 1 }]);
    // Without tokens the caller is the app's developer: app: state is taken, as ADK takes it.
    const open = await inlineApi({ echo: echo() });
    expect((await open.json("/apps/echo/users/alice/sessions/s", { json: { state: { "app:banner": "hello" } } })).status).toBe(200);
  });

  it("is off with an empty token map", async () => {
    const { call } = await inlineApi({ echo: echo() }, { tokens: {} });
    expect((await call("/list-apps")).status).toBe(200);
  });
});

describe("host names", () => {
  it("answers the loopback names on any port, in any case", async () => {
    const { app } = await inlineApi({ echo: echo() }, { allowedHosts: LOOPBACK_HOSTS });
    for (const url of ["http://localhost/list-apps", "http://LOCALHOST:3000/list-apps", "http://127.0.0.1:1/list-apps"]) expect((await app.request(url)).status, url).toBe(200);
  });

  it("judges by the Host header, which a rebinding page cannot choose", async () => {
    const { app } = await inlineApi({ echo: echo() }, { allowedHosts: LOOPBACK_HOSTS });
    const response = await app.request("http://127.0.0.1:8000/list-apps", { headers: { host: "evil.example:8000" } });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      code: "HOST_NOT_ALLOWED",
      error: 'Requests for host "evil.example" are refused: this server answers to localhost, 127.0.0.1, [::1].',
    });
  });

  it("refuses a foreign host before asking for a token, and refuses it on every route", async () => {
    const { app } = await inlineApi({ echo: echo() }, { allowedHosts: ["localhost"], tokens: { t1: "alice" } });
    expect((await app.request("http://evil.example/list-apps")).status).toBe(403);
    expect((await app.request("http://evil.example/run", { method: "POST", headers: bearer("t1"), body: "{}" })).status).toBe(403);
    expect((await app.request("http://localhost/list-apps")).status).toBe(401);
  });

  it("answers any host when no list is given", async () => {
    const { app } = await inlineApi({ echo: echo() });
    expect((await app.request("http://anything.example/list-apps")).status).toBe(200);
  });
});

describe("CORS", () => {
  it("allows any origin with *", async () => {
    const { call } = await inlineApi({ echo: echo() }, { corsOrigins: ["*"] });
    expect((await call("/list-apps", { headers: { origin: "https://anywhere.example" } })).headers.get("access-control-allow-origin")).toBe("*");
  });

  it("answers a preflight for a configured origin with the headers a client needs, even in token mode", async () => {
    const { call } = await inlineApi({ echo: echo() }, { corsOrigins: ["http://localhost:4200"], tokens: { t1: "alice" } });
    const preflight = await call("/run", { method: "OPTIONS", headers: { origin: "http://localhost:4200", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("http://localhost:4200");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase().split(",").map((name) => name.trim())).toEqual(["content-type", "authorization"]);
  });

  it("lets a browser read the next-page header of a session list", async () => {
    const { call } = await inlineApi({ echo: echo() }, { corsOrigins: ["http://localhost:4200"] });
    for (const id of ["a", "b"]) await call(`/apps/echo/users/u/sessions/${id}`, { json: {} });
    const page = await call("/apps/echo/users/u/sessions?pageSize=1", { headers: { origin: "http://localhost:4200" } });
    expect(page.headers.get("x-next-page-token")).toBe("1");
    expect(page.headers.get("access-control-expose-headers")).toBe("x-next-page-token");
  });
});

describe("request body limit", () => {
  it("is 8 MiB by default", () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(8 * 1024 * 1024);
  });

  it("takes a body at the limit and refuses one byte more on any route, storing nothing", async () => {
    const { call, services } = await inlineApi({ echo: echo() }, { maxBodyBytes: 200 });
    const bodyOf = (size: number) => {
      const prefix = '{"state":{"pad":"';
      const suffix = '"}}';
      return prefix + "x".repeat(size - prefix.length - suffix.length) + suffix;
    };
    const atLimit = await call("/apps/echo/users/u/sessions/fits", { method: "POST", body: bodyOf(200), headers: { "content-type": "application/json" } });
    expect(atLimit.status).toBe(200);
    const over = await call("/apps/echo/users/u/sessions/too-big", { method: "POST", body: bodyOf(201), headers: { "content-type": "application/json" } });
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ code: "BODY_TOO_LARGE", error: "The request body is larger than 200 bytes." });
    expect(await services.sessionService.getSession({ appName: "echo", userId: "u", sessionId: "too-big" })).toBeUndefined();
  });
});

describe("unknown endpoints", () => {
  it("answers 404 naming the method and path, for unknown paths and for known paths with another method", async () => {
    const { json } = await inlineApi({ echo: echo() });
    expect((await json("/no/such/thing")).body).toEqual({ code: "NOT_FOUND", error: "No endpoint GET /no/such/thing." });
    const wrongMethod = await json("/list-apps", { method: "DELETE" });
    expect(wrongMethod.status).toBe(404);
    expect(wrongMethod.body).toEqual({ code: "NOT_FOUND", error: "No endpoint DELETE /list-apps." });
  });
});
