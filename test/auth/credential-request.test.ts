/** The first half of the credential flow on its own: the key a credential is kept under, and the request a tool stores. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { authorizationCodeFlow, credentialKeyOf, credentialRequest, suppliedCredentialKey } from "../../src/auth/credential-flow.js";
import type { AuthConfig } from "../../src/events/event-actions.js";

const oauthScheme = (scopes: Record<string, string> = { "read:calendar": "Read your calendar" }): AuthConfig => ({
  authScheme: { type: "oauth2", flows: { authorizationCode: { authorizationUrl: "https://auth.example.com/authorize?tenant=t1", tokenUrl: "https://auth.example.com/token", scopes } } },
  rawAuthCredential: { authType: "oauth2", oauth2: { clientId: "client-1", clientSecret: "secret", redirectUri: "http://127.0.0.1:8000/callback" } },
});
const apiKeyScheme = (name: string): AuthConfig => ({ authScheme: { type: "apiKey", in: "header", name } });

describe("credentialKeyOf", () => {
  it("gives the same scheme the same key every time, and different schemes different keys", () => {
    expect(credentialKeyOf(apiKeyScheme("X-Key"))).toBe(credentialKeyOf(apiKeyScheme("X-Key")));
    expect(credentialKeyOf(apiKeyScheme("X-Key"))).not.toBe(credentialKeyOf(apiKeyScheme("X-Other")));
    expect(credentialKeyOf(apiKeyScheme("X-Key"))).toMatch(/^adk_apiKey_[0-9a-z]+$/);
  });

  it("uses the key the config names, when it names one", () => {
    expect(credentialKeyOf({ ...apiKeyScheme("X-Key"), credentialKey: "github" })).toBe("github");
  });

  it("keeps a supplied credential under a temp: key, which lasts for the invocation only", () => {
    expect(suppliedCredentialKey({ ...apiKeyScheme("X-Key"), credentialKey: "github" })).toBe("temp:github");
  });
});

describe("credentialRequest", () => {
  it("adds the sign-in URL of an OAuth 2 code flow with state and a PKCE challenge, keeping the verifier to itself", () => {
    const request = credentialRequest(oauthScheme());
    const issued = request.exchangedAuthCredential!.oauth2!;
    const url = new URL(issued.authUri!);
    expect(`${url.origin}${url.pathname}`).toBe("https://auth.example.com/authorize");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      tenant: "t1",
      response_type: "code",
      client_id: "client-1",
      redirect_uri: "http://127.0.0.1:8000/callback",
      scope: "read:calendar",
      state: issued.state,
      code_challenge: createHash("sha256").update(issued.codeVerifier!).digest("base64url"),
      code_challenge_method: "S256",
    });
    expect(url.search).not.toContain(issued.codeVerifier!);
    expect(request.credentialKey).toBe(credentialKeyOf(oauthScheme()));
  });

  it("makes a fresh state and verifier for every request, so one sign-in cannot answer another", () => {
    const [first, second] = [credentialRequest(oauthScheme()), credentialRequest(oauthScheme())];
    expect(first.exchangedAuthCredential!.oauth2!.state).not.toBe(second.exchangedAuthCredential!.oauth2!.state);
    expect(first.exchangedAuthCredential!.oauth2!.codeVerifier).not.toBe(second.exchangedAuthCredential!.oauth2!.codeVerifier);
  });

  it("leaves out the scope parameter when the flow names no scope", () => {
    expect(new URL(credentialRequest(oauthScheme({})).exchangedAuthCredential!.oauth2!.authUri!).searchParams.has("scope")).toBe(false);
  });

  it("adds no sign-in URL without a client id and redirect URI, or for a scheme that is not an OAuth 2 code flow", () => {
    const noClient = { ...oauthScheme(), rawAuthCredential: { authType: "oauth2" as const, oauth2: { redirectUri: "http://127.0.0.1/cb" } } };
    expect(credentialRequest(noClient).exchangedAuthCredential).toBeUndefined();
    expect(credentialRequest(apiKeyScheme("X-Key"))).toEqual({ ...apiKeyScheme("X-Key"), credentialKey: credentialKeyOf(apiKeyScheme("X-Key")) });
    expect(authorizationCodeFlow(apiKeyScheme("X-Key"))).toBeUndefined();
    expect(authorizationCodeFlow(oauthScheme())?.tokenUrl).toBe("https://auth.example.com/token");
  });
});
