import type { AuthConfig, AuthCredential } from "../events/event-actions.js";
import { credentialKeyOf } from "../auth/credential-flow.js";
import { isClientCredentials, type ClientCredentials, type ClientCredentialsTokens } from "../auth/client-credentials.js";
import type { ToolContext } from "../tools/tool-context.js";
import type { OpenApiDocument, SecurityRequirement, SecurityScheme } from "./openapi-document.js";
import { resolveReference } from "./openapi-document.js";

/**
 * A credential for one security scheme of the document, by the scheme's kind:
 * an API key; a bearer token; a user name and password (HTTP basic); an
 * OAuth 2 / OpenID Connect access token obtained elsewhere; or, for an OAuth 2
 * scheme with a `clientCredentials` flow, the client's id and secret, with which
 * the toolset gets (and renews) access tokens itself.
 */
export type ApiCredential = { apiKey: string } | { token: string } | { username: string; password: string } | { accessToken: string } | ClientCredentials;

/** What authentication adds to a request. */
export interface AppliedAuth {
  headers: Record<string, string>;
  query: [string, string][];
  cookies: [string, string][];
}

/** A client-credentials token a call carries, so that it can be forgotten if the API refuses it. */
export interface IssuedToken {
  tokens: ClientCredentialsTokens;
  tokenUrl: string;
  scopes: readonly string[];
  accessToken: string;
}

/** How a person signs in to a scheme: the client's OAuth 2 details (for the sign-in URL), and where the answer is kept. */
export interface SignIn {
  rawAuthCredential?: AuthCredential;
  credentialKey?: string;
}

/** The outcome of choosing credentials for a call. */
export type AuthDecision =
  | { kind: "apply"; auth: AppliedAuth; issued: IssuedToken[] }
  /** A client-credentials token could not be had, and no other requirement was met. */
  | { kind: "failed"; schemeName: string; message: string }
  /** An OAuth 2 credential was requested from the client; the call waits for it. */
  | { kind: "requested"; schemeName: string }
  | { kind: "missing"; schemeNames: string[] };

/**
 * Picks the first security requirement of the operation whose schemes all
 * have credentials (from the toolset's `credentials`, or for OAuth 2 and
 * OpenID Connect from the credential the client supplied through
 * `context.requestCredential`) and says how to apply them. When only an
 * OAuth 2 requirement is left unmet, it asks the client for a credential.
 */
export async function decideAuth(options: {
  document: OpenApiDocument;
  security: readonly SecurityRequirement[];
  credentials: Readonly<Record<string, ApiCredential>>;
  /** Token sources of the schemes given client credentials, by scheme name. */
  clientTokens?: ReadonlyMap<string, ClientCredentialsTokens>;
  /** Sign-in details by scheme name (see {@link SignIn}). */
  signIn?: Readonly<Record<string, SignIn>>;
  /** What a relative `tokenUrl` is relative to. */
  baseUrl?: string;
  context: ToolContext;
}): Promise<AuthDecision> {
  const { document, security, credentials, context } = options;
  if (security.length === 0) return { kind: "apply", auth: emptyAuth(), issued: [] };
  const missing = new Set<string>();
  let oauthToRequest: { schemeName: string; config: AuthConfig } | undefined;
  let tokenFailure: { schemeName: string; message: string } | undefined;
  for (const requirement of security) {
    const auth = emptyAuth();
    const issued: IssuedToken[] = [];
    let satisfied = true;
    for (const schemeName of Object.keys(requirement)) {
      const scheme = resolveReference<SecurityScheme | undefined>(document, document.components?.securitySchemes?.[schemeName]);
      const signIn = options.signIn?.[schemeName];
      let credential = scheme && (credentials[schemeName] ?? suppliedCredential(scheme, context, signIn));
      if (scheme && credential && isClientCredentials(credential)) {
        // The client's id and secret are never sent to the API: they buy a token, or the scheme stays unmet.
        credential = undefined;
        const tokens = options.clientTokens?.get(schemeName);
        const tokenUrl = clientCredentialsTokenUrl(scheme, options.baseUrl);
        if (tokens && tokenUrl) {
          const scopes = requirement[schemeName] ?? [];
          try {
            const accessToken = await tokens.accessToken(tokenUrl, scopes, context.abortSignal);
            credential = { accessToken };
            issued.push({ tokens, tokenUrl, scopes, accessToken });
          } catch (error) {
            tokenFailure ??= { schemeName, message: (error as Error)?.message ?? String(error) };
          }
        }
      }
      if (!scheme || !credential || !apply(scheme, credential, auth)) {
        satisfied = false;
        missing.add(schemeName);
        if (scheme && (scheme.type === "oauth2" || scheme.type === "openIdConnect") && !oauthToRequest) {
          oauthToRequest = { schemeName, config: authConfigOf(scheme, requirement[schemeName] ?? [], signIn) };
        }
      }
    }
    if (satisfied) return { kind: "apply", auth, issued };
  }
  if (tokenFailure) return { kind: "failed", ...tokenFailure };
  if (oauthToRequest) {
    context.requestCredential(oauthToRequest.config);
    return { kind: "requested", schemeName: oauthToRequest.schemeName };
  }
  return { kind: "missing", schemeNames: [...missing] };
}

/** The token URL of an OAuth 2 scheme's client-credentials flow, resolved against `baseUrl` when relative. */
function clientCredentialsTokenUrl(scheme: SecurityScheme, baseUrl: string | undefined): string | undefined {
  if (scheme.type !== "oauth2") return undefined;
  const tokenUrl = (scheme.flows?.clientCredentials as { tokenUrl?: unknown } | undefined)?.tokenUrl;
  if (typeof tokenUrl !== "string" || tokenUrl === "") return undefined;
  try {
    return new URL(tokenUrl, baseUrl).href;
  } catch {
    return undefined;
  }
}

/**
 * The auth config an OAuth 2 or OpenID Connect scheme is requested and stored under; with the client's details
 * (`signIn.rawAuthCredential`), the request carries the sign-in URL.
 */
export function authConfigOf(scheme: SecurityScheme, scopes: readonly string[], signIn?: SignIn): AuthConfig {
  // Keyed by the scheme alone, so that the answer is found whatever scopes an operation asked for.
  const credentialKey = signIn?.credentialKey ?? credentialKeyOf({ authScheme: { ...scheme, type: scheme.type } });
  return { authScheme: { ...scheme, type: scheme.type, scopes: [...scopes] }, credentialKey, ...(signIn?.rawAuthCredential ? { rawAuthCredential: signIn.rawAuthCredential } : {}) };
}

function suppliedCredential(scheme: SecurityScheme, context: ToolContext, signIn: SignIn | undefined): ApiCredential | undefined {
  if (scheme.type !== "oauth2" && scheme.type !== "openIdConnect") return undefined;
  const response = context.getAuthResponse(authConfigOf(scheme, [], signIn));
  // Clients answer with OAuth 2 tokens, or some with a bare accessToken field.
  const token = response?.oauth2?.accessToken ?? (response as { accessToken?: unknown } | undefined)?.accessToken;
  return typeof token === "string" ? { accessToken: token } : undefined;
}

function apply(scheme: SecurityScheme, credential: ApiCredential, auth: AppliedAuth): boolean {
  if (scheme.type === "apiKey" && "apiKey" in credential && scheme.name) {
    if (scheme.in === "query") auth.query.push([scheme.name, credential.apiKey]);
    else if (scheme.in === "cookie") auth.cookies.push([scheme.name, credential.apiKey]);
    else auth.headers[scheme.name] = credential.apiKey;
    return true;
  }
  if (scheme.type === "http" && scheme.scheme?.toLowerCase() === "basic" && "username" in credential) {
    auth.headers.Authorization = `Basic ${Buffer.from(`${credential.username}:${credential.password}`).toString("base64")}`;
    return true;
  }
  if (scheme.type === "http" && "token" in credential) {
    auth.headers.Authorization = `${scheme.scheme?.toLowerCase() === "bearer" ? "Bearer" : scheme.scheme} ${credential.token}`;
    return true;
  }
  if ((scheme.type === "oauth2" || scheme.type === "openIdConnect") && "accessToken" in credential) {
    auth.headers.Authorization = `Bearer ${credential.accessToken}`;
    return true;
  }
  return false;
}

function emptyAuth(): AppliedAuth {
  return { headers: {}, query: [], cookies: [] };
}
