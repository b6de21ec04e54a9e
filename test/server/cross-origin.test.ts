import { describe, expect, it } from "vitest";
import { exampleApi } from "./helpers.js";

/**
 * A web page of another origin cannot change anything through the API: CORS only keeps it from reading answers,
 * and a "simple" request (a POST of text/plain, no preflight) used to create sessions and run agents.
 */
describe("requests that web pages of other origins send", () => {
  const runBody = (sessionId: string) => JSON.stringify({ appName: "shop", userId: "u1", sessionId, newMessage: { role: "user", parts: [{ text: "order A-17" }] } });
  const simple = (origin: string, extra: Record<string, string> = {}) => ({ origin, "content-type": "text/plain;charset=UTF-8", host: "127.0.0.1:8000", ...extra });

  it("refuses a simple cross-origin POST that would create a session or run the agent, saying how to allow the origin, and stores nothing", async () => {
    const { app, call } = await exampleApi();
    const created = await app.request("http://127.0.0.1:8000/apps/shop/users/u1/sessions/planted", { method: "POST", headers: simple("https://evil.example"), body: "{}" });
    expect(created.status).toBe(403);
    expect(await created.json()).toEqual({
      error: "Requests from pages of https://evil.example are refused: this server takes changes only from its own pages. Give the origin with --allow-origin (corsOrigins) to allow it.",
      code: "ORIGIN_NOT_ALLOWED",
    });
    expect((await call("/apps/shop/users/u1/sessions/planted")).status).toBe(404);

    const existing = (await (await call("/apps/shop/users/u1/sessions", { json: {} })).json()) as { id: string };
    for (const [path, body] of [["/run", runBody(existing.id)], ["/run_sse", runBody(existing.id)], [`/apps/shop/users/u1/sessions/${existing.id}`, undefined]] as const) {
      for (const method of body === undefined ? ["DELETE", "PATCH"] : ["POST"]) {
        const refused = await app.request(`http://127.0.0.1:8000${path}`, { method, headers: simple("http://localhost:3000"), body });
        expect([path, method, refused.status, ((await refused.json()) as { code: string }).code]).toEqual([path, method, 403, "ORIGIN_NOT_ALLOWED"]);
      }
    }
    const session = (await (await call(`/apps/shop/users/u1/sessions/${existing.id}`)).json()) as { events: unknown[] };
    expect(session.events).toEqual([]);
  });

  it("refuses the opaque origin 'null' of a sandboxed frame or a local file", async () => {
    const { app } = await exampleApi();
    const response = await app.request("http://127.0.0.1:8000/apps/shop/users/u1/sessions", { method: "POST", headers: simple("null"), body: "{}" });
    expect(response.status).toBe(403);
  });

  it("takes changes from the server's own pages (also behind a proxy that forwards the host), from allowed origins, and from programs that send no Origin", async () => {
    const own = await exampleApi();
    const fromOwnPage = await own.app.request("http://127.0.0.1:8000/apps/shop/users/u1/sessions", { method: "POST", headers: simple("http://127.0.0.1:8000"), body: "{}" });
    expect(fromOwnPage.status).toBe(200);
    const proxied = await own.app.request("http://10.0.0.5:8000/apps/shop/users/u1/sessions", { method: "POST", headers: simple("https://agents.example.com", { host: "10.0.0.5:8000", "x-forwarded-host": "agents.example.com" }), body: "{}" });
    expect(proxied.status).toBe(200);
    const fromProgram = await own.app.request("http://127.0.0.1:8000/apps/shop/users/u1/sessions", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(fromProgram.status).toBe(200);

    const allowing = await exampleApi({ corsOrigins: ["http://localhost:3000"] });
    const session = (await (await allowing.call("/apps/shop/users/u1/sessions", { json: {} })).json()) as { id: string };
    const run = await allowing.app.request("http://127.0.0.1:8000/run", { method: "POST", headers: { origin: "http://localhost:3000", "content-type": "application/json", host: "127.0.0.1:8000" }, body: runBody(session.id) });
    expect(run.status).toBe(200);
    expect(run.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
    const anyOrigin = await exampleApi({ corsOrigins: ["*"] });
    expect((await anyOrigin.app.request("http://127.0.0.1:8000/apps/shop/users/u1/sessions", { method: "POST", headers: simple("https://anything.example"), body: "{}" })).status).toBe(200);
  });

  it("still answers reads from other origins, which CORS keeps their pages from seeing", async () => {
    const { app } = await exampleApi();
    const listed = await app.request("http://127.0.0.1:8000/list-apps", { headers: { origin: "https://evil.example", host: "127.0.0.1:8000" } });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("access-control-allow-origin")).toBeNull();
  });
});
