import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ClientCredentialsTokens, isClientCredentials } from "../../src/auth/client-credentials.js";
import { OAuth2Error } from "../../src/auth/oauth2.js";
import { TokenServer } from "./token-server.js";

/** The token source behind OpenAPI toolsets' client credentials, against a real token endpoint on 127.0.0.1. */
let server: TokenServer;
let issued = 0;
beforeEach(async () => {
  server = new TokenServer();
  issued = 0;
  await server.start();
});
afterEach(() => server.stop());

const client = { clientId: "bot", clientSecret: "secret" };

describe("ClientCredentialsTokens", () => {
  it("keeps a token the endpoint gave no lifetime for, and one per set of scopes, whatever their order", async () => {
    server.answer = () => ({ body: { access_token: `t${++issued}` } });
    const tokens = new ClientCredentialsTokens(client);
    expect(await tokens.accessToken(server.tokenUrl, ["a", "b"])).toBe("t1");
    expect(await tokens.accessToken(server.tokenUrl, ["b", "a", "a"])).toBe("t1");
    expect(await tokens.accessToken(server.tokenUrl, ["a"])).toBe("t2");
    expect(server.requests.map((request) => request.form.get("scope"))).toEqual(["a b", "a"]);
  });

  it("lets a waiting call stop without stopping the request others wait for", async () => {
    server.answer = () => ({ body: { access_token: `t${++issued}`, expires_in: 3600 }, delayMs: 100 });
    const tokens = new ClientCredentialsTokens(client);
    const stopped = new AbortController();
    const first = tokens.accessToken(server.tokenUrl, [], stopped.signal);
    const second = tokens.accessToken(server.tokenUrl, []);
    stopped.abort(new Error("the run was cancelled"));
    await expect(first).rejects.toThrow("the run was cancelled");
    expect(await second).toBe("t1");
    expect(server.requests).toHaveLength(1);
  });

  it("keeps no failed request: the next call asks again, and every waiting call gets the failure", async () => {
    server.answer = () => ({ status: 400, body: { error: "invalid_scope" }, delayMs: 20 });
    const tokens = new ClientCredentialsTokens(client);
    const results = await Promise.allSettled([tokens.accessToken(server.tokenUrl, ["x"]), tokens.accessToken(server.tokenUrl, ["x"])]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    expect((results[0] as PromiseRejectedResult).reason).toBeInstanceOf(OAuth2Error);
    expect(server.requests).toHaveLength(1);
    server.answer = () => ({ body: { access_token: "fine", expires_in: 3600 } });
    expect(await tokens.accessToken(server.tokenUrl, ["x"])).toBe("fine");
  });

  it("gives up on a token endpoint that does not answer, so that later calls ask again instead of waiting for ever", async () => {
    server.answer = () => ({ body: { access_token: "too late", expires_in: 3600 }, delayMs: 5_000 });
    const tokens = new ClientCredentialsTokens(client, fetch, { timeoutMs: 200 });
    const started = performance.now();
    await expect(tokens.accessToken(server.tokenUrl, [])).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(4_000);
    server.answer = () => ({ body: { access_token: "answered", expires_in: 3600 } });
    expect(await tokens.accessToken(server.tokenUrl, [])).toBe("answered");
  });

  it("forgets only the token it was told of (a newer one stays)", async () => {
    server.answer = () => ({ body: { access_token: `t${++issued}`, expires_in: 3600 } });
    const tokens = new ClientCredentialsTokens(client);
    expect(await tokens.accessToken(server.tokenUrl, [])).toBe("t1");
    tokens.forget(server.tokenUrl, [], "t1");
    expect(await tokens.accessToken(server.tokenUrl, [])).toBe("t2");
    tokens.forget(server.tokenUrl, [], "t1");
    expect(await tokens.accessToken(server.tokenUrl, [])).toBe("t2");
  });

  it("tells client credentials from the other kinds of credential", () => {
    expect(isClientCredentials({ clientId: "a", clientSecret: "b" })).toBe(true);
    expect(isClientCredentials({ accessToken: "a" })).toBe(false);
    expect(isClientCredentials({ clientId: "a" })).toBe(false);
    expect(isClientCredentials({ apiKey: "a" })).toBe(false);
  });
});
