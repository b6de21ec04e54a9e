import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CredentialCipher, getFunctionResponses, InMemoryCredentialService, LlmAgent, REQUEST_CREDENTIAL, Runner, State, type AuthConfig, type Event } from "../../src/index.js";
import { MCPToolset } from "../../src/mcp/index.js";
import { SqliteCredentialService, SqliteSessionService } from "../../src/sqlite/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { createReadonlyContext, createToolContext } from "../support/tool-context.js";
import { startProtectedMcpServer, type ProtectedMcpServer } from "./protected-mcp-server.js";

// An MCP server behind OAuth with a real authorization server (see protected-mcp-server.ts).
let protectedServer: ProtectedMcpServer;
let authServer: ProtectedMcpServer["authServer"];
let mcpUrl = "";
let seenTokens: string[] = [];

beforeAll(async () => {
  protectedServer = await startProtectedMcpServer();
  ({ authServer, mcpUrl, seenTokens } = protectedServer);
});

afterAll(() => protectedServer.close());

function credentialRequestOf(events: readonly Event[]) {
  return events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === REQUEST_CREDENTIAL)?.functionCall;
}

/** The person signs in: the authorization server sends their browser back to the redirect URI with a code. */
async function signIn(authUri: string): Promise<string> {
  const response = await fetch(authUri, { redirect: "manual" });
  return response.headers.get("location")!;
}

describe("MCPToolset against an MCP server behind OAuth", () => {
  it("pauses the run for the person to sign in, resumes with their redirect, and keeps the tokens in the credential service only", async () => {
    const credentialService = new InMemoryCredentialService();
    const plans = new MCPToolset({ connection: { type: "http", url: mcpUrl, auth: { clientId: "toolsmith-test", redirectUri: "http://localhost:8000/callback", credentialService } } });
    const model = new ScriptedModel([
      functionCallsResponse({ name: "mcp_sign_in", args: {} }),
      functionCallsResponse({ name: "secret_plans", args: {} }),
      textResponse("Launch is on Tuesday."),
      functionCallsResponse({ name: "secret_plans", args: {} }),
      textResponse("Still Tuesday."),
    ]);
    const runner = new Runner({ appName: "plans", agent: new LlmAgent({ name: "planner", model, tools: [plans] }), credentialService });
    try {
      const session = await runner.sessionService.createSession({ appName: "plans", userId: "ada" });
      const paused = await collect(runner.runAsync({ userId: "ada", sessionId: session.id, newMessage: userMessage("what are the plans?") }));
      expect(model.requests[0]!.functionDeclarations.map((declaration) => declaration.name)).toEqual(["mcp_sign_in"]);
      const request = credentialRequestOf(paused)!;
      const sent = request.args!.authConfig as AuthConfig;
      const authUri = new URL(sent.exchangedAuthCredential!.oauth2!.authUri!);
      expect(authUri.origin).toBe(new URL(authServer.issuer.url!).origin);
      expect(authUri.searchParams.get("code_challenge_method")).toBe("S256");
      expect(authUri.searchParams.get("client_id")).toBe("toolsmith-test");
      expect(authUri.searchParams.get("resource")).toBe(mcpUrl);

      const authResponseUri = await signIn(authUri.toString());
      const answer = { ...sent, exchangedAuthCredential: { authType: "oauth2", oauth2: { ...sent.exchangedAuthCredential!.oauth2, authResponseUri } } };
      const resumed = await collect(
        runner.runAsync({ userId: "ada", sessionId: session.id, newMessage: { role: "user", parts: [{ functionResponse: { id: request.id, name: REQUEST_CREDENTIAL, response: answer } }] } }),
      );
      const responses = resumed.flatMap((event) => getFunctionResponses(event.content)).map((response) => response.response);
      expect(responses).toEqual([expect.objectContaining({ status: "success" }), { text: "Launch on Tuesday." }]);

      // The token reached the server, lives in the credential service, and is in no stored event.
      const token = seenTokens.at(-1)!;
      const credentialKey = `mcp_oauth_${createHash("sha256").update(mcpUrl).digest("base64url").slice(0, 16)}`;
      const stored = await credentialService.loadCredential({ context: { appName: "plans", userId: "ada", state: new State({}, {}) }, credentialKey });
      expect(stored?.oauth2?.accessToken).toBe(token);
      const storedSession = await runner.sessionService.getSession({ appName: "plans", userId: "ada", sessionId: session.id });
      expect(JSON.stringify(storedSession)).not.toContain(token);

      // The user's next session reuses the tokens: no sign-in.
      const next = await runner.sessionService.createSession({ appName: "plans", userId: "ada" });
      const again = await collect(runner.runAsync({ userId: "ada", sessionId: next.id, newMessage: userMessage("plans again?") }));
      expect(credentialRequestOf(again)).toBeUndefined();
      expect(again.flatMap((event) => getFunctionResponses(event.content)).map((response) => response.response)).toEqual([{ text: "Launch on Tuesday." }]);
    } finally {
      await runner.close();
    }
  });

  it("refuses a redirect whose state was not issued for this sign-in, and stores no token", async () => {
    const credentialService = new InMemoryCredentialService();
    const plans = new MCPToolset({ connection: { type: "http", url: mcpUrl, auth: { clientId: "toolsmith-test", credentialService } } });
    try {
      const [signInTool] = await plans.getTools(await createReadonlyContext());
      const context = await createToolContext();
      expect(await signInTool!.run({}, context)).toMatchObject({ status: "pending" });
      const requested = Object.values(context.actions.requestedAuthConfigs)[0]!;
      const forged = (await signIn(requested.exchangedAuthCredential!.oauth2!.authUri!)).replace(/state=[^&]+/, "state=forged");
      context.state.set(`temp:${requested.credentialKey}`, { authType: "oauth2", oauth2: { authResponseUri: forged } });
      await expect(signInTool!.run({}, context)).rejects.toThrow("The sign-in redirect carries another state than the one issued for this user; it is refused. Ask the user to sign in again.");
      expect(await credentialService.loadCredential({ context, credentialKey: requested.credentialKey! })).toBeUndefined();
    } finally {
      await plans.close();
    }
  });

  it("refuses a redirect that reports a denial or carries no code, with the message the user sees", async () => {
    const plans = new MCPToolset({ connection: { type: "http", url: mcpUrl, auth: { clientId: "toolsmith-test" } } });
    try {
      const [signInTool] = await plans.getTools(await createReadonlyContext());
      const cases: [(redirect: URL) => void, string][] = [
        [(redirect) => redirect.searchParams.set("error", "access_denied"), "Sign-in to the MCP server was not completed: access_denied. Ask the user to sign in again."],
        [(redirect) => redirect.searchParams.delete("code"), "The sign-in redirect has no authorization code. Send the full redirect URL as exchangedAuthCredential.oauth2.authResponseUri."],
      ];
      for (const [tamper, message] of cases) {
        const context = await createToolContext();
        expect(await signInTool!.run({}, context)).toMatchObject({ status: "pending" });
        const requested = Object.values(context.actions.requestedAuthConfigs)[0]!;
        const redirect = new URL(await signIn(requested.exchangedAuthCredential!.oauth2!.authUri!));
        tamper(redirect);
        context.state.set(`temp:${requested.credentialKey}`, { authType: "oauth2", oauth2: { authResponseUri: redirect.toString() } });
        await expect(signInTool!.run({}, context)).rejects.toThrow(message);
      }
    } finally {
      await plans.close();
    }
  });

  it("outside a run and without authorize, says how to sign in instead of hanging", async () => {
    const plans = new MCPToolset({ connection: { type: "http", url: mcpUrl, auth: { clientId: "toolsmith-test" } } });
    try {
      await expect(plans.listPrompts()).rejects.toThrow(
        `The MCP server ${mcpUrl} needs sign-in. Use its tools from an agent's run (the run pauses for the user to sign in), or give auth.authorize to sign in from code.`,
      );
      expect((await plans.getTools(await createReadonlyContext())).map((tool) => tool.name)).toEqual(["mcp_sign_in"]);
    } finally {
      await plans.close();
    }
  });

  it("ends the run with OAUTH2_INVALID_URL, asking no one to sign in, when the authorization server's endpoint is not http(s)", async () => {
    // The SDK refuses javascript:, data: and vbscript: endpoints itself; a file: one it lets through.
    const hostile = await startProtectedMcpServer({ authorizationEndpoint: "file:///etc/passwd" });
    const credentialService = new InMemoryCredentialService();
    const plans = new MCPToolset({ connection: { type: "http", url: hostile.mcpUrl, auth: { clientId: "toolsmith-test", redirectUri: "http://localhost:8000/callback", credentialService } } });
    const runner = new Runner({ appName: "plans", agent: new LlmAgent({ name: "planner", model: new ScriptedModel([textResponse("unused")]), tools: [plans] }), credentialService });
    try {
      const session = await runner.sessionService.createSession({ appName: "plans", userId: "ada" });
      const events = await collect(runner.runAsync({ userId: "ada", sessionId: session.id, newMessage: userMessage("what are the plans?") }));
      expect(credentialRequestOf(events)).toBeUndefined();
      expect(events.at(-1)).toMatchObject({
        errorCode: "OAUTH2_INVALID_URL",
        errorMessage: "The sign-in address is a file: URL, not http or https, so no one is sent there. It came from the MCP server's authorization server (its authorization_endpoint): ask the server's operator to fix its metadata.",
      });
    } finally {
      await plans.close();
      await hostile.close();
    }
  });

  it("asks the run's user to sign in when a listing outside any run (the web UI's tool list) is under way on the shared connection", async () => {
    const credentialService = new InMemoryCredentialService();
    const plans = new MCPToolset({ connection: { type: "http", url: mcpUrl, auth: { clientId: "toolsmith-test", credentialService } } });
    const model = new ScriptedModel([functionCallsResponse({ name: "mcp_sign_in", args: {} })]);
    const runner = new Runner({ appName: "plans", agent: new LlmAgent({ name: "planner", model, tools: [plans] }), credentialService });
    try {
      const session = await runner.sessionService.createSession({ appName: "plans", userId: "ada" });
      // Not awaited: the run joins this listing's connection while the server is refusing it.
      const listing = plans.getTools();
      const paused = await collect(runner.runAsync({ userId: "ada", sessionId: session.id, newMessage: userMessage("what are the plans?") }));
      expect(paused.map((event) => event.errorCode).filter(Boolean)).toEqual([]);
      expect(model.requests[0]!.functionDeclarations.map((declaration) => declaration.name)).toEqual(["mcp_sign_in"]);
      const requested = credentialRequestOf(paused)!.args!.authConfig as AuthConfig;
      expect(new URL(requested.exchangedAuthCredential!.oauth2!.authUri!).searchParams.get("state")).toBe(requested.exchangedAuthCredential!.oauth2!.state);
      expect((await listing).map((tool) => tool.name)).toEqual(["mcp_sign_in"]);
    } finally {
      await runner.close();
    }
  });

  it("gives two users signing in at once each their own sign-in, and each finishes with tokens stored for that user", async () => {
    const credentialService = new InMemoryCredentialService();
    const plans = new MCPToolset({ connection: { type: "http", url: mcpUrl, auth: { clientId: "toolsmith-test", credentialService } } });
    const contexts = await Promise.all(["ada", "grace"].map((userId) => createToolContext({ userId })));
    try {
      const [signInTool] = await plans.getTools(await createReadonlyContext());
      // Both calls meet the server's refusal on one shared connection; each must come back asking its own user.
      const results = await Promise.all(contexts.map((context) => signInTool!.run({}, context)));
      expect(results).toEqual([expect.objectContaining({ status: "pending" }), expect.objectContaining({ status: "pending" })]);
      const requests = contexts.map((context) => Object.values(context.actions.requestedAuthConfigs)[0]!);
      const states = requests.map((request) => request.exchangedAuthCredential!.oauth2!.state);
      expect(new Set(states).size).toBe(2);
      for (const [index, context] of contexts.entries()) {
        const authResponseUri = await signIn(requests[index]!.exchangedAuthCredential!.oauth2!.authUri!);
        context.state.set(`temp:${requests[index]!.credentialKey}`, { authType: "oauth2", oauth2: { authResponseUri } });
        expect(await signInTool!.run({}, context)).toMatchObject({ status: "success" });
      }
      const tokens = await Promise.all(contexts.map(async (context) => (await credentialService.loadCredential({ context, credentialKey: requests[0]!.credentialKey! }))?.oauth2?.accessToken));
      // Stored under each user (the authorization server may sign both alike within one second).
      expect(tokens.map((token) => typeof token)).toEqual(["string", "string"]);
    } finally {
      await plans.close();
    }
  });

  it("signs in from code with the authorize option, outside any run", async () => {
    const plans = new MCPToolset({ connection: { type: "http", url: mcpUrl, auth: { clientId: "toolsmith-test", authorize: async (url) => signIn(url.toString()) } } });
    try {
      const tools = await plans.getTools(await createReadonlyContext());
      expect(tools.map((tool) => tool.name)).toEqual(["secret_plans"]);
      expect(await tools[0]!.run({}, await createToolContext())).toEqual({ text: "Launch on Tuesday." });
    } finally {
      await plans.close();
    }
  });
});

describe("a pending MCP sign-in across a restart", () => {
  it("is finished by a restarted app: the state and PKCE verifier were stored (encrypted) in the credential service, not in memory", async () => {
    const folder = mkdtempSync(join(tmpdir(), "toolsmith-mcp-oauth-restart-"));
    const path = join(folder, "app.db");
    const cipher = new CredentialCipher(randomBytes(32));
    /** One "process": its own services over the same SQLite file, its own toolset, runner and model. */
    const start = (model: ScriptedModel) => {
      const credentialService = new SqliteCredentialService({ path, cipher });
      const sessionService = new SqliteSessionService({ path });
      const plans = new MCPToolset({ connection: { type: "http", url: mcpUrl, auth: { clientId: "toolsmith-test", redirectUri: "http://localhost:8000/callback", credentialService } } });
      const runner = new Runner({ appName: "plans", agent: new LlmAgent({ name: "planner", model, tools: [plans] }), sessionService, credentialService });
      return { runner, credentialService, sessionService, stop: async () => (await runner.close(), await credentialService.close(), await sessionService.close()) };
    };
    try {
      const before = start(new ScriptedModel([functionCallsResponse({ name: "mcp_sign_in", args: {} })]));
      const session = await before.sessionService.createSession({ appName: "plans", userId: "ada" });
      const paused = await collect(before.runner.runAsync({ userId: "ada", sessionId: session.id, newMessage: userMessage("what are the plans?") }));
      const request = credentialRequestOf(paused)!;
      const sent = request.args!.authConfig as AuthConfig;
      const authUri = new URL(sent.exchangedAuthCredential!.oauth2!.authUri!);
      // What was stored: the verifier whose S256 challenge the sign-in URL carries, and the state; the file holds neither in the clear.
      const scope = { appName: "plans", userId: "ada", state: new State({}, {}) };
      const stored = (await before.credentialService.loadCredential({ context: scope, credentialKey: `${sent.credentialKey}_pending` }))!.oauth2!;
      expect(createHash("sha256").update(stored.codeVerifier!).digest("base64url")).toBe(authUri.searchParams.get("code_challenge"));
      expect(stored.state).toBe(authUri.searchParams.get("state"));
      await before.stop();
      const file = readFileSync(path);
      expect(file.includes(stored.codeVerifier!)).toBe(false);

      // The person signs in while the app is down; the restarted app gets their redirect.
      const authResponseUri = await signIn(authUri.toString());
      const after = start(new ScriptedModel([functionCallsResponse({ name: "secret_plans", args: {} }), textResponse("Launch is on Tuesday.")]));
      try {
        const answer = { ...sent, exchangedAuthCredential: { authType: "oauth2", oauth2: { ...sent.exchangedAuthCredential!.oauth2, authResponseUri } } };
        const resumed = await collect(
          after.runner.runAsync({ userId: "ada", sessionId: session.id, newMessage: { role: "user", parts: [{ functionResponse: { id: request.id, name: REQUEST_CREDENTIAL, response: answer } }] } }),
        );
        const responses = resumed.flatMap((event) => getFunctionResponses(event.content)).map((response) => response.response);
        console.log(`after a restart, the resumed sign-in answered: ${JSON.stringify(responses)}`);
        expect(responses).toEqual([expect.objectContaining({ status: "success" }), { text: "Launch on Tuesday." }]);
        const token = (await after.credentialService.loadCredential({ context: scope, credentialKey: sent.credentialKey! }))!.oauth2!.accessToken;
        expect(seenTokens.at(-1)).toBe(token);
        // Used once: the stored sign-in is emptied, so the same redirect cannot be exchanged again.
        expect((await after.credentialService.loadCredential({ context: scope, credentialKey: `${sent.credentialKey}_pending` }))!.oauth2).toEqual({});
      } finally {
        await after.stop();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
