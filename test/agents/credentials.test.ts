import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FunctionTool,
  LlmAgent,
  createEvent,
  REQUEST_CREDENTIAL,
  Runner,
  StateCredentialService,
  type AuthConfig,
  type AuthCredential,
  type Event,
} from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { withoutCredentialSecrets } from "../../src/pause/client-requests.js";

/** A small OAuth 2 authorization server: authorization code with PKCE (S256), refresh tokens, short-lived access tokens. */
class OAuthServer {
  server!: Server;
  url = "";
  readonly codes = new Map<string, { challenge: string; redirectUri: string; clientId: string }>();
  readonly refreshTokens = new Set<string>();
  readonly accessTokens = new Map<string, number>();
  readonly tokenRequests: URLSearchParams[] = [];
  expiresIn = 3600;

  async start() {
    this.server = createServer((request, response) => {
      const url = new URL(request.url!, this.url);
      if (url.pathname === "/authorize") {
        if (url.searchParams.get("code_challenge_method") !== "S256") return response.writeHead(400).end("PKCE required");
        const code = randomBytes(8).toString("hex");
        this.codes.set(code, { challenge: url.searchParams.get("code_challenge")!, redirectUri: url.searchParams.get("redirect_uri")!, clientId: url.searchParams.get("client_id")! });
        const redirect = new URL(url.searchParams.get("redirect_uri")!);
        redirect.searchParams.set("code", code);
        redirect.searchParams.set("state", url.searchParams.get("state")!);
        return response.writeHead(302, { location: redirect.toString() }).end();
      }
      if (url.pathname === "/token") {
        let body = "";
        request.on("data", (chunk) => (body += chunk));
        request.on("end", () => {
          const form = new URLSearchParams(body);
          this.tokenRequests.push(form);
          const issue = () => {
            const accessToken = randomBytes(8).toString("hex");
            const refreshToken = randomBytes(8).toString("hex");
            this.accessTokens.set(accessToken, Date.now() + this.expiresIn * 1000);
            this.refreshTokens.add(refreshToken);
            response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ access_token: accessToken, refresh_token: refreshToken, expires_in: this.expiresIn, token_type: "Bearer" }));
          };
          if (form.get("grant_type") === "authorization_code") {
            const grant = this.codes.get(form.get("code") ?? "");
            const verifier = form.get("code_verifier") ?? "";
            if (!grant || createHash("sha256").update(verifier).digest("base64url") !== grant.challenge || grant.redirectUri !== form.get("redirect_uri")) {
              return response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_grant" }));
            }
            this.codes.delete(form.get("code")!);
            return issue();
          }
          if (form.get("grant_type") === "refresh_token" && this.refreshTokens.delete(form.get("refresh_token") ?? "")) return issue();
          response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_grant" }));
        });
        return;
      }
      if (url.pathname === "/me") {
        const token = (request.headers.authorization ?? "").replace(/^Bearer /, "");
        const expires = this.accessTokens.get(token);
        if (!expires || expires < Date.now()) return response.writeHead(401).end("expired or unknown token");
        return response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ name: "Ada" }));
      }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}

const oauth = new OAuthServer();
beforeAll(() => oauth.start());
afterAll(() => new Promise<void>((resolve) => oauth.server.close(() => resolve())));

function credentialRequest(events: readonly Event[]) {
  return events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === REQUEST_CREDENTIAL)!.functionCall!;
}

describe("credentials", () => {
  it("pauses for an API key, reads it with getAuthResponse when the client answers, and keeps it for the user's next runs", async () => {
    const apiKeyConfig: AuthConfig = { authScheme: { type: "apiKey", in: "header", name: "X-API-Key" } };
    const seen: string[] = [];
    const weather = new FunctionTool({
      name: "weather",
      description: "Weather from a keyed API.",
      execute: async (_args, context) => {
        const credential = (await context.loadCredential(apiKeyConfig)) as AuthCredential | undefined;
        if (!credential) {
          context.requestCredential(apiKeyConfig);
          return { status: "needs key" };
        }
        seen.push(credential.apiKey!);
        return { forecast: "sunny" };
      },
    });
    const model = new ScriptedModel([functionCallsResponse({ name: "weather" }), textResponse("Sunny."), functionCallsResponse({ name: "weather" }), textResponse("Still sunny.")]);
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "agent", model, tools: [weather] }) });
    const first = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: first.id, newMessage: userMessage("weather?") }));
    const request = credentialRequest(events);
    expect(request.args).toMatchObject({ authConfig: { authScheme: { type: "apiKey" } } });

    const answer = { ...(request.args!.authConfig as AuthConfig), exchangedAuthCredential: { authType: "apiKey", apiKey: "k-123" } };
    const resumed = await collect(
      runner.runAsync({ userId: "u", sessionId: first.id, newMessage: { role: "user", parts: [{ functionResponse: { id: request.id, name: REQUEST_CREDENTIAL, response: answer } }] } }),
    );
    expect(resumed.at(-1)!.content!.parts![0]!.text).toBe("Sunny.");
    // The session keeps the answer without the key (the credential service has it); the message sent is unchanged.
    const stored = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: first.id }))!;
    expect(JSON.stringify(stored.events)).not.toContain("k-123");
    const storedAnswer = stored.events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionResponse?.name === REQUEST_CREDENTIAL)!.functionResponse!;
    expect(storedAnswer).toEqual({ id: request.id, name: REQUEST_CREDENTIAL, response: { ...answer, exchangedAuthCredential: { authType: "apiKey", apiKey: "[redacted]" } } });
    expect(answer.exchangedAuthCredential.apiKey).toBe("k-123");
    // A new session of the same user needs no new request.
    const second = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const again = await collect(runner.runAsync({ userId: "u", sessionId: second.id, newMessage: userMessage("and now?") }));
    expect(again.some((event) => event.content?.parts?.some((part) => part.functionCall?.name === REQUEST_CREDENTIAL))).toBe(false);
    expect(seen).toEqual(["k-123", "k-123"]);
  });

  it("runs OAuth 2 authorization code with PKCE: sign-in URL, code-for-token exchange, and refresh of an expired token", async () => {
    const config = (): AuthConfig => ({
      authScheme: { type: "oauth2", flows: { authorizationCode: { authorizationUrl: `${oauth.url}/authorize`, tokenUrl: `${oauth.url}/token`, scopes: { profile: "Your profile" } } } },
      rawAuthCredential: { authType: "oauth2", oauth2: { clientId: "toolsmith-test", redirectUri: "http://127.0.0.1/callback" } },
    });
    const profile = new FunctionTool({
      name: "my_profile",
      description: "Reads the user's profile.",
      execute: async (_args, context) => {
        const credential = (await context.loadCredential(config())) as AuthCredential | undefined;
        if (!credential?.oauth2?.accessToken) {
          context.requestCredential(config());
          return { status: "sign-in needed" };
        }
        const response = await fetch(`${oauth.url}/me`, { headers: { authorization: `Bearer ${credential.oauth2.accessToken}` } });
        if (!response.ok) throw new Error(`profile API answered ${response.status}`);
        return await response.json();
      },
    });
    const model = new ScriptedModel([
      functionCallsResponse({ name: "my_profile" }),
      (request) => textResponse(JSON.stringify(request.contents.at(-1)!.parts![0]!.functionResponse!.response)),
      functionCallsResponse({ name: "my_profile" }),
      (request) => textResponse(JSON.stringify(request.contents.at(-1)!.parts![0]!.functionResponse!.response)),
    ]);
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "agent", model, tools: [profile] }), credentialService: new StateCredentialService() });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("who am I?") }));
    const request = credentialRequest(events);
    const sent = request.args!.authConfig as AuthConfig;
    const sentOAuth = (sent.exchangedAuthCredential as AuthCredential).oauth2!;
    // The client gets the sign-in URL, never the PKCE verifier.
    expect(sentOAuth.authUri).toContain("code_challenge_method=S256");
    expect(sentOAuth.codeVerifier).toBeUndefined();

    // The user signs in: the authorization server redirects back with a code.
    const redirect = await fetch(sentOAuth.authUri!, { redirect: "manual" });
    const authResponseUri = redirect.headers.get("location")!;
    const answer = { ...sent, exchangedAuthCredential: { authType: "oauth2", oauth2: { ...sentOAuth, authResponseUri } } };
    const resumed = await collect(
      runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ functionResponse: { id: request.id, name: REQUEST_CREDENTIAL, response: answer } }] } }),
    );
    expect(resumed.at(-1)!.content!.parts![0]!.text).toBe('{"name":"Ada"}');
    expect(oauth.tokenRequests.at(-1)!.get("grant_type")).toBe("authorization_code");
    expect(oauth.tokenRequests.at(-1)!.get("code_verifier")).toBeTruthy();
    // The redirect URL carrying the code is not kept in the session's events.
    const afterSignIn = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
    expect(JSON.stringify(afterSignIn.events)).not.toContain(new URL(authResponseUri).searchParams.get("code")!);

    // An hour later the access token has expired: the next run refreshes it instead of asking the user again.
    const current = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
    const key = Object.keys(current.state).find((name) => name.startsWith("user:credential:"))!;
    const expired = structuredClone(current.state[key]) as AuthCredential;
    expired.oauth2!.expiresAt = Math.floor(Date.now() / 1000) - 10;
    await runner.sessionService.appendEvent({ session: current, event: createEvent({ invocationId: "clock", author: "user", actions: { stateDelta: { [key]: expired } } }) });
    const later = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("again?") }));
    expect(later.at(-1)!.content!.parts![0]!.text).toBe('{"name":"Ada"}');
    expect(oauth.tokenRequests.at(-1)!.get("grant_type")).toBe("refresh_token");
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    expect(Object.keys(stored!.state).some((key) => key.startsWith("user:credential:"))).toBe(true);
  });

  it("refuses a sign-in redirect whose state does not match, without running the tool", async () => {
    let ran = 0;
    const authConfig: AuthConfig = {
      authScheme: { type: "oauth2", flows: { authorizationCode: { authorizationUrl: `${oauth.url}/authorize`, tokenUrl: `${oauth.url}/token` } } },
      rawAuthCredential: { authType: "oauth2", oauth2: { clientId: "c", redirectUri: "http://127.0.0.1/cb" } },
    };
    const tool = new FunctionTool({
      name: "needs_login",
      description: "x",
      execute: (_args, context) => {
        if (!context.getAuthResponse(authConfig)) return context.requestCredential(authConfig);
        ran++;
        return { ok: true };
      },
    });
    const model = new ScriptedModel([functionCallsResponse({ name: "needs_login" }), textResponse("Sign-in failed, please retry.")]);
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "agent", model, tools: [tool] }) });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const request = credentialRequest(await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") })));
    const sent = request.args!.authConfig as AuthConfig;
    const forged = { ...sent, exchangedAuthCredential: { authType: "oauth2", oauth2: { authResponseUri: "http://127.0.0.1/cb?code=abc&state=not-the-state" } } };
    const events = await collect(
      runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ functionResponse: { id: request.id, name: REQUEST_CREDENTIAL, response: forged } }] } }),
    );
    expect(String(events[0]!.content!.parts![0]!.functionResponse!.response!.error)).toContain("another state than the one issued");
    expect(ran).toBe(0);
  });
});

describe("withoutCredentialSecrets", () => {
  it("keeps every credential answer in a message without its secrets, whatever the kind, and leaves other messages as they are", () => {
    const answer = (response: Record<string, unknown>) => ({ role: "user", parts: [{ text: "here" }, { functionResponse: { id: "r1", name: REQUEST_CREDENTIAL, response } }] });
    const oauthAnswer = answer({
      authScheme: { type: "oauth2" },
      exchangedAuthCredential: { authType: "oauth2", oauth2: { clientId: "app", clientSecret: "cs", accessToken: "at", refreshToken: "rt", authCode: "code", authResponseUri: "https://app/cb?code=code", codeVerifier: "v", idToken: "id", expiresAt: 5 } },
      rawAuthCredential: { authType: "oauth2", oauth2: { clientId: "app", clientSecret: "cs2" } },
    });
    const redacted = withoutCredentialSecrets(oauthAnswer);
    expect(redacted.parts![0]).toBe(oauthAnswer.parts[0]);
    expect(redacted.parts![1]!.functionResponse!.response).toEqual({
      authScheme: { type: "oauth2" },
      exchangedAuthCredential: { authType: "oauth2", oauth2: { clientId: "app", clientSecret: "[redacted]", accessToken: "[redacted]", refreshToken: "[redacted]", authCode: "[redacted]", authResponseUri: "[redacted]", codeVerifier: "[redacted]", idToken: "[redacted]", expiresAt: 5 } },
      rawAuthCredential: { authType: "oauth2", oauth2: { clientId: "app", clientSecret: "[redacted]" } },
    });
    // The message itself is not changed: the run reads the credential from it.
    expect((oauthAnswer.parts[1]!.functionResponse!.response as { exchangedAuthCredential: { oauth2: { accessToken: string } } }).exchangedAuthCredential.oauth2.accessToken).toBe("at");
    const http = withoutCredentialSecrets(answer({ exchangedAuthCredential: { authType: "http", http: { scheme: "basic", credentials: { username: "ada", password: "pw", token: "tk" } } } }));
    expect(http.parts![1]!.functionResponse!.response).toEqual({ exchangedAuthCredential: { authType: "http", http: { scheme: "basic", credentials: { username: "ada", password: "[redacted]", token: "[redacted]" } } } });
    // A bare credential as the answer (ADK's clients may send one).
    expect(withoutCredentialSecrets(answer({ authType: "apiKey", apiKey: "k" })).parts![1]!.functionResponse!.response).toEqual({ authType: "apiKey", apiKey: "[redacted]" });
    const plain = { role: "user", parts: [{ functionResponse: { id: "x", name: "adk_request_input", response: { apiKey: "not a credential answer" } } }] };
    expect(withoutCredentialSecrets(plain)).toBe(plain);
  });

  it("fuzzed: no secret of any credential answer, wherever the client put it (fields of its own too), reaches the stored message", () => {
    const secret = fc.string({ minLength: 8, maxLength: 24 }).map((text) => `S3CRET-${text}`);
    // Fields no credential has, which a client may still send: what is not known to be harmless is not kept.
    const madeUp = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }).map((name) => `x_${name}`), fc.oneof(secret, fc.record({ nested: secret }), fc.array(secret, { maxLength: 2 })), { maxKeys: 2 });
    const withMadeUp = <T extends object>(record: fc.Arbitrary<T>) => fc.tuple(record, madeUp).map(([known, extra]) => ({ ...extra, ...known }));
    const oauth2 = withMadeUp(fc.record({ clientId: fc.constant("app"), accessToken: secret, refreshToken: secret, clientSecret: secret, authCode: secret, authResponseUri: secret, codeVerifier: secret, idToken: secret }, { requiredKeys: [] }));
    const http = withMadeUp(fc.record({ scheme: fc.constantFrom("bearer", "basic"), credentials: withMadeUp(fc.record({ token: secret, password: secret, username: fc.constant("ada") }, { requiredKeys: [] })) }));
    const credential = withMadeUp(fc.record({ authType: fc.constantFrom("apiKey", "http", "oauth2"), apiKey: fc.option(secret, { nil: undefined }), oauth2: fc.option(oauth2, { nil: undefined }), http: fc.option(http, { nil: undefined }) }));
    const answer = fc.oneof(credential, withMadeUp(fc.record({ authScheme: fc.constant({ type: "oauth2" }), credentialKey: fc.constant("github"), exchangedAuthCredential: credential, rawAuthCredential: fc.option(credential, { nil: undefined }) })));
    let checked = 0;
    fc.assert(
      fc.property(fc.array(answer, { minLength: 1, maxLength: 3 }), (answers) => {
        const message = { role: "user", parts: answers.map((response, index) => ({ functionResponse: { id: `r${index}`, name: REQUEST_CREDENTIAL, response: JSON.parse(JSON.stringify(response)) as Record<string, unknown> } })) };
        const before = JSON.stringify(message);
        const stored = JSON.stringify(withoutCredentialSecrets(message));
        checked++;
        // Every secret the answers held is gone from what is stored, and the message sent is as it was.
        return !stored.includes("S3CRET-") && JSON.stringify(message) === before;
      }),
      { numRuns: 500 },
    );
    console.log(`withoutCredentialSecrets: ${checked} random messages with credential answers; no secret stored`);
  });
});
