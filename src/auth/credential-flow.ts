import type { AuthConfig } from "../events/event-actions.js";
import type { AuthCredential, CredentialScope, CredentialService } from "./credential-service.js";
import { credentialKeyOf } from "./credential-key.js";
import { buildAuthorizationUrl, createPkce, exchangeAuthorizationCode, refreshTokens, type AuthorizationCodeFlow } from "./oauth2.js";

/**
 * The credential flow a tool goes through (ask the client, accept its answer,
 * load and refresh stored credentials), written against a
 * {@link CredentialScope} so that `ToolContext` only delegates here and knows
 * no OAuth detail.
 */


/** The authorization-code flow of an OAuth 2 scheme, if it has one. */
export function authorizationCodeFlow(authConfig: AuthConfig): AuthorizationCodeFlow | undefined {
  if (authConfig.authScheme.type !== "oauth2") return undefined;
  const flows = authConfig.authScheme.flows as { authorizationCode?: AuthorizationCodeFlow } | undefined;
  return flows?.authorizationCode;
}

/**
 * The request to store for a tool asking for a credential: the config with its
 * key, and, for an OAuth 2 authorization-code scheme with a client id and
 * redirect URI, the sign-in URL with a fresh PKCE pair and state (the
 * verifier stays in the stored request; the client never sees it).
 */
export function credentialRequest(authConfig: AuthConfig): AuthConfig {
  const request: AuthConfig = { ...authConfig, credentialKey: credentialKeyOf(authConfig) };
  const flow = authorizationCodeFlow(authConfig);
  const raw = authConfig.rawAuthCredential?.oauth2;
  if (flow && raw?.clientId && raw.redirectUri) {
    const pkce = createPkce();
    const authUri = buildAuthorizationUrl(flow, { clientId: raw.clientId, redirectUri: raw.redirectUri, state: pkce.state, codeChallenge: pkce.codeChallenge });
    request.exchangedAuthCredential = { authType: "oauth2", oauth2: { authUri, state: pkce.state, codeVerifier: pkce.codeVerifier, redirectUri: raw.redirectUri } };
  }
  return request;
}

/** Where the flow keeps the credential the client supplied, for the rest of this invocation. */
export function suppliedCredentialKey(authConfig: AuthConfig): string {
  return `temp:${credentialKeyOf(authConfig)}`;
}

/** What {@link acceptCredential} and {@link loadCredential} work with. */
export interface CredentialFlowOptions {
  scope: CredentialScope;
  service?: CredentialService;
  signal?: AbortSignal;
}

/**
 * Takes the client's answer to a credential request: exchanges an OAuth 2
 * authorization code for tokens (checking state and PKCE against the stored
 * `requested`), then makes the credential readable for this invocation and
 * saves it with the credential service for later ones.
 */
export async function acceptCredential(answer: { requested?: AuthConfig; answer: AuthConfig }, options: CredentialFlowOptions): Promise<AuthCredential> {
  const requested = answer.requested ?? answer.answer;
  const flow = authorizationCodeFlow(requested);
  const answered = answer.answer.exchangedAuthCredential;
  let credential: AuthCredential;
  if (flow && !answered?.oauth2?.accessToken) {
    const issued = requested.exchangedAuthCredential?.oauth2 ?? {};
    const raw = requested.rawAuthCredential?.oauth2 ?? {};
    const tokens = await exchangeAuthorizationCode(
      flow,
      {
        authResponseUri: answered?.oauth2?.authResponseUri,
        authCode: answered?.oauth2?.authCode,
        expectedState: issued.state,
        codeVerifier: issued.codeVerifier,
        clientId: raw.clientId,
        clientSecret: raw.clientSecret,
        redirectUri: answered?.oauth2?.redirectUri ?? raw.redirectUri,
      },
      options.signal,
    );
    credential = { authType: "oauth2", oauth2: { ...tokens, clientId: raw.clientId, clientSecret: raw.clientSecret } };
  } else {
    credential = (answered ?? answer.answer.rawAuthCredential)!;
  }
  options.scope.state.set(suppliedCredentialKey(requested), credential);
  await options.service?.saveCredential({ context: options.scope, credentialKey: credentialKeyOf(requested), credential });
  return credential;
}

/**
 * A credential for this auth config: the one the client supplied in this
 * invocation, else the credential service's, with expired OAuth 2 tokens
 * refreshed (and the refreshed ones saved).
 */
export async function loadCredential(authConfig: AuthConfig, options: CredentialFlowOptions): Promise<AuthCredential | undefined> {
  const credentialKey = credentialKeyOf(authConfig);
  const supplied = options.scope.state.get<AuthCredential>(suppliedCredentialKey(authConfig));
  const credential = supplied ?? (await options.service?.loadCredential({ context: options.scope, credentialKey }));
  const flow = authorizationCodeFlow(authConfig);
  const oauth2 = credential?.oauth2;
  if (flow && oauth2?.refreshToken && oauth2.expiresAt !== undefined && oauth2.expiresAt < Date.now() / 1000 + 60) {
    const refreshed: AuthCredential = { authType: "oauth2", oauth2: await refreshTokens(flow, oauth2, options.signal) };
    await options.service?.saveCredential({ context: options.scope, credentialKey, credential: refreshed });
    options.scope.state.set(suppliedCredentialKey(authConfig), refreshed);
    return refreshed;
  }
  return credential;
}

export { credentialKeyOf };
