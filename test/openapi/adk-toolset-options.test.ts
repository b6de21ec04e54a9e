import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as adk from "@google/adk";
import { ConfigurationError, InMemoryRunner, LlmAgent, REQUEST_CREDENTIAL_FUNCTION_CALL_NAME, type AuthConfig, type AuthCredential, type Event } from "../../src/index.js";
import { OpenAPIToolset } from "../../src/openapi/index.js";
import { functionCallsResponse, ScriptedModel, textResponse } from "../../src/testing/index.js";
import { TokenServer } from "../auth/token-server.js";
import { createToolContext } from "../support/tool-context.js";
import { OK_RESPONSES, recording, toolsOf } from "./openapi-kit.js";
import { call, runOn, runTurn, text, type Framework } from "../adk-compat/side-by-side.js";

/**
 * ADK's `OpenAPIToolset` options on toolsmith's toolset: the document as `specDict` or `specStr`, one `authScheme`
 * with its `authCredential` for every operation, and `headerProvider`. Compared with ADK's toolset sending to the
 * same recording server; every option toolsmith would not use is refused by name (before, `authScheme` and
 * `authCredential` were passed over in silence, and requests went out without the credential).
 */
const document = (serverUrl: string) => ({
  openapi: "3.0.3",
  info: { title: "Reports", version: "1" },
  servers: [{ url: serverUrl }],
  paths: {
    "/reports": { get: { operationId: "listReports", parameters: [{ name: "limit", in: "query", schema: { type: "integer" } }], responses: OK_RESPONSES } },
    "/public": { get: { operationId: "status", security: [], responses: OK_RESPONSES } },
  },
});

let tokenServer: TokenServer;
beforeEach(async () => {
  tokenServer = new TokenServer();
  await tokenServer.start();
});
afterEach(() => tokenServer.stop());

describe("ADK's OpenAPIToolset options on toolsmith", () => {
  it("sends an API key from authScheme and authCredential, and headerProvider's headers, with every request, as ADK's toolset does", async () => {
    const api = await recording();
    const options = (f: "adk" | "toolsmith") => ({
      specStr: JSON.stringify(document(api.url)),
      specType: "json" as const,
      authScheme: { type: "apiKey" as const, in: "header" as const, name: "X-Api-Key" },
      authCredential: { authType: (f === "adk" ? adk.AuthCredentialTypes.API_KEY : "apiKey") as "apiKey", apiKey: "key-1" },
      headerProvider: () => ({ "X-Tenant": `tenant-of-${f}` }),
    });
    // Each toolset in an agent of its own framework, the model calling both operations (ADK names them in snake_case).
    const run = (f: "adk" | "toolsmith") =>
      runOn(f, [call(f === "adk" ? "list_reports" : "listReports", { limit: 2 }), call("status"), text("Done.")], async (framework: Framework, model: string) =>
        runTurn(framework, new framework.LlmAgent({ name: "reporter", model, tools: [new (f === "adk" ? (adk.OpenAPIToolset as never as typeof OpenAPIToolset) : OpenAPIToolset)(options(f) as never)] }), "Reports?"),
      );
    await run("adk");
    const adkRequests = api.requests.splice(0);
    await run("toolsmith");
    const summary = (requests: typeof api.requests) => requests.map((request) => ({ url: request.url, key: request.headers["x-api-key"], tenant: String(request.headers["x-tenant"]).replace(/adk|toolsmith/, "…") })).sort((left, right) => left.url.localeCompare(right.url));
    expect(summary(api.requests)).toEqual(summary(adkRequests));
    // ADK applies its authScheme to every operation, even one the document leaves open; so does toolsmith.
    expect(summary(api.requests)).toEqual([
      { url: "/public", key: "key-1", tenant: "tenant-of-…" },
      { url: "/reports?limit=2", key: "key-1", tenant: "tenant-of-…" },
    ]);
  });

  it("reads specDict, and a YAML specStr by specType or by its leading ---", async () => {
    const api = await recording();
    const yaml = `---\nopenapi: 3.0.3\ninfo: { title: Y, version: "1" }\nservers: [{ url: "${api.url}" }]\npaths:\n  /reports:\n    get:\n      operationId: listReports\n      responses: { "200": { description: ok } }\n`;
    for (const options of [{ specDict: document(api.url) }, { specStr: yaml }, { specStr: yaml.replace("---\n", ""), specType: "yaml" as const }]) {
      const tools = await toolsOf(new OpenAPIToolset(options));
      expect(Object.keys(tools)).toContain("listReports");
    }
  });

  it("gets tokens itself for an OAuth 2 client-credentials authScheme given the client's id and secret", async () => {
    const api = await recording();
    tokenServer.answer = () => ({ body: { access_token: "machine-token", expires_in: 3600 } });
    const authScheme = { type: "oauth2" as const, flows: { clientCredentials: { tokenUrl: tokenServer.tokenUrl, scopes: { "reports:read": "Read" } } } };
    const tools = await toolsOf(new OpenAPIToolset({ specDict: document(api.url), authScheme, authCredential: { authType: "oauth2", oauth2: { clientId: "bot", clientSecret: "secret" } } }));
    await tools.listReports!.run({}, await createToolContext());
    expect(Object.fromEntries(tokenServer.last())).toEqual({ grant_type: "client_credentials", client_id: "bot", client_secret: "secret", scope: "reports:read" });
    expect(api.requests[0]!.headers.authorization).toBe("Bearer machine-token");
  });

  it("has the person sign in for an authorization-code authScheme: the run pauses with a sign-in URL, and the call goes on with the token", async () => {
    const api = await recording();
    tokenServer.answer = () => ({ body: { access_token: "user-token", expires_in: 3600, refresh_token: "r" } });
    const authScheme = { type: "oauth2" as const, flows: { authorizationCode: { authorizationUrl: "https://auth.example/authorize", tokenUrl: tokenServer.tokenUrl, scopes: { "reports:read": "Read" } } } };
    const authCredential: AuthCredential = { authType: "oauth2", oauth2: { clientId: "web-app", clientSecret: "s", redirectUri: "https://app.example/callback" } };
    const toolset = new OpenAPIToolset({ specDict: document(api.url), authScheme, authCredential, credentialKey: "reports-oauth" });
    const model = new ScriptedModel([functionCallsResponse({ name: "listReports", args: {} }), textResponse("You have reports.")]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "reporter", model, tools: [toolset] }) });
    const session = await runner.sessionService.createSession({ appName: "InMemoryRunner", userId: "u" });
    const first: Event[] = [];
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "My reports?" }] } })) first.push(event);
    const asked = first.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === REQUEST_CREDENTIAL_FUNCTION_CALL_NAME)!.functionCall!;
    const sent = asked.args!.authConfig as AuthConfig;
    const authUri = new URL(sent.exchangedAuthCredential!.oauth2!.authUri!);
    expect(authUri.origin + authUri.pathname).toBe("https://auth.example/authorize");
    expect(authUri.searchParams.get("client_id")).toBe("web-app");
    expect(authUri.searchParams.get("scope")).toBe("reports:read");
    expect(sent.credentialKey).toBe("reports-oauth");
    expect(JSON.stringify(sent)).not.toContain('"clientSecret":"s"');
    expect(api.requests).toHaveLength(0);
    // The person signs in; the authorization server redirects back with a code and the state it was given.
    const authResponseUri = `https://app.example/callback?code=the-code&state=${authUri.searchParams.get("state")}`;
    const answer = { ...sent, exchangedAuthCredential: { authType: "oauth2", oauth2: { ...sent.exchangedAuthCredential!.oauth2, authResponseUri } } };
    const resumed: Event[] = [];
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ functionResponse: { id: asked.id, name: REQUEST_CREDENTIAL_FUNCTION_CALL_NAME, response: answer } }] } })) resumed.push(event);
    expect(tokenServer.last().get("grant_type")).toBe("authorization_code");
    expect(tokenServer.last().get("code")).toBe("the-code");
    expect(api.requests.map((request) => request.headers.authorization)).toEqual(["Bearer user-token"]);
    expect(resumed.at(-1)!.content!.parts![0]!.text).toBe("You have reports.");
  });

  it("sends no one to a sign-in address that is not http(s): a javascript: authorizationUrl answers the model with an error, and no sign-in is asked", async () => {
    const api = await recording();
    const authScheme = { type: "oauth2" as const, flows: { authorizationCode: { authorizationUrl: "javascript:fetch('/apps').then(alert)//", tokenUrl: tokenServer.tokenUrl, scopes: {} } } };
    const authCredential: AuthCredential = { authType: "oauth2", oauth2: { clientId: "web-app", redirectUri: "https://app.example/callback" } };
    const model = new ScriptedModel([functionCallsResponse({ name: "listReports", args: {} }), textResponse("Cannot.")]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "reporter", model, tools: [new OpenAPIToolset({ specDict: document(api.url), authScheme, authCredential })] }) });
    const session = await runner.sessionService.createSession({ appName: "InMemoryRunner", userId: "u" });
    const events: Event[] = [];
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "My reports?" }] } })) events.push(event);
    const parts = events.flatMap((event) => event.content?.parts ?? []);
    expect(parts.some((part) => part.functionCall?.name === REQUEST_CREDENTIAL_FUNCTION_CALL_NAME)).toBe(false);
    expect(parts.find((part) => part.functionResponse)!.functionResponse!.response).toEqual({
      status: "error",
      error:
        'Tool "listReports" failed: The sign-in address is a javascript: URL, not http or https, so no one is sent there. Fix the scheme\'s authorizationUrl (in the OpenAPI document\'s securitySchemes, or the tool\'s AuthConfig). Check the arguments, or try a different approach.',
    });
    expect(events.at(-1)!.content!.parts![0]!.text).toBe("Cannot.");
    expect(api.requests).toHaveLength(0);
  });

  it("refuses, by name, every option it would not use, and an authCredential that does not fit its authScheme", () => {
    const specDict = document("http://127.0.0.1:9");
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ specDict, retries: 3 }, 'OpenAPIToolset has no option "retries"'],
      [{ specDict, preservePropertyNames: false }, "OpenAPIToolset's preservePropertyNames is not supported by toolsmith: toolsmith always keeps the document's parameter names."],
      [{ specDict, document: specDict }, "OpenAPIToolset got document and specDict: give the document once."],
      [{ specStr: "openapi: 3.0.3", specType: "json" }, "OpenAPIToolset's specStr is not JSON"],
      [{ specDict, specType: "xml" }, 'specType is "json" or "yaml"'],
      [{ specDict, authCredential: { authType: "apiKey", apiKey: "k" } }, "authCredential without authScheme"],
      [{ specDict, authScheme: { type: "apiKey", in: "header", name: "K" }, authCredential: { authType: "oauth2", oauth2: { accessToken: "t" } } }, 'authType "oauth2" cannot be used with an authScheme of type "apiKey"'],
      [{ specDict, authScheme: { type: "http", scheme: "basic" }, authCredential: { authType: "http", http: { scheme: "basic", credentials: { username: "u" } } } }, "lacks http.credentials.username or password"],
      [{ specDict, authScheme: { type: "oauth2", flows: {} }, authCredential: { authType: "serviceAccount" } }, 'authType "serviceAccount" is not supported by toolsmith'],
    ];
    for (const [options, message] of cases) {
      expect(() => new OpenAPIToolset(options as never), message).toThrow(ConfigurationError);
      expect(() => new OpenAPIToolset(options as never)).toThrow(message);
    }
    expect(() => new OpenAPIToolset({ specDict, preservePropertyNames: true })).not.toThrow();
  });

  it("sends an HTTP bearer or basic credential given ADK's way", async () => {
    const api = await recording();
    const bearer = await toolsOf(new OpenAPIToolset({ specDict: document(api.url), authScheme: { type: "http", scheme: "bearer" }, authCredential: { authType: "http", http: { scheme: "bearer", credentials: { token: "tok" } } } }));
    const basic = await toolsOf(new OpenAPIToolset({ specDict: document(api.url), authScheme: { type: "http", scheme: "basic" }, authCredential: { authType: "http", http: { scheme: "basic", credentials: { username: "ada", password: "pw" } } } }));
    const context = await createToolContext();
    await bearer.listReports!.run({}, context);
    await basic.listReports!.run({}, context);
    expect(api.requests.map((request) => request.headers.authorization)).toEqual(["Bearer tok", `Basic ${Buffer.from("ada:pw").toString("base64")}`]);
  });
});
