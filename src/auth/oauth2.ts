import { createHash, randomBytes } from "node:crypto";
import { ToolsmithError } from "../errors/toolsmith-error.js";
import { describeGiven } from "../errors/unhonoured-option.js";
import type { AuthCredential } from "./credential-service.js";

/** The OAuth 2 authorization-code flow of an auth scheme. */
export interface AuthorizationCodeFlow {
  authorizationUrl: string;
  tokenUrl: string;
  scopes?: Record<string, string>;
}

/**
 * An OAuth 2 client's own credentials, for the client-credentials grant (machine to machine: no user signs in).
 */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  /**
   * How the token endpoint is told them, by OAuth's names: in the form body (`client_secret_post`, the default, as
   * ADK sends them) or as HTTP Basic (`client_secret_basic`, which RFC 6749 asks every server to accept).
   */
  clientAuthMethod?: "client_secret_post" | "client_secret_basic";
  /**
   * More fields for the token request, which some servers ask for (Auth0's `audience`, a `resource`); a `scope`
   * here replaces the scopes the operation lists (Microsoft's `api://…/.default`, say).
   */
  tokenParameters?: Record<string, string>;
}

/** A sign-in or token exchange that failed. */
export class OAuth2Error extends ToolsmithError {}

/**
 * ADK's `CredentialExchangeError`: a credential could not be exchanged for tokens. Every failed OAuth 2 exchange
 * toolsmith makes is one (an authorization code with the wrong state, or none, a sign-in the user refused, a token
 * endpoint that refused the code, a refresh or a client-credentials request), an {@link OAuth2Error} with its `code`.
 * Made as ADK's is, `new CredentialExchangeError(message)`, its code is `CREDENTIAL_EXCHANGE_FAILED`.
 *
 * Where ADK's run throws it out of `runAsync` (the client's answer to a credential request could not be
 * exchanged), toolsmith's run goes on: the tool's result tells the model the credential could not be used.
 *
 * @example
 * ```ts
 * try { credential = await toolContext.loadCredential(authConfig) }
 * catch (error) { if (error instanceof CredentialExchangeError) return { error: "Please sign in again." }; throw error }
 * ```
 */
export class CredentialExchangeError extends OAuth2Error {
  constructor(message?: string, options?: { cause?: unknown; code?: CredentialExchangeErrorCode }) {
    super(options?.code ?? "CREDENTIAL_EXCHANGE_FAILED", message ?? "", options);
  }
}

/** The codes a {@link CredentialExchangeError} carries. */
export type CredentialExchangeErrorCode = "CREDENTIAL_EXCHANGE_FAILED" | "OAUTH2_DENIED" | "OAUTH2_NO_CODE" | "OAUTH2_STATE_MISMATCH" | "OAUTH2_TOKEN_REQUEST_FAILED";

/**
 * The address a person is sent to sign in, if it is a web address (`http:` or `https:`). Anything else is refused:
 * a `javascript:` or `data:` address from an OpenAPI document or an authorization server's metadata, shown as a
 * sign-in link by a client (the web UI), would run script in the client's page when clicked.
 */
export function signInUrl(address: string | URL, fix: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(address);
  } catch {
    url = undefined;
  }
  if (!url) throw new OAuth2Error("OAUTH2_INVALID_URL", `The sign-in address ${describeGiven(String(address))} is not a URL. ${fix}`);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new OAuth2Error("OAUTH2_INVALID_URL", `The sign-in address is a ${url.protocol} URL, not http or https, so no one is sent there. ${fix}`);
  }
  return url;
}

/** A fresh PKCE pair (RFC 7636, S256) and an unguessable state. */
export function createPkce(): { codeVerifier: string; codeChallenge: string; state: string } {
  const codeVerifier = randomBytes(32).toString("base64url");
  return {
    codeVerifier,
    codeChallenge: createHash("sha256").update(codeVerifier).digest("base64url"),
    state: randomBytes(16).toString("base64url"),
  };
}

/** The URL to send the user to for sign-in. */
export function buildAuthorizationUrl(flow: AuthorizationCodeFlow, options: { clientId: string; redirectUri: string; state: string; codeChallenge: string }): string {
  const url = signInUrl(flow.authorizationUrl, "Fix the scheme's authorizationUrl (in the OpenAPI document's securitySchemes, or the tool's AuthConfig).");
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", options.clientId);
  url.searchParams.set("redirect_uri", options.redirectUri);
  if (flow.scopes && Object.keys(flow.scopes).length) url.searchParams.set("scope", Object.keys(flow.scopes).join(" "));
  url.searchParams.set("state", options.state);
  url.searchParams.set("code_challenge", options.codeChallenge);
  url.searchParams.set("code_challenge_method", "S256");
  return url.toString();
}

/** How a token request is sent: extra headers (a client's Basic credentials), the fetch to use, what to check on failure. */
interface TokenRequestOptions {
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  check?: string;
}

async function requestTokens(tokenUrl: string, form: Record<string, string | undefined>, signal?: AbortSignal, options: TokenRequestOptions = {}): Promise<NonNullable<AuthCredential["oauth2"]>> {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(form)) if (value !== undefined) body.set(key, value);
  const response = await (options.fetch ?? fetch)(tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", ...options.headers },
    body,
    signal,
  });
  const text = await response.text();
  if (!response.ok) throw new CredentialExchangeError(`The token endpoint ${tokenUrl} answered ${response.status}: ${text.slice(0, 500)}. ${options.check ?? "Check the client id, secret and redirect URI."}`, { code: "OAUTH2_TOKEN_REQUEST_FAILED" });
  let tokens: Record<string, unknown>;
  try {
    tokens = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new CredentialExchangeError(`The token endpoint ${tokenUrl} did not answer with JSON: ${text.slice(0, 200)}`, { code: "OAUTH2_TOKEN_REQUEST_FAILED" });
  }
  if (typeof tokens.access_token !== "string") throw new CredentialExchangeError(`The token endpoint ${tokenUrl} gave no access_token.`, { code: "OAUTH2_TOKEN_REQUEST_FAILED" });
  return {
    accessToken: tokens.access_token,
    refreshToken: typeof tokens.refresh_token === "string" ? tokens.refresh_token : undefined,
    expiresAt: expiresAtOf(tokens.expires_in),
  };
}

/** When the tokens expire, in seconds since the epoch; `expires_in` may come as a string of digits (Azure AD v1 sends "3599"). */
function expiresAtOf(expiresIn: unknown): number | undefined {
  const seconds = typeof expiresIn === "string" && /^\d+$/.test(expiresIn) ? Number(expiresIn) : expiresIn;
  return typeof seconds === "number" && Number.isFinite(seconds) ? Math.floor(Date.now() / 1000) + seconds : undefined;
}

/** Exchanges the authorization code in the redirect for tokens, checking the state first. */
export async function exchangeAuthorizationCode(
  flow: AuthorizationCodeFlow,
  options: { authResponseUri?: string; authCode?: string; expectedState?: string; codeVerifier?: string; clientId?: string; clientSecret?: string; redirectUri?: string },
  signal?: AbortSignal,
): Promise<NonNullable<AuthCredential["oauth2"]>> {
  let code = options.authCode;
  if (options.authResponseUri) {
    const redirect = new URL(options.authResponseUri);
    const error = redirect.searchParams.get("error");
    if (error) throw new CredentialExchangeError(`Sign-in was not completed: ${error}. Ask the user to sign in again.`, { code: "OAUTH2_DENIED" });
    if (options.expectedState && redirect.searchParams.get("state") !== options.expectedState) {
      throw new CredentialExchangeError("The sign-in redirect carries another state than the one issued; it is refused. Ask the user to sign in again.", { code: "OAUTH2_STATE_MISMATCH" });
    }
    code = redirect.searchParams.get("code") ?? undefined;
  }
  if (!code) throw new CredentialExchangeError("The client's answer has no authorization code. Send the full redirect URL as exchangedAuthCredential.oauth2.authResponseUri.", { code: "OAUTH2_NO_CODE" });
  return requestTokens(
    flow.tokenUrl,
    {
      grant_type: "authorization_code",
      code,
      redirect_uri: options.redirectUri,
      client_id: options.clientId,
      client_secret: options.clientSecret,
      code_verifier: options.codeVerifier,
    },
    signal,
  );
}

/** New tokens for a refresh token; the old refresh token is kept when the server issues none. */
export async function refreshTokens(
  flow: AuthorizationCodeFlow,
  credential: NonNullable<AuthCredential["oauth2"]>,
  signal?: AbortSignal,
): Promise<NonNullable<AuthCredential["oauth2"]>> {
  const tokens = await requestTokens(
    flow.tokenUrl,
    { grant_type: "refresh_token", refresh_token: credential.refreshToken, client_id: credential.clientId, client_secret: credential.clientSecret },
    signal,
  );
  return { ...credential, ...tokens, refreshToken: tokens.refreshToken ?? credential.refreshToken };
}

/**
 * An access token for the client itself (RFC 6749's client-credentials grant), with the scopes given (space
 * separated, left out when there are none).
 */
export function requestClientCredentialsToken(tokenUrl: string, credentials: ClientCredentials, scopes: readonly string[], fetchImplementation?: typeof fetch, signal?: AbortSignal): Promise<NonNullable<AuthCredential["oauth2"]>> {
  const basic = credentials.clientAuthMethod === "client_secret_basic";
  // RFC 6749 2.3.1: the id and secret are form-encoded before they are joined for Basic.
  const formEncoded = (value: string) => new URLSearchParams([["", value]]).toString().slice(1);
  return requestTokens(
    tokenUrl,
    {
      grant_type: "client_credentials",
      client_id: basic ? undefined : credentials.clientId,
      client_secret: basic ? undefined : credentials.clientSecret,
      scope: scopes.length > 0 ? scopes.join(" ") : undefined,
      ...credentials.tokenParameters,
    },
    signal,
    {
      fetch: fetchImplementation,
      headers: basic ? { authorization: `Basic ${Buffer.from(`${formEncoded(credentials.clientId)}:${formEncoded(credentials.clientSecret)}`).toString("base64")}` } : undefined,
      check: `Check the client id and secret${basic ? "" : ", and whether the server takes them as HTTP Basic (clientAuthMethod: \"client_secret_basic\")"}.`,
    },
  );
}
