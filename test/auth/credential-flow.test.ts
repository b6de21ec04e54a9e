/**
 * The credential flow (credential-flow.ts) and the credential services, on a
 * plain scope: how credentials are keyed, asked for, accepted (with the OAuth 2
 * code exchange against a token endpoint on 127.0.0.1), stored and loaded
 * again, refreshed when about to expire.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { InMemoryCredentialService, OAuth2Error, State, StateCredentialService, ToolContext, type AuthConfig, type AuthCredential } from "../../src/index.js";
import { acceptCredential, authorizationCodeFlow, credentialKeyOf, credentialRequest, loadCredential, suppliedCredentialKey } from "../../src/auth/credential-flow.js";
import type { CredentialScope } from "../../src/auth/credential-service.js";
import { createInvocation } from "../support/tool-context.js";
import { TokenServer } from "./token-server.js";

const server = new TokenServer();
beforeAll(() => server.start());
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
  server.answer = () => ({ body: { access_token: "at-new", refresh_token: "rt-new", expires_in: 3600 } });
});

/** A scope whose state writes land in `delta`, over a session state of `value`. */
function scope(options: { appName?: string; userId?: string; value?: Record<string, unknown> } = {}) {
  const delta: Record<string, unknown> = {};
  const result: CredentialScope & { delta: Record<string, unknown> } = {
    appName: options.appName ?? "app",
    userId: options.userId ?? "u",
    state: new State(options.value ?? {}, delta),
    delta,
  };
  return result;
}

const apiKeyConfig = (): AuthConfig => ({ authScheme: { type: "apiKey", in: "header", name: "X-API-Key" } });
const oauthConfig = (withClient = true): AuthConfig => ({
  authScheme: {
    type: "oauth2",
    flows: { authorizationCode: { authorizationUrl: "https://auth.example/authorize", tokenUrl: server.tokenUrl, scopes: { profile: "Your profile" } } },
  },
  ...(withClient ? { rawAuthCredential: { authType: "oauth2" as const, oauth2: { clientId: "app-1", clientSecret: "s3cret", redirectUri: "https://app.example/cb" } } } : {}),
});
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe("credentialKeyOf", () => {
  it("derives the key from the scheme alone, not from the client's configured or supplied credential", () => {
    const withAnswer = { ...apiKeyConfig(), exchangedAuthCredential: { authType: "apiKey" as const, apiKey: "k" } };
    expect(credentialKeyOf(withAnswer)).toBe(credentialKeyOf(apiKeyConfig()));
    expect(credentialKeyOf(oauthConfig(true))).toBe(credentialKeyOf(oauthConfig(false)));
  });
});

describe("authorizationCodeFlow", () => {
  it("finds no authorization-code flow in an OAuth 2 scheme with only another flow, or with none", () => {
    expect(authorizationCodeFlow({ authScheme: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "x" } } } })).toBeUndefined();
    expect(authorizationCodeFlow({ authScheme: { type: "oauth2" } })).toBeUndefined();
  });
});

describe("credentialRequest", () => {
  it("keeps the redirect URI with the issued state, puts no client secret in the URL, and leaves the given config as it was", () => {
    const config = oauthConfig();
    const request = credentialRequest(config);
    const oauth2 = request.exchangedAuthCredential!.oauth2!;
    expect(oauth2.redirectUri).toBe("https://app.example/cb");
    expect(new URL(oauth2.authUri!).searchParams.get("code_challenge")).toBe(createHash("sha256").update(oauth2.codeVerifier!).digest("base64url"));
    expect(oauth2.authUri).not.toContain("s3cret");
    expect(config.exchangedAuthCredential).toBeUndefined();
    expect(config).not.toHaveProperty("credentialKey");
  });
  it("leaves the sign-in to the client when the app configured no client or no redirect URI", () => {
    expect(credentialRequest(oauthConfig(false)).exchangedAuthCredential).toBeUndefined();
    const noRedirect = { ...oauthConfig(false), rawAuthCredential: { authType: "oauth2" as const, oauth2: { clientId: "app-1" } } };
    expect(credentialRequest(noRedirect).exchangedAuthCredential).toBeUndefined();
  });
});

describe("acceptCredential", () => {
  it("makes an API key readable for this invocation and saves it with the service for later ones", async () => {
    const service = new InMemoryCredentialService();
    const target = scope();
    const credential = await acceptCredential({ answer: { ...apiKeyConfig(), exchangedAuthCredential: { authType: "apiKey", apiKey: "k-1" } } }, { scope: target, service });
    expect(credential).toEqual({ authType: "apiKey", apiKey: "k-1" });
    expect(target.delta).toEqual({ [suppliedCredentialKey(apiKeyConfig())]: { authType: "apiKey", apiKey: "k-1" } });
    expect(await service.loadCredential({ context: target, credentialKey: credentialKeyOf(apiKeyConfig()) })).toEqual({ authType: "apiKey", apiKey: "k-1" });
  });

  it("takes the raw credential when the client filled in that instead", async () => {
    const target = scope();
    const credential = await acceptCredential({ answer: { ...apiKeyConfig(), rawAuthCredential: { authType: "http", http: { scheme: "bearer", credentials: { token: "tok" } } } } }, { scope: target });
    expect(credential).toEqual({ authType: "http", http: { scheme: "bearer", credentials: { token: "tok" } } });
  });

  it("stores under the requested config's key, whatever key the answer claims", async () => {
    const target = scope();
    const requested = credentialRequest({ ...apiKeyConfig(), credentialKey: "issued-key" });
    await acceptCredential({ requested, answer: { ...apiKeyConfig(), credentialKey: "other-key", exchangedAuthCredential: { authType: "apiKey", apiKey: "k" } } }, { scope: target });
    expect(Object.keys(target.delta)).toEqual(["temp:issued-key"]);
  });

  it("exchanges the code in the redirect for tokens with the stored verifier, the app's client and redirect URI", async () => {
    const service = new InMemoryCredentialService();
    const target = scope();
    const requested = credentialRequest(oauthConfig());
    const issued = requested.exchangedAuthCredential!.oauth2!;
    // What the client sends back: the request as it saw it (no verifier), with the redirect the user landed on.
    const answer: AuthConfig = { ...requested, exchangedAuthCredential: { authType: "oauth2", oauth2: { authUri: issued.authUri, authResponseUri: `https://app.example/cb?code=c-1&state=${issued.state}` } } };
    const credential = await acceptCredential({ requested, answer }, { scope: target, service });

    expect(Object.fromEntries(server.last())).toEqual({
      grant_type: "authorization_code",
      code: "c-1",
      redirect_uri: "https://app.example/cb",
      client_id: "app-1",
      client_secret: "s3cret",
      code_verifier: issued.codeVerifier,
    });
    expect(credential).toMatchObject({ authType: "oauth2", oauth2: { accessToken: "at-new", refreshToken: "rt-new", clientId: "app-1", clientSecret: "s3cret" } });
    expect(credential.oauth2!.expiresAt).toBeGreaterThan(nowSeconds() + 3500);
    expect(target.state.get(suppliedCredentialKey(requested))).toEqual(credential);
    expect(await service.loadCredential({ context: target, credentialKey: credentialKeyOf(requested) })).toEqual(credential);
  });

  it("refuses a redirect with a forged state, storing nothing and calling no token endpoint", async () => {
    const service = new InMemoryCredentialService();
    const target = scope();
    const requested = credentialRequest(oauthConfig());
    const answer: AuthConfig = { ...requested, exchangedAuthCredential: { authType: "oauth2", oauth2: { authResponseUri: "https://app.example/cb?code=c&state=forged" } } };
    await expect(acceptCredential({ requested, answer }, { scope: target, service })).rejects.toMatchObject({ code: "OAUTH2_STATE_MISMATCH" });
    expect(target.delta).toEqual({});
    expect(await service.loadCredential({ context: target, credentialKey: credentialKeyOf(requested) })).toBeUndefined();
    expect(server.requests).toEqual([]);
  });

  it("does not let the answer replace the issued state with one of its own", async () => {
    const target = scope();
    const requested = credentialRequest(oauthConfig());
    const answer: AuthConfig = { ...requested, exchangedAuthCredential: { authType: "oauth2", oauth2: { state: "chosen", authResponseUri: "https://app.example/cb?code=c&state=chosen" } } };
    await expect(acceptCredential({ requested, answer }, { scope: target })).rejects.toBeInstanceOf(OAuth2Error);
  });

  it("takes tokens the client already obtained without calling the token endpoint", async () => {
    const target = scope();
    const requested = credentialRequest(oauthConfig());
    const answer: AuthConfig = { ...requested, exchangedAuthCredential: { authType: "oauth2", oauth2: { accessToken: "client-made", expiresAt: nowSeconds() + 600 } } };
    expect(await acceptCredential({ requested, answer }, { scope: target })).toEqual({ authType: "oauth2", oauth2: { accessToken: "client-made", expiresAt: expect.any(Number) } });
    expect(server.requests).toEqual([]);
  });

  it("reports a token endpoint that refuses the code, storing nothing", async () => {
    server.answer = () => ({ status: 400, body: { error: "invalid_grant" } });
    const target = scope();
    const requested = credentialRequest(oauthConfig());
    const answer: AuthConfig = { ...requested, exchangedAuthCredential: { authType: "oauth2", oauth2: { authResponseUri: `https://app.example/cb?code=c&state=${requested.exchangedAuthCredential!.oauth2!.state}` } } };
    await expect(acceptCredential({ requested, answer }, { scope: target })).rejects.toMatchObject({ code: "OAUTH2_TOKEN_REQUEST_FAILED" });
    expect(target.delta).toEqual({});
  });
});

describe("loadCredential", () => {
  it("prefers the credential supplied in this invocation to the service's", async () => {
    const service = new InMemoryCredentialService();
    const target = scope();
    await service.saveCredential({ context: target, credentialKey: credentialKeyOf(apiKeyConfig()), credential: { authType: "apiKey", apiKey: "stored" } });
    expect(await loadCredential(apiKeyConfig(), { scope: target, service })).toEqual({ authType: "apiKey", apiKey: "stored" });
    target.state.set(suppliedCredentialKey(apiKeyConfig()), { authType: "apiKey", apiKey: "supplied" });
    expect(await loadCredential(apiKeyConfig(), { scope: target, service })).toEqual({ authType: "apiKey", apiKey: "supplied" });
  });

  it("finds nothing without a supplied credential or a service", async () => {
    expect(await loadCredential(apiKeyConfig(), { scope: scope() })).toBeUndefined();
    expect(await loadCredential(apiKeyConfig(), { scope: scope(), service: new InMemoryCredentialService() })).toBeUndefined();
  });

  it("refreshes a token that expires within a minute, saving the new one for now and later", async () => {
    const service = new InMemoryCredentialService();
    const target = scope();
    const key = credentialKeyOf(oauthConfig());
    await service.saveCredential({ context: target, credentialKey: key, credential: { authType: "oauth2", oauth2: { accessToken: "old", refreshToken: "rt-old", expiresAt: nowSeconds() + 30, clientId: "app-1" } } });
    const credential = await loadCredential(oauthConfig(), { scope: target, service });
    expect(server.last().get("grant_type")).toBe("refresh_token");
    expect(server.last().get("refresh_token")).toBe("rt-old");
    expect(server.last().get("client_id")).toBe("app-1");
    expect(credential!.oauth2).toMatchObject({ accessToken: "at-new", refreshToken: "rt-new", clientId: "app-1" });
    expect(await service.loadCredential({ context: target, credentialKey: key })).toEqual(credential);
    expect(target.state.get(suppliedCredentialKey(oauthConfig()))).toEqual(credential);
  });

  it("leaves a token with more than a minute to live alone", async () => {
    const target = scope();
    const current: AuthCredential = { authType: "oauth2", oauth2: { accessToken: "fresh", refreshToken: "rt", expiresAt: nowSeconds() + 120 } };
    target.state.set(suppliedCredentialKey(oauthConfig()), current);
    expect(await loadCredential(oauthConfig(), { scope: target })).toEqual(current);
    expect(server.requests).toEqual([]);
  });

  it("does not try to refresh without a refresh token, without an expiry, or outside the authorization-code flow", async () => {
    const expired = nowSeconds() - 10;
    const cases: Array<[AuthConfig, AuthCredential]> = [
      [oauthConfig(), { authType: "oauth2", oauth2: { accessToken: "a", expiresAt: expired } }],
      [oauthConfig(), { authType: "oauth2", oauth2: { accessToken: "a", refreshToken: "rt" } }],
      [{ authScheme: { type: "oauth2", flows: { clientCredentials: { tokenUrl: server.tokenUrl } } } }, { authType: "oauth2", oauth2: { accessToken: "a", refreshToken: "rt", expiresAt: expired } }],
    ];
    for (const [config, credential] of cases) {
      const target = scope();
      target.state.set(suppliedCredentialKey(config), credential);
      expect(await loadCredential(config, { scope: target })).toEqual(credential);
    }
    expect(server.requests).toEqual([]);
  });

  it("fails with the token endpoint's answer when the refresh is refused, keeping the stored credential", async () => {
    server.answer = () => ({ status: 400, body: { error: "invalid_grant" } });
    const service = new InMemoryCredentialService();
    const target = scope();
    const stale: AuthCredential = { authType: "oauth2", oauth2: { accessToken: "old", refreshToken: "revoked", expiresAt: nowSeconds() - 5 } };
    await service.saveCredential({ context: target, credentialKey: credentialKeyOf(oauthConfig()), credential: stale });
    await expect(loadCredential(oauthConfig(), { scope: target, service })).rejects.toMatchObject({ code: "OAUTH2_TOKEN_REQUEST_FAILED" });
    expect(await service.loadCredential({ context: target, credentialKey: credentialKeyOf(oauthConfig()) })).toEqual(stale);
  });
});

describe("credential services", () => {
  it("InMemoryCredentialService keeps credentials per app and user, the latest save winning", async () => {
    const service = new InMemoryCredentialService();
    const ada = scope({ userId: "ada" });
    await service.saveCredential({ context: ada, credentialKey: "k", credential: { authType: "apiKey", apiKey: "1" } });
    await service.saveCredential({ context: ada, credentialKey: "k", credential: { authType: "apiKey", apiKey: "2" } });
    expect(await service.loadCredential({ context: ada, credentialKey: "k" })).toEqual({ authType: "apiKey", apiKey: "2" });
    expect(await service.loadCredential({ context: scope({ userId: "bob" }), credentialKey: "k" })).toBeUndefined();
    expect(await service.loadCredential({ context: scope({ userId: "ada", appName: "other" }), credentialKey: "k" })).toBeUndefined();
    expect(await service.loadCredential({ context: ada, credentialKey: "other" })).toBeUndefined();
  });

  it("StateCredentialService keeps a credential in the user's state, where every session of the user reads it", async () => {
    const service = new StateCredentialService();
    const writer = scope();
    await service.saveCredential({ context: writer, credentialKey: "k", credential: { authType: "apiKey", apiKey: "1" } });
    expect(writer.delta).toEqual({ "user:credential:k": { authType: "apiKey", apiKey: "1" } });
    // Another session of the user, once the delta is stored, has it in its state.
    const reader = scope({ value: { "user:credential:k": { authType: "apiKey", apiKey: "1" } } });
    expect(await service.loadCredential({ context: reader, credentialKey: "k" })).toEqual({ authType: "apiKey", apiKey: "1" });
    expect(await service.loadCredential({ context: reader, credentialKey: "missing" })).toBeUndefined();
  });
});

describe("ToolContext credential methods", () => {
  it("load through the invocation's credential service, scoped to the call's app and user", async () => {
    const credentialService = new InMemoryCredentialService();
    const invocation = (await createInvocation()).clone({ credentialService });
    await credentialService.saveCredential({ context: { appName: "test", userId: "user-1", state: new State({}, {}) }, credentialKey: credentialKeyOf(apiKeyConfig()), credential: { authType: "apiKey", apiKey: "saved" } });
    const context = new ToolContext({ invocation, functionCallId: "c" });
    expect(await context.loadCredential(apiKeyConfig())).toEqual({ authType: "apiKey", apiKey: "saved" });
    // The client has not answered in this invocation, so there is no auth response.
    expect(context.getAuthResponse(apiKeyConfig())).toBeUndefined();
  });

  it("stop a refresh when the call's abort signal fires", async () => {
    server.answer = () => ({ body: { access_token: "late" }, delayMs: 2_000 });
    const controller = new AbortController();
    const context = new ToolContext({ invocation: await createInvocation(), functionCallId: "c", abortSignal: controller.signal });
    context.state.set(suppliedCredentialKey(oauthConfig()), { authType: "oauth2", oauth2: { accessToken: "old", refreshToken: "rt", expiresAt: nowSeconds() - 1 } });
    const loading = context.loadCredential(oauthConfig());
    setTimeout(() => controller.abort(), 50);
    await expect(loading).rejects.toMatchObject({ name: "AbortError" });
  });
});
