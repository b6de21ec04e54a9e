/**
 * The OAuth 2 pieces (oauth2.ts): PKCE, the sign-in URL, the code-for-token
 * exchange and the refresh, against a token endpoint on 127.0.0.1.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OAuth2Error } from "../../src/index.js";
import { buildAuthorizationUrl, createPkce, exchangeAuthorizationCode, refreshTokens, type AuthorizationCodeFlow } from "../../src/auth/oauth2.js";
import { TokenServer } from "./token-server.js";

const server = new TokenServer();
beforeAll(() => server.start());
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
  server.answer = () => ({ body: { access_token: "at-1", token_type: "Bearer", expires_in: 3600, refresh_token: "rt-1" } });
});

const flow = (): AuthorizationCodeFlow => ({ authorizationUrl: "https://auth.example/authorize", tokenUrl: server.tokenUrl, scopes: { read: "Read", write: "Write" } });
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe("createPkce", () => {
  it("makes a verifier of 43 URL-safe characters and its S256 challenge", () => {
    const pkce = createPkce();
    expect(pkce.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pkce.codeChallenge).toBe(createHash("sha256").update(pkce.codeVerifier).digest("base64url"));
    expect(pkce.state).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("makes a new verifier and state every time", () => {
    const first = createPkce();
    const second = createPkce();
    expect(second.codeVerifier).not.toBe(first.codeVerifier);
    expect(second.state).not.toBe(first.state);
  });
});

describe("buildAuthorizationUrl", () => {
  it("asks for a code with the client, redirect, scopes, state and S256 challenge", () => {
    const url = new URL(buildAuthorizationUrl(flow(), { clientId: "app-1", redirectUri: "https://app.example/cb?x=1", state: "st", codeChallenge: "ch" }));
    expect(url.origin + url.pathname).toBe("https://auth.example/authorize");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: "app-1",
      redirect_uri: "https://app.example/cb?x=1",
      scope: "read write",
      state: "st",
      code_challenge: "ch",
      code_challenge_method: "S256",
    });
  });

  it("refuses a sign-in address that is not http(s) or no URL at all, saying what to fix, as a link to it could run script", () => {
    const options = { clientId: "c", redirectUri: "https://app.example/cb", state: "s", codeChallenge: "h" };
    const refusal = (authorizationUrl: string) => {
      try {
        buildAuthorizationUrl({ authorizationUrl, tokenUrl: "https://auth.example/token" }, options);
      } catch (error) {
        return { name: (error as Error).constructor.name, code: (error as OAuth2Error).code, message: (error as Error).message };
      }
      return undefined;
    };
    const fix = "Fix the scheme's authorizationUrl (in the OpenAPI document's securitySchemes, or the tool's AuthConfig).";
    expect(refusal("javascript:alert(document.cookie)//")).toEqual({ name: "OAuth2Error", code: "OAUTH2_INVALID_URL", message: `The sign-in address is a javascript: URL, not http or https, so no one is sent there. ${fix}` });
    expect(refusal("data:text/html,<script>alert(1)</script>")).toMatchObject({ message: expect.stringContaining("is a data: URL") });
    expect(refusal("JAVASCRIPT:alert(1)")).toMatchObject({ message: expect.stringContaining("is a javascript: URL") });
    expect(refusal("/authorize")).toEqual({ name: "OAuth2Error", code: "OAUTH2_INVALID_URL", message: `The sign-in address "/authorize" is not a URL. ${fix}` });
    expect(refusal("http://localhost:9000/authorize")).toBeUndefined();
    expect(refusal("https://auth.example/authorize")).toBeUndefined();
  });

  it("keeps parameters already in the authorization URL and leaves scope out when there are no scopes", () => {
    const url = new URL(
      buildAuthorizationUrl({ authorizationUrl: "https://auth.example/authorize?audience=api&prompt=consent", tokenUrl: "x", scopes: {} }, { clientId: "c", redirectUri: "r", state: "s", codeChallenge: "h" }),
    );
    expect(url.searchParams.get("audience")).toBe("api");
    expect(url.searchParams.get("prompt")).toBe("consent");
    expect(url.searchParams.has("scope")).toBe(false);
  });
});

describe("exchangeAuthorizationCode", () => {
  it("takes the code from the redirect, posts it with the verifier as a form, and reads the tokens", async () => {
    const before = nowSeconds();
    const tokens = await exchangeAuthorizationCode(flow(), {
      authResponseUri: "https://app.example/cb?code=c-42&state=st-1",
      expectedState: "st-1",
      codeVerifier: "verifier",
      clientId: "app-1",
      clientSecret: "secret",
      redirectUri: "https://app.example/cb",
    });
    expect(tokens.accessToken).toBe("at-1");
    expect(tokens.refreshToken).toBe("rt-1");
    expect(tokens.expiresAt).toBeGreaterThanOrEqual(before + 3600);
    expect(tokens.expiresAt).toBeLessThanOrEqual(nowSeconds() + 3600);
    const [request] = server.requests;
    expect(request!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(request!.headers.accept).toBe("application/json");
    expect(Object.fromEntries(request!.form)).toEqual({
      grant_type: "authorization_code",
      code: "c-42",
      redirect_uri: "https://app.example/cb",
      client_id: "app-1",
      client_secret: "secret",
      code_verifier: "verifier",
    });
  });

  it("leaves out of the form what it was not given (a public client has no secret)", async () => {
    await exchangeAuthorizationCode(flow(), { authCode: "c-1", clientId: "public" });
    expect(Object.fromEntries(server.last())).toEqual({ grant_type: "authorization_code", code: "c-1", client_id: "public" });
  });

  it("refuses a redirect carrying another state than the one issued, before calling the token endpoint", async () => {
    const exchange = exchangeAuthorizationCode(flow(), { authResponseUri: "https://app.example/cb?code=c&state=forged", expectedState: "issued" });
    await expect(exchange).rejects.toBeInstanceOf(OAuth2Error);
    await expect(exchangeAuthorizationCode(flow(), { authResponseUri: "https://app.example/cb?code=c", expectedState: "issued" })).rejects.toMatchObject({ code: "OAUTH2_STATE_MISMATCH" });
    expect(server.requests).toEqual([]);
  });

  it("reports a sign-in the user refused or that failed at the server, naming its error", async () => {
    await expect(exchangeAuthorizationCode(flow(), { authResponseUri: "https://app.example/cb?error=access_denied&state=s", expectedState: "s" })).rejects.toMatchObject({
      code: "OAUTH2_DENIED",
      message: expect.stringContaining("access_denied"),
    });
    expect(server.requests).toEqual([]);
  });

  it("asks for the full redirect URL when the answer has no code", async () => {
    await expect(exchangeAuthorizationCode(flow(), {})).rejects.toMatchObject({ code: "OAUTH2_NO_CODE", message: expect.stringContaining("authResponseUri") });
    await expect(exchangeAuthorizationCode(flow(), { authResponseUri: "https://app.example/cb?state=s", expectedState: "s" })).rejects.toMatchObject({ code: "OAUTH2_NO_CODE" });
  });

  it("prefers the code in the redirect to a separate authCode", async () => {
    await exchangeAuthorizationCode(flow(), { authResponseUri: "https://app.example/cb?code=from-redirect", authCode: "separate" });
    expect(server.last().get("code")).toBe("from-redirect");
  });

  it("reports the status and body when the token endpoint refuses", async () => {
    server.answer = () => ({ status: 400, body: { error: "invalid_grant", error_description: "code expired" } });
    await expect(exchangeAuthorizationCode(flow(), { authCode: "old" })).rejects.toMatchObject({
      code: "OAUTH2_TOKEN_REQUEST_FAILED",
      message: expect.stringMatching(/answered 400: .*code expired.*Check the client id, secret and redirect URI/),
    });
  });

  it("reports an answer that is not JSON, and one without an access token", async () => {
    server.answer = () => ({ body: "access_token=at&token_type=bearer", contentType: "application/x-www-form-urlencoded" });
    await expect(exchangeAuthorizationCode(flow(), { authCode: "c" })).rejects.toMatchObject({ code: "OAUTH2_TOKEN_REQUEST_FAILED", message: expect.stringContaining("did not answer with JSON") });
    server.answer = () => ({ body: { token_type: "Bearer" } });
    await expect(exchangeAuthorizationCode(flow(), { authCode: "c" })).rejects.toMatchObject({ code: "OAUTH2_TOKEN_REQUEST_FAILED", message: expect.stringContaining("gave no access_token") });
  });

  it("leaves expiry and refresh token unset when the server gives none", async () => {
    server.answer = () => ({ body: { access_token: "forever" } });
    expect(await exchangeAuthorizationCode(flow(), { authCode: "c" })).toEqual({ accessToken: "forever", refreshToken: undefined, expiresAt: undefined });
  });

  it("reads an expiry the server sends as a string of digits, as some providers do", async () => {
    server.answer = () => ({ body: { access_token: "at", expires_in: "3599" } });
    const tokens = await exchangeAuthorizationCode(flow(), { authCode: "c" });
    expect(tokens.expiresAt).toBeGreaterThanOrEqual(nowSeconds() + 3598);
    expect(tokens.expiresAt).toBeLessThanOrEqual(nowSeconds() + 3599);
  });

  it("stops waiting for the token endpoint when the signal aborts", async () => {
    server.answer = () => ({ body: { access_token: "late" }, delayMs: 2_000 });
    const controller = new AbortController();
    const exchange = exchangeAuthorizationCode(flow(), { authCode: "c" }, controller.signal);
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expect(exchange).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});

describe("refreshTokens", () => {
  it("posts the refresh token with the client's id and secret, and keeps the other fields of the credential", async () => {
    server.answer = () => ({ body: { access_token: "at-2", refresh_token: "rt-2", expires_in: 60 } });
    const refreshed = await refreshTokens(flow(), { clientId: "app-1", clientSecret: "secret", accessToken: "at-1", refreshToken: "rt-1", expiresAt: 1, redirectUri: "https://app.example/cb" });
    expect(Object.fromEntries(server.last())).toEqual({ grant_type: "refresh_token", refresh_token: "rt-1", client_id: "app-1", client_secret: "secret" });
    expect(refreshed).toMatchObject({ clientId: "app-1", clientSecret: "secret", redirectUri: "https://app.example/cb", accessToken: "at-2", refreshToken: "rt-2" });
    expect(refreshed.expiresAt).toBeGreaterThan(nowSeconds());
  });

  it("keeps the old refresh token when the server issues no new one", async () => {
    server.answer = () => ({ body: { access_token: "at-2", expires_in: 60 } });
    const refreshed = await refreshTokens(flow(), { accessToken: "at-1", refreshToken: "rt-keep", expiresAt: 1 });
    expect(refreshed.accessToken).toBe("at-2");
    expect(refreshed.refreshToken).toBe("rt-keep");
  });

  it("fails with the endpoint's answer when the refresh token was revoked", async () => {
    server.answer = () => ({ status: 401, body: { error: "invalid_grant" } });
    await expect(refreshTokens(flow(), { refreshToken: "revoked" })).rejects.toMatchObject({ code: "OAUTH2_TOKEN_REQUEST_FAILED", message: expect.stringContaining("answered 401") });
  });
});
