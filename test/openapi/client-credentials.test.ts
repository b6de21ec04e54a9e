import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InMemoryRunner, LlmAgent, type Event } from "../../src/index.js";
import { OpenAPIToolset } from "../../src/openapi/index.js";
import { functionCallsResponse, ScriptedModel, textResponse } from "../../src/testing/index.js";
import { TokenServer } from "../auth/token-server.js";
import { createToolContext } from "../support/tool-context.js";
import { OK_RESPONSES, recording, toolsOf } from "./openapi-kit.js";

/**
 * OAuth 2's client-credentials grant in OpenAPI toolsets, against a real token endpoint and a real API server on
 * 127.0.0.1: the toolset gets tokens with the client's own credentials, keeps them while they last, shares one
 * request among calls, and never lets the secret or a token into what the session stores.
 */
let tokenServer: TokenServer;
let issued = 0;
beforeEach(async () => {
  tokenServer = new TokenServer();
  issued = 0;
  tokenServer.answer = () => ({ body: { access_token: `token-${++issued}`, token_type: "Bearer", expires_in: 3600 } });
  await tokenServer.start();
});
afterEach(() => tokenServer.stop());

/** A document whose operations need the `machine` scheme's client-credentials flow, with the scopes given per operation. */
function machineDocument(tokenUrl: string, scopesByOperation: Record<string, string[]>, flows?: Record<string, unknown>) {
  const paths: Record<string, unknown> = {};
  for (const [operationId, scopes] of Object.entries(scopesByOperation)) paths[`/${operationId}`] = { get: { operationId, security: [{ machine: scopes }], responses: OK_RESPONSES } };
  return {
    openapi: "3.1.0",
    info: { title: "Machine API", version: "1" },
    paths,
    components: { securitySchemes: { machine: { type: "oauth2", flows: flows ?? { clientCredentials: { tokenUrl, scopes: { "reports:read": "Read reports", "reports:write": "Write reports" } } } } } },
  };
}

const client = { clientId: "reporting-bot", clientSecret: "s3cret/with:odd chars" };

describe("OpenAPI toolsets with OAuth 2 client credentials", () => {
  it("gets a token with the client's credentials and the operation's scopes, sends it as a bearer token, and keeps it for the next call", async () => {
    const api = await recording();
    const tools = await toolsOf(new OpenAPIToolset({ document: machineDocument(tokenServer.tokenUrl, { listReports: ["reports:read"] }), baseUrl: api.url, credentials: { machine: client } }));
    const context = await createToolContext();
    await tools.listReports!.run({}, context);
    await tools.listReports!.run({}, context);
    expect(tokenServer.requests).toHaveLength(1);
    const form = tokenServer.last();
    expect(Object.fromEntries(form)).toEqual({ grant_type: "client_credentials", client_id: "reporting-bot", client_secret: "s3cret/with:odd chars", scope: "reports:read" });
    expect(tokenServer.requests[0]!.headers.authorization).toBeUndefined();
    expect(api.requests.map((request) => request.headers.authorization)).toEqual(["Bearer token-1", "Bearer token-1"]);
  });

  it("sends the credentials as HTTP Basic, form-encoded first, when clientAuthMethod is client_secret_basic", async () => {
    const api = await recording();
    const tools = await toolsOf(new OpenAPIToolset({ document: machineDocument(tokenServer.tokenUrl, { listReports: [] }), baseUrl: api.url, credentials: { machine: { ...client, clientAuthMethod: "client_secret_basic" } } }));
    await tools.listReports!.run({}, await createToolContext());
    const request = tokenServer.requests[0]!;
    expect(Object.fromEntries(request.form)).toEqual({ grant_type: "client_credentials" });
    const [id, secret] = Buffer.from(request.headers.authorization!.replace(/^Basic /, ""), "base64").toString("utf8").split(":");
    expect([id, secret]).toEqual(["reporting-bot", "s3cret%2Fwith%3Aodd+chars"]);
    expect(decodeURIComponent(secret!.replace(/\+/g, " "))).toBe(client.clientSecret);
  });

  it("adds the token parameters a server asks for, a scope among them replacing the operation's", async () => {
    const api = await recording();
    const credentials = { machine: { ...client, tokenParameters: { audience: "https://reports.example", scope: "api://reports/.default" } } };
    const tools = await toolsOf(new OpenAPIToolset({ document: machineDocument(tokenServer.tokenUrl, { listReports: ["reports:read"] }), baseUrl: api.url, credentials }));
    await tools.listReports!.run({}, await createToolContext());
    expect(tokenServer.last().get("audience")).toBe("https://reports.example");
    expect(tokenServer.last().get("scope")).toBe("api://reports/.default");
  });

  it("asks once for the token 50 calls in one model response need, and once per set of scopes", async () => {
    const api = await recording();
    tokenServer.answer = () => ({ body: { access_token: `token-${++issued}`, expires_in: 3600 }, delayMs: 50 });
    const toolset = new OpenAPIToolset({ document: machineDocument(tokenServer.tokenUrl, { listReports: ["reports:read"], writeReport: ["reports:write", "reports:read"] }), baseUrl: api.url, credentials: { machine: client } });
    const calls = [...Array.from({ length: 25 }, () => ({ name: "listReports", args: {} })), ...Array.from({ length: 25 }, () => ({ name: "writeReport", args: {} }))];
    const model = new ScriptedModel([functionCallsResponse(...calls), textResponse("done")]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "reporter", model, tools: [toolset] }) });
    const session = await runner.sessionService.createSession({ appName: "InMemoryRunner", userId: "u" });
    for await (const _event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Go." }] } }));
    const scopes = tokenServer.requests.map((request) => request.form.get("scope")).sort();
    console.log(`client credentials: 50 concurrent calls needing two scope sets made ${tokenServer.requests.length} token requests; the API got ${api.requests.length} requests`);
    expect(scopes).toEqual(["reports:read", "reports:write reports:read"]);
    expect(api.requests).toHaveLength(50);
    expect(new Set(api.requests.map((request) => request.headers.authorization)).size).toBe(2);
  });

  it("asks again once a token is within a minute of expiring", async () => {
    const api = await recording();
    tokenServer.answer = () => ({ body: { access_token: `token-${++issued}`, expires_in: 45 } });
    const tools = await toolsOf(new OpenAPIToolset({ document: machineDocument(tokenServer.tokenUrl, { listReports: [] }), baseUrl: api.url, credentials: { machine: client } }));
    const context = await createToolContext();
    await tools.listReports!.run({}, context);
    await tools.listReports!.run({}, context);
    expect(api.requests.map((request) => request.headers.authorization)).toEqual(["Bearer token-1", "Bearer token-2"]);
  });

  it("answers the model with the token endpoint's refusal, calls no API, and asks again at the next call", async () => {
    const api = await recording();
    tokenServer.answer = () => ({ status: 401, body: { error: "invalid_client" } });
    const tools = await toolsOf(new OpenAPIToolset({ document: machineDocument(tokenServer.tokenUrl, { listReports: [] }), baseUrl: api.url, credentials: { machine: client } }));
    const context = await createToolContext();
    const result = (await tools.listReports!.run({}, context)) as { status: string; error: string };
    expect(result.status).toBe("error");
    expect(result.error).toContain('Tool "listReports" could not get an access token for machine: The token endpoint');
    expect(result.error).toContain("answered 401");
    expect(result.error).toContain("clientAuthMethod");
    expect(result.error).not.toContain(client.clientSecret);
    expect(api.requests).toHaveLength(0);
    tokenServer.answer = () => ({ body: { access_token: "token-after", expires_in: 3600 } });
    await tools.listReports!.run({}, context);
    expect(tokenServer.requests).toHaveLength(2);
    expect(api.requests[0]!.headers.authorization).toBe("Bearer token-after");
  });

  it("forgets a token the API refuses with 401, so the next call gets a new one", async () => {
    let refuse = true;
    const api = await recording(() => (refuse ? { status: 401, body: { error: "token revoked" } } : { status: 200, body: { ok: true } }));
    const tools = await toolsOf(new OpenAPIToolset({ document: machineDocument(tokenServer.tokenUrl, { listReports: [] }), baseUrl: api.url, credentials: { machine: client } }));
    const context = await createToolContext();
    expect(await tools.listReports!.run({}, context)).toMatchObject({ status: "error", httpStatus: 401 });
    refuse = false;
    expect(await tools.listReports!.run({}, context)).toEqual({ ok: true });
    expect(api.requests.map((request) => request.headers.authorization)).toEqual(["Bearer token-1", "Bearer token-2"]);
  });

  it("resolves a relative tokenUrl against the API's address", async () => {
    const api = await recording((request) => (request.url === "/oauth/token" ? { status: 200, body: { access_token: "relative-token", expires_in: 3600 } } : { status: 200, body: {} }));
    const tools = await toolsOf(new OpenAPIToolset({ document: machineDocument("/oauth/token", { listReports: [] }), baseUrl: api.url, credentials: { machine: client } }));
    await tools.listReports!.run({}, await createToolContext());
    expect(api.requests.map((request) => `${request.method} ${request.url}`)).toEqual(["POST /oauth/token", "GET /listReports"]);
    expect(api.requests[1]!.headers.authorization).toBe("Bearer relative-token");
  });

  it("does not use client credentials for a scheme without a client-credentials flow: the model is told none is configured", async () => {
    const api = await recording();
    const document = machineDocument(tokenServer.tokenUrl, { listReports: [] }, { authorizationCode: { authorizationUrl: "https://auth.example/authorize", tokenUrl: tokenServer.tokenUrl, scopes: {} } });
    const tools = await toolsOf(new OpenAPIToolset({ document, baseUrl: api.url, credentials: { machine: client } }));
    const context = await createToolContext();
    const result = await tools.listReports!.run({}, context);
    // An authorization-code scheme asks the user to sign in instead; no token is requested with the client's secret.
    expect(result).toMatchObject({ status: "pending" });
    expect(tokenServer.requests).toHaveLength(0);
    expect(api.requests).toHaveLength(0);
  });

  it("keeps the client's secret and the tokens out of every stored event", async () => {
    const api = await recording();
    const toolset = new OpenAPIToolset({ document: machineDocument(tokenServer.tokenUrl, { listReports: ["reports:read"] }), baseUrl: api.url, credentials: { machine: client } });
    const model = new ScriptedModel([functionCallsResponse({ name: "listReports", args: {} }), textResponse("Here are the reports.")]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "reporter", model, tools: [toolset] }) });
    const session = await runner.sessionService.createSession({ appName: "InMemoryRunner", userId: "u" });
    const events: Event[] = [];
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Reports?" }] } })) events.push(event);
    const stored = JSON.stringify(await runner.sessionService.getSession({ appName: "InMemoryRunner", userId: "u", sessionId: session.id }));
    expect(api.requests[0]!.headers.authorization).toBe("Bearer token-1");
    for (const secret of [client.clientSecret, "token-1"]) {
      expect(stored).not.toContain(secret);
      expect(JSON.stringify(events)).not.toContain(secret);
    }
  });
});
