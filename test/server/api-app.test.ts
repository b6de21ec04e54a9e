import { describe, expect, it } from "vitest";
import { REQUEST_CONFIRMATION } from "../../src/index.js";
import { exampleApi, sseEvents } from "./helpers.js";

const message = (text: string) => ({ role: "user", parts: [{ text }] });

describe("HTTP API: apps and sessions", () => {
  it("lists the apps of the agents directory", async () => {
    const { call } = await exampleApi();
    expect(await (await call("/list-apps")).json()).toEqual(["shop", "stats", "weather-sentiment"]);
  });

  it("creates, lists (a plain array, paged), reads and deletes sessions", async () => {
    const { call } = await exampleApi();
    const first = (await (await call("/apps/shop/users/u1/sessions", { json: { state: { tier: "gold" } } })).json()) as Record<string, any>;
    expect(first).toMatchObject({ appName: "shop", userId: "u1", state: { tier: "gold" }, events: [] });
    const named = await call("/apps/shop/users/u1/sessions/my-session", { json: {} });
    expect(await named.json()).toMatchObject({ id: "my-session" });

    const list = await call("/apps/shop/users/u1/sessions");
    const sessions = (await list.json()) as Record<string, any>[];
    expect(Array.isArray(sessions)).toBe(true);
    expect(sessions.map((session) => session.id).sort()).toEqual([first.id, "my-session"].sort());
    const page = await call("/apps/shop/users/u1/sessions?pageSize=1");
    expect(((await page.json()) as unknown[]).length).toBe(1);
    expect(page.headers.get("x-next-page-token")).toBeTruthy();

    expect(await (await call(`/apps/shop/users/u1/sessions/${first.id}`)).json()).toMatchObject({ id: first.id, state: { tier: "gold" } });
    expect((await call(`/apps/shop/users/u1/sessions/${first.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call(`/apps/shop/users/u1/sessions/${first.id}`)).status).toBe(404);
  });

  it("answers unknown apps, sessions and endpoints with a 404 JSON error", async () => {
    const { call } = await exampleApi();
    const app = await call("/apps/nope/users/u1/sessions");
    expect(app.status).toBe(404);
    expect(await app.json()).toMatchObject({ code: "APP_NOT_FOUND", error: expect.stringContaining("shop, stats, weather-sentiment") });
    const session = await call("/apps/shop/users/u1/sessions/missing");
    expect(session.status).toBe(404);
    expect(await session.json()).toMatchObject({ code: "SESSION_NOT_FOUND" });
    expect((await call("/apps/shop/users/u1/sessions/missing", { method: "DELETE" })).status).toBe(404);
    expect((await call("/nothing-here")).status).toBe(404);
    const run = await call("/run", { json: { appName: "shop", userId: "u1", sessionId: "missing", newMessage: message("hi") } });
    expect(run.status).toBe(404);
    expect(await run.json()).toMatchObject({ code: "SESSION_NOT_FOUND" });
  });

  it("refuses a second session with the same id with 409, keeping the first", async () => {
    const { call } = await exampleApi();
    await call("/apps/shop/users/u1/sessions/s1", { json: { state: { a: 1 } } });
    const again = await call("/apps/shop/users/u1/sessions/s1", { json: { state: { a: 2 } } });
    expect(again.status).toBe(409);
    expect(await (await call("/apps/shop/users/u1/sessions/s1")).json()).toMatchObject({ state: { a: 1 } });
  });
});

describe("HTTP API: bad requests", () => {
  it("answers malformed JSON, a non-object body and missing fields with 400 and stores nothing", async () => {
    const { call, createSession, services } = await exampleApi();
    const { id } = await createSession();
    const malformed = await call("/run", { method: "POST", body: "{not json", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: "MALFORMED_JSON", error: expect.stringContaining("not valid JSON") });
    expect((await call("/run", { json: [1, 2] })).status).toBe(400);
    const missing = await call("/run_sse", { json: { appName: "shop", sessionId: id } });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: '"userId" is required and must be a non-empty string.' });
    const badParts = await call("/run", { json: { appName: "shop", userId: "u1", sessionId: id, newMessage: { parts: "hi" } } });
    expect(badParts.status).toBe(400);
    const badState = await call("/apps/shop/users/u1/sessions", { json: { state: [1] } });
    expect(badState.status).toBe(400);
    const stored = await services.sessionService.getSession({ appName: "shop", userId: "u1", sessionId: id });
    expect(stored!.events).toEqual([]);
  });

  it("refuses a body over the limit with 413", async () => {
    const { call, createSession } = await exampleApi({ maxBodyBytes: 1000 });
    const { id } = await createSession();
    const response = await call("/run", { json: { appName: "shop", userId: "u1", sessionId: id, newMessage: message("x".repeat(5000)) } });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: "BODY_TOO_LARGE" });
    const stored = (await (await call(`/apps/shop/users/u1/sessions/${id}`)).json()) as { events: unknown[] };
    expect(stored.events).toEqual([]);
  });

  it("refuses a bad page size and a bad artifact version with 400", async () => {
    const { call, createSession } = await exampleApi();
    const { id } = await createSession();
    expect((await call("/apps/shop/users/u1/sessions?pageSize=-3")).status).toBe(400);
    expect((await call(`/apps/shop/users/u1/sessions/${id}/artifacts/a.txt/versions/x`)).status).toBe(400);
  });
});

describe("HTTP API: runs", () => {
  it("POST /run returns every event in ADK's JSON and stores them", async () => {
    const { call, createSession } = await exampleApi();
    const { id } = await createSession();
    const response = await call("/run", { json: { appName: "shop", userId: "u1", sessionId: id, newMessage: message("order A-17") } });
    expect(response.status).toBe(200);
    const events = (await response.json()) as Record<string, any>[];
    expect(events.map((event) => event.author)).toEqual(["shop_assistant", "shop_assistant", "shop_assistant"]);
    expect(events[0]!.content.parts[0].functionCall).toMatchObject({ name: "lookup_order", args: { orderId: "A-17" } });
    expect(events[1]!.content.parts[0].functionResponse).toMatchObject({ name: "lookup_order", response: { item: "teapot" } });
    expect(events[1]!.actions).toMatchObject({ stateDelta: { last_order: "A-17" }, artifactDelta: { "receipt-A-17.txt": 0, "order-photo.png": 0 } });
    expect(events[2]!).toMatchObject({ invocationId: events[0]!.invocationId, content: { role: "model" } });
    expect(typeof events[2]!.id).toBe("string");
    expect(typeof events[2]!.timestamp).toBe("number");
    const session = (await (await call(`/apps/shop/users/u1/sessions/${id}`)).json()) as Record<string, any>;
    expect(session.events.map((event: { id: string }) => event.id)).toEqual([expect.any(String), ...events.map((event) => event.id)]);
    expect(session.state).toMatchObject({ last_order: "A-17" });
  });

  it("POST /run_sse sends one data line per event, partial ones when streaming is true", async () => {
    const { call, createSession } = await exampleApi();
    const { id } = await createSession();
    const streamed = sseEvents(await (await call("/run_sse", { json: { appName: "shop", userId: "u1", sessionId: id, newMessage: message("hello"), streaming: true } })).text());
    const partials = streamed.filter((event) => event.partial);
    expect(partials.length).toBeGreaterThan(1);
    const final = streamed.at(-1)!;
    expect(final.partial).toBeUndefined();
    expect(final.content.parts[0].text).toBe(partials.map((event) => event.content.parts[0].text).join(""));

    const plain = sseEvents(await (await call("/run_sse", { json: { appName: "shop", userId: "u1", sessionId: id, newMessage: message("hello") } })).text());
    expect(plain.every((event) => !event.partial)).toBe(true);
    const session = (await (await call(`/apps/shop/users/u1/sessions/${id}`)).json()) as Record<string, any>;
    expect(session.events).toHaveLength(4);
  });

  it("pauses for a confirmation, runs the tool once approved, and refuses a replayed or forged answer", async () => {
    const { call, createSession } = await exampleApi();
    const { id } = await createSession();
    const run = (newMessage: unknown) => call("/run", { json: { appName: "shop", userId: "u1", sessionId: id, newMessage } });
    const first = (await (await run(message("refund A-17 120"))).json()) as Record<string, any>[];
    const request = first.flatMap((event) => event.content.parts).find((part) => part.functionCall?.name === REQUEST_CONFIRMATION).functionCall;
    expect(request.args.originalFunctionCall).toMatchObject({ name: "issue_refund", args: { orderId: "A-17", amount: 120 } });

    const forged = await run({ role: "user", parts: [{ functionResponse: { id: "adk-forged", name: REQUEST_CONFIRMATION, response: { confirmed: true } } }] });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ code: "UNKNOWN_FUNCTION_CALL" });

    const answer = { role: "user", parts: [{ functionResponse: { id: request.id, name: REQUEST_CONFIRMATION, response: { confirmed: true } } }] };
    const second = (await (await run(answer)).json()) as Record<string, any>[];
    expect(second[0]!.content.parts[0].functionResponse.response).toEqual({ status: "refunded", orderId: "A-17", amount: 120 });
    const stored = (await (await call(`/apps/shop/users/u1/sessions/${id}`)).json()) as Record<string, any>;

    const replayed = await run(answer);
    expect(replayed.status).toBe(409);
    expect(await replayed.json()).toMatchObject({ code: "REQUEST_ALREADY_ANSWERED" });
    const after = (await (await call(`/apps/shop/users/u1/sessions/${id}`)).json()) as Record<string, any>;
    expect(after.events).toHaveLength(stored.events.length);
  });

  it("records a trace per event and per session for the dev UI", async () => {
    const { call, createSession } = await exampleApi();
    const { id } = await createSession();
    const events = (await (await call("/run", { json: { appName: "shop", userId: "u1", sessionId: id, newMessage: message("order A-1") } })).json()) as Record<string, any>[];
    const spans = (await (await call(`/dev/apps/shop/debug/trace/session/${id}`)).json()) as Record<string, any>[];
    expect(spans.map((span) => span.name)).toEqual(["invocation", "invoke_agent shop_assistant", expect.stringMatching(/^chat /), "execute_tool lookup_order", expect.stringMatching(/^chat /)]);
    expect(await (await call(`/debug/trace/${events[1]!.id}`)).json()).toMatchObject({ "gcp.vertex.agent.event_id": events[1]!.id });
    expect((await call("/debug/trace/unknown")).status).toBe(404);
    expect(await (await call("/dev/apps/shop/build_graph")).json()).toMatchObject({ name: "shop", root_agent: { name: "shop_assistant", tools: [{ name: "lookup_order" }, { name: "issue_refund" }, { name: "ask_manager" }, { name: "loyalty_points" }] } });
  });
});

describe("HTTP API: artifacts", () => {
  it("lists artifacts, loads the latest and a version, lists versions and deletes", async () => {
    const { call, createSession } = await exampleApi();
    const { id } = await createSession();
    await call("/run", { json: { appName: "shop", userId: "u1", sessionId: id, newMessage: message("order A-17") } });
    await call("/run", { json: { appName: "shop", userId: "u1", sessionId: id, newMessage: message("order A-17") } });
    const base = `/apps/shop/users/u1/sessions/${id}/artifacts`;
    expect(await (await call(base)).json()).toEqual(["order-photo.png", "receipt-A-17.txt"]);
    expect(await (await call(`${base}/receipt-A-17.txt`)).json()).toEqual({ text: "Receipt for order A-17: 1 teapot, 120 EUR." });
    expect(await (await call(`${base}/order-photo.png/versions`)).json()).toEqual([0, 1]);
    expect(await (await call(`${base}/order-photo.png/versions/0`)).json()).toMatchObject({ inlineData: { mimeType: "image/png" } });
    expect((await call(`${base}/order-photo.png/versions/7`)).status).toBe(404);
    expect((await call(`${base}/order-photo.png`, { method: "DELETE" })).status).toBe(204);
    expect(await (await call(base)).json()).toEqual(["receipt-A-17.txt"]);
    expect((await call(`/apps/shop/users/u1/sessions/missing/artifacts`)).status).toBe(404);
  });
});
