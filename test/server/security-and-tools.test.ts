import { describe, expect, it } from "vitest";
import { startServer } from "../../src/server/start-server.js";
import { exampleApi, sseEvents } from "./helpers.js";
import { slowToolLog } from "../fixtures/agents/slow.js";

const message = (text: string) => ({ role: "user", parts: [{ text }] });

describe("HTTP API: bearer tokens and CORS", () => {
  it("needs a token when tokens are configured, and hides other users' sessions and artifacts behind 404", async () => {
    const { call } = await exampleApi({ tokens: { "token-alice": "alice", "token-bob": "bob" } });
    const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    expect((await call("/list-apps")).status).toBe(401);
    expect((await call("/list-apps", as("wrong"))).status).toBe(401);
    expect((await call("/list-apps", as("token-alice"))).status).toBe(200);

    const created = (await (await call("/apps/shop/users/alice/sessions", { json: {}, ...as("token-alice") })).json()) as { id: string };
    expect((await call(`/apps/shop/users/alice/sessions/${created.id}`, as("token-alice"))).status).toBe(200);
    expect((await call(`/apps/shop/users/alice/sessions/${created.id}`, as("token-bob"))).status).toBe(404);
    expect((await call(`/apps/shop/users/alice/sessions`, as("token-bob"))).status).toBe(404);
    expect((await call(`/apps/shop/users/alice/sessions/${created.id}/artifacts`, as("token-bob"))).status).toBe(404);
    expect((await call(`/apps/shop/users/alice/sessions/${created.id}`, { method: "DELETE", ...as("token-bob") })).status).toBe(404);
    const run = await call("/run", { json: { appName: "shop", userId: "alice", sessionId: created.id, newMessage: message("hi") }, ...as("token-bob") });
    expect(run.status).toBe(404);
    expect((await call(`/apps/shop/users/alice/sessions/${created.id}/tools/lookup_order/call`, { json: { args: { orderId: "A" } }, ...as("token-bob") })).status).toBe(404);
    const session = (await (await call(`/apps/shop/users/alice/sessions/${created.id}`, as("token-alice"))).json()) as { events: unknown[] };
    expect(session.events).toEqual([]);
  });

  it("refuses requests for other host names when limited to loopback ones, against DNS rebinding", async () => {
    const { app } = await exampleApi({ allowedHosts: ["localhost", "127.0.0.1", "[::1]"] });
    expect((await app.request("http://127.0.0.1:8000/list-apps")).status).toBe(200);
    expect((await app.request("http://[::1]:8000/list-apps")).status).toBe(200);
    const rebound = await app.request("http://attacker.example:8000/list-apps");
    expect(rebound.status).toBe(403);
    expect(await rebound.json()).toMatchObject({ code: "HOST_NOT_ALLOWED" });
  });

  it("sends no CORS headers by default, and allows only the configured origins", async () => {
    const closed = await exampleApi();
    const preflight = { method: "OPTIONS", headers: { origin: "https://evil.example", "access-control-request-method": "POST" } };
    expect((await closed.call("/list-apps", { headers: { origin: "https://evil.example" } })).headers.get("access-control-allow-origin")).toBeNull();
    expect((await closed.call("/run", preflight)).headers.get("access-control-allow-origin")).toBeNull();

    const open = await exampleApi({ corsOrigins: ["http://localhost:4200"] });
    expect((await open.call("/list-apps", { headers: { origin: "http://localhost:4200" } })).headers.get("access-control-allow-origin")).toBe("http://localhost:4200");
    expect((await open.call("/list-apps", { headers: { origin: "https://evil.example" } })).headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("HTTP API: tools", () => {
  it("lists an app's tools with their schemas", async () => {
    const { call } = await exampleApi();
    const tools = (await (await call("/apps/shop/tools")).json()) as Record<string, any>[];
    expect(tools.map((tool) => tool.name)).toEqual(["lookup_order", "issue_refund", "ask_manager", "loyalty_points"]);
    expect(tools[1]).toMatchObject({ agent: "shop_assistant", parameters: { required: ["orderId", "amount"] }, isLongRunning: false });
    expect(tools[2]!.isLongRunning).toBe(true);
    expect((await call("/apps/nope/tools")).status).toBe(404);
  });

  it("calls one tool on a session and returns its result, state delta and artifacts, storing the call", async () => {
    const { call, createSession, services } = await exampleApi();
    const { id } = await createSession();
    const response = await call(`/apps/shop/users/u1/sessions/${id}/tools/lookup_order/call`, { json: { args: { orderId: "B-2" } } });
    expect(response.status).toBe(200);
    const result = (await response.json()) as Record<string, any>;
    expect(result.response).toEqual({ status: "success", orderId: "B-2", item: "teapot", price: 120, shipped: true });
    expect(result.stateDelta).toEqual({ last_order: "B-2" });
    expect(result.artifactDelta).toEqual({ "receipt-B-2.txt": 0, "order-photo.png": 0 });
    const session = await services.sessionService.getSession({ appName: "shop", userId: "u1", sessionId: id });
    expect(session!.state).toMatchObject({ last_order: "B-2" });
    expect(session!.events.map((event) => Object.keys(event.content!.parts![0]!)[0])).toEqual(["functionCall", "functionResponse"]);
  });

  it("runs a tool that needs confirmation when a person calls it by hand", async () => {
    const { call, createSession } = await exampleApi();
    const { id } = await createSession();
    const result = (await (await call(`/apps/shop/users/u1/sessions/${id}/tools/issue_refund/call`, { json: { args: { orderId: "A", amount: 500 } } })).json()) as Record<string, any>;
    expect(result.response).toEqual({ status: "refunded", orderId: "A", amount: 500 });
  });

  it("returns the model's error result for invalid arguments, and 404 for an unknown tool or session", async () => {
    const { call, createSession } = await exampleApi();
    const { id } = await createSession();
    const invalid = (await (await call(`/apps/shop/users/u1/sessions/${id}/tools/issue_refund/call`, { json: { args: { orderId: "A", amount: "lots" } } })).json()) as Record<string, any>;
    expect(invalid.response.status).toBe("error");
    expect(invalid.response.error).toContain("amount");
    expect(invalid.stateDelta).toEqual({});
    const unknown = await call(`/apps/shop/users/u1/sessions/${id}/tools/nope/call`, { json: {} });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "UNKNOWN_TOOL" });
    expect((await call(`/apps/shop/users/u1/sessions/missing/tools/lookup_order/call`, { json: {} })).status).toBe(404);
  });
});

describe("HTTP API: cancellation", () => {
  it("aborts the running tool when the client cancels /run_sse", async () => {
    slowToolLog.length = 0;
    const { call, createSession } = await exampleApi({ agentsDir: "test/fixtures/agents" });
    const { id } = await createSession("slow");
    const response = await call("/run_sse", { json: { appName: "slow", userId: "u1", sessionId: id, newMessage: message("go") } });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(sseEvents(first)[0]!.content.parts[0].functionCall.name).toBe("wait_forever");
    // The stream reads ahead into the tool call; cancel once the tool is really running.
    for (let attempt = 0; attempt < 100 && !slowToolLog.includes("started"); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    await reader.cancel();
    for (let attempt = 0; attempt < 100 && !slowToolLog.includes("aborted"); attempt++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(slowToolLog).toEqual(["started", "aborted"]);
  });

  it("aborts the running tool when an HTTP client disconnects from a real server", async () => {
    slowToolLog.length = 0;
    const { app, createSession } = await exampleApi({ agentsDir: "test/fixtures/agents" });
    const { id } = await createSession("slow");
    const server = await startServer({ app, port: 0 });
    try {
      const abort = new AbortController();
      const response = await fetch(`${server.url}/run_sse`, {
        method: "POST",
        body: JSON.stringify({ appName: "slow", userId: "u1", sessionId: id, newMessage: message("go") }),
        headers: { "content-type": "application/json" },
        signal: abort.signal,
      });
      await response.body!.getReader().read();
      for (let attempt = 0; attempt < 100 && !slowToolLog.includes("started"); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
      abort.abort();
      for (let attempt = 0; attempt < 100 && !slowToolLog.includes("aborted"); attempt++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(slowToolLog).toEqual(["started", "aborted"]);
    } finally {
      await server.close();
    }
  });

  it("tells the user an app module without rootAgent is broken, with a 500 naming the fix", async () => {
    const { call } = await exampleApi({ agentsDir: "test/fixtures/agents" });
    const response = await call("/apps/broken/tools");
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ code: "NO_ROOT_AGENT", error: expect.stringContaining("export const rootAgent") });
  });
});
