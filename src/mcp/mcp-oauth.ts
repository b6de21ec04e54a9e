import { AsyncLocalStorage } from "node:async_hooks";
import { createHash, randomBytes } from "node:crypto";
import { auth, UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { suppliedCredentialKey } from "../auth/credential-flow.js";
import { InMemoryCredentialService, type AuthCredential, type CredentialScope, type CredentialService } from "../auth/credential-service.js";
import { CredentialExchangeError, OAuth2Error, signInUrl } from "../auth/oauth2.js";
import type { AuthConfig } from "../events/event-actions.js";
import { State } from "../sessions/state.js";
import type { ToolContext } from "../tools/tool-context.js";

/** OAuth 2.1 for an MCP server behind authorization (MCP authorization spec), through the MCP SDK's client auth. */
export interface McpOAuthOptions {
  /**
   * `authorization_code` (default): a person signs in; in a run the call
   * pauses with a credential request (the UI and `toolsmith run` show the
   * sign-in link). `client_credentials`: machine to machine, with
   * `clientSecret` or `privateKeyPem`.
   */
  grant?: "authorization_code" | "client_credentials";
  /** A pre-registered client; without it the client registers itself (dynamic client registration) or uses `clientMetadataUrl`. */
  clientId?: string;
  clientSecret?: string;
  /** For `client_credentials` with `private_key_jwt`: the PEM private key and its algorithm (default ES256). */
  privateKeyPem?: string;
  signingAlgorithm?: string;
  /** Where the authorization server sends the person back (authorization code grant). Default `http://localhost:8000/dev-ui/oauth-callback`. */
  redirectUri?: string;
  /** The scope to ask for when the server names none (the server's `WWW-Authenticate` scope and `scopes_supported` come first). */
  scope?: string;
  /** The name shown to the person on the consent screen when registering dynamically. Default `"toolsmith"`. */
  clientName?: string;
  /** A Client ID Metadata Document URL, used as the client id where the authorization server supports it. */
  clientMetadataUrl?: string;
  /** Where tokens live, per app and user. Default: this process's memory. Tokens never enter events, state or logs. */
  credentialService?: CredentialService;
  /**
   * Signs in without a run (scripts, tests): given the sign-in URL, resolves
   * with the URL the person's browser was sent back to. Without it, calls
   * outside a run that need sign-in fail with a message saying so.
   */
  authorize?: (authorizationUrl: URL) => Promise<string>;
}

/** Raised where sign-in is needed but no person can be asked (outside a run, without `authorize`). */
export class McpSignInNeeded extends OAuth2Error {
  constructor(message: string) {
    super("OAUTH2_NO_CODE", message);
  }
}

/** Whose tokens the current request uses: the user of the call in flight. */
const currentScope = new AsyncLocalStorage<CredentialScope>();
const NO_RUN_SCOPE: CredentialScope = { appName: "mcp", userId: "default", state: new State({}, {}) };

/** What a pending sign-in keeps until the person comes back. */
interface PendingSignIn {
  authorizationUrl: URL;
  state: string;
  codeVerifier?: string;
}

/**
 * The MCP SDK's {@link OAuthClientProvider} over toolsmith's credential
 * service: tokens are stored per app and user under a key derived from the
 * server URL. A pending sign-in (its state, PKCE verifier, sign-in URL and the
 * client it was issued for) is stored there too, under `<key>_pending`, so a
 * process that restarted while the person was signing in can still finish it;
 * discovery is kept in memory (it is redone when needed).
 */
class CredentialServiceOAuthProvider implements OAuthClientProvider {
  readonly #options: McpOAuthOptions;
  readonly #credentialKey: string;
  readonly #service: CredentialService;
  #clientInformation: OAuthClientInformationMixed | undefined;
  readonly #pending = new Map<string, PendingSignIn>();
  #discovery: unknown;

  constructor(serverUrl: string, options: McpOAuthOptions) {
    this.#options = options;
    this.#credentialKey = `mcp_oauth_${createHash("sha256").update(serverUrl).digest("base64url").slice(0, 16)}`;
    this.#service = options.credentialService ?? new InMemoryCredentialService();
    if (options.clientId) this.#clientInformation = { client_id: options.clientId, ...(options.clientSecret ? { client_secret: options.clientSecret } : {}) };
  }

  get credentialKey(): string {
    return this.#credentialKey;
  }

  /** Where the current user's pending sign-in is stored. */
  get #pendingKey(): string {
    return `${this.#credentialKey}_pending`;
  }

  get redirectUrl(): string {
    return this.#options.redirectUri ?? "http://localhost:8000/dev-ui/oauth-callback";
  }

  get clientMetadataUrl(): string | undefined {
    return this.#options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.#options.clientName ?? "toolsmith",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.#options.clientSecret ? "client_secret_basic" : "none",
      ...(this.#options.scope ? { scope: this.#options.scope } : {}),
    };
  }

  state(): string {
    const state = randomBytes(16).toString("base64url");
    this.#pendingFor().state = state;
    return state;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    if (this.#clientInformation) return this.#clientInformation;
    // Registered dynamically before a restart: the pending sign-in's code was issued to that client.
    const stored = (await this.#storedPending())?.client;
    return stored?.client_id ? stored : undefined;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.#clientInformation = information;
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const credential = await this.#service.loadCredential({ context: scope(), credentialKey: this.#credentialKey });
    const oauth2 = credential?.oauth2;
    if (!oauth2?.accessToken) return undefined;
    const expiresIn = oauth2.expiresAt === undefined ? undefined : Math.max(0, oauth2.expiresAt - Math.floor(Date.now() / 1000));
    return { access_token: oauth2.accessToken, token_type: "Bearer", ...(oauth2.refreshToken ? { refresh_token: oauth2.refreshToken } : {}), ...(expiresIn !== undefined ? { expires_in: expiresIn } : {}) };
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const expiresAt = tokens.expires_in === undefined ? undefined : Math.floor(Date.now() / 1000) + tokens.expires_in;
    await this.#service.saveCredential({
      context: scope(),
      credentialKey: this.#credentialKey,
      credential: { authType: "oauth2", oauth2: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token, expiresAt } },
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    // The SDK refuses javascript:, data: and vbscript: endpoints; a sign-in link is only ever a web address.
    signInUrl(authorizationUrl, "It came from the MCP server's authorization server (its authorization_endpoint): ask the server's operator to fix its metadata.");
    const pending = this.#pendingFor();
    pending.authorizationUrl = authorizationUrl;
    // The last step of starting a sign-in (state and verifier are set by now): stored, so a restart can finish it.
    const client = this.#clientInformation;
    await this.#service.saveCredential({
      context: scope(),
      credentialKey: this.#pendingKey,
      credential: {
        authType: "oauth2",
        oauth2: {
          authUri: authorizationUrl.toString(),
          state: pending.state,
          codeVerifier: pending.codeVerifier,
          redirectUri: this.redirectUrl,
          ...(client ? { clientId: client.client_id, clientSecret: client.client_secret } : {}),
        },
      },
    });
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#pendingFor().codeVerifier = codeVerifier;
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.pendingSignIn())?.codeVerifier;
    if (!verifier) throw new CredentialExchangeError("No sign-in is pending for this user; the redirect is refused. Start the call again to sign in.", { code: "OAUTH2_STATE_MISMATCH" });
    return verifier;
  }

  saveDiscoveryState(state: unknown): void {
    this.#discovery = state;
  }

  discoveryState(): never {
    return this.#discovery as never;
  }

  async invalidateCredentials(which: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (which === "all" || which === "client") this.#clientInformation = this.#options.clientId ? this.#clientInformation : undefined;
    if (which === "all" || which === "tokens") await this.#service.saveCredential({ context: scope(), credentialKey: this.#credentialKey, credential: { authType: "oauth2", oauth2: {} } });
    if (which === "all" || which === "verifier") {
      this.#pending.delete(userKey());
      // Used once: the stored copy is emptied (a credential service has no delete), so no second exchange can use it.
      await this.#service.saveCredential({ context: scope(), credentialKey: this.#pendingKey, credential: { authType: "oauth2", oauth2: {} } });
    }
    if (which === "all" || which === "discovery") this.#discovery = undefined;
  }

  /** The sign-in started for the current user, if any: this process's, else the stored one (started before a restart). */
  async pendingSignIn(): Promise<PendingSignIn | undefined> {
    const pending = this.#pending.get(userKey());
    if (pending?.authorizationUrl && pending.authorizationUrl.protocol !== "about:") return pending;
    const stored = await this.#storedPending();
    if (!stored) return undefined;
    this.#pending.set(userKey(), stored.pending);
    return stored.pending;
  }

  async #storedPending(): Promise<{ pending: PendingSignIn; client?: OAuthClientInformationMixed } | undefined> {
    const oauth2 = (await this.#service.loadCredential({ context: scope(), credentialKey: this.#pendingKey }))?.oauth2;
    if (!oauth2?.authUri || !oauth2.state || !oauth2.codeVerifier) return undefined;
    return {
      pending: { authorizationUrl: new URL(oauth2.authUri), state: oauth2.state, codeVerifier: oauth2.codeVerifier },
      ...(oauth2.clientId ? { client: { client_id: oauth2.clientId, ...(oauth2.clientSecret ? { client_secret: oauth2.clientSecret } : {}) } } : {}),
    };
  }

  /** The authorization code in the URL the person came back to, after checking it answers this user's sign-in. */
  async codeFromRedirect(redirectUrl: string): Promise<string> {
    const redirect = new URL(redirectUrl);
    const error = redirect.searchParams.get("error");
    if (error) throw new CredentialExchangeError(`Sign-in to the MCP server was not completed: ${error}. Ask the user to sign in again.`, { code: "OAUTH2_DENIED" });
    const pending = await this.pendingSignIn();
    if (!pending || redirect.searchParams.get("state") !== pending.state) {
      throw new CredentialExchangeError("The sign-in redirect carries another state than the one issued for this user; it is refused. Ask the user to sign in again.", { code: "OAUTH2_STATE_MISMATCH" });
    }
    const code = redirect.searchParams.get("code");
    if (!code) throw new CredentialExchangeError("The sign-in redirect has no authorization code. Send the full redirect URL as exchangedAuthCredential.oauth2.authResponseUri.", { code: "OAUTH2_NO_CODE" });
    return code;
  }

  #pendingFor(): PendingSignIn {
    let pending = this.#pending.get(userKey());
    if (!pending) this.#pending.set(userKey(), (pending = { authorizationUrl: new URL("about:blank"), state: "" }));
    return pending;
  }
}

function scope(): CredentialScope {
  return currentScope.getStore() ?? NO_RUN_SCOPE;
}

function userKey(): string {
  const { appName, userId } = scope();
  return `${appName}/${userId}`;
}

/** The result of an operation that needed the person to sign in first: the run pauses with a credential request. */
export const WAITING_FOR_SIGN_IN = { status: "pending", message: "Waiting for the user to sign in to the MCP server. Tell the user; the call runs once they have." };

/**
 * Authorization for one toolset's server: the provider its transports use,
 * and {@link McpAuthorization.run}, which runs an operation and, when the
 * server asks for sign-in, finishes it (by the `authorize` option, or by the
 * person's answer to a credential request in a run) and runs it again.
 */
export class McpAuthorization {
  readonly provider: OAuthClientProvider;
  readonly #serverUrl: string;
  readonly #options: McpOAuthOptions;
  readonly #signIn?: CredentialServiceOAuthProvider;

  constructor(serverUrl: string, options: McpOAuthOptions) {
    this.#serverUrl = serverUrl;
    this.#options = options;
    if (options.grant === "client_credentials") {
      if (!options.clientId) throw new OAuth2Error("OAUTH2_NO_CODE", "The client_credentials grant needs a clientId (and a clientSecret or privateKeyPem).");
      this.provider = options.privateKeyPem
        ? new PrivateKeyJwtProvider({ clientId: options.clientId, privateKey: options.privateKeyPem, algorithm: options.signingAlgorithm ?? "ES256", ...(options.scope ? { scope: options.scope } : {}) })
        : new ClientCredentialsProvider({ clientId: options.clientId, clientSecret: options.clientSecret ?? "", ...(options.scope ? { scope: options.scope } : {}) });
    } else {
      this.#signIn = new CredentialServiceOAuthProvider(serverUrl, options);
      this.provider = this.#signIn;
    }
  }

  /**
   * Which MCP session the current request belongs to. Each user who signs in has a session of their own: a server
   * may bind its sessions to the user who opened them (as MCP's security practices advise), may list other tools
   * to other users, and sends its questions and log messages on the session of the call they concern. With one
   * identity for everyone (`client_credentials`) one session serves all.
   */
  sessionKey(): string {
    if (!this.#signIn) return "";
    const { appName, userId } = scope();
    return JSON.stringify([appName, userId]);
  }

  /** The auth config of this server's sign-in, as a credential request carries it (sign-in URL and state; no secret). */
  authConfig(pending?: PendingSignIn): AuthConfig {
    return {
      authScheme: { type: "oauth2", mcpServer: this.#serverUrl },
      credentialKey: this.#signIn!.credentialKey,
      ...(pending ? { exchangedAuthCredential: { authType: "oauth2", oauth2: { authUri: pending.authorizationUrl.toString(), state: pending.state, redirectUri: this.#signIn!.redirectUrl } } } : {}),
    };
  }

  /**
   * Runs `work` for the user of `context` (or outside a run), signing in
   * when the server asks: at most twice, so a server that keeps refusing
   * (say, a scope never granted) ends with an error rather than a loop.
   */
  async run<T>(work: () => Promise<T>, context?: ToolContext, listingScope?: CredentialScope): Promise<T | typeof WAITING_FOR_SIGN_IN> {
    return currentScope.run(context ?? listingScope ?? scope(), async () => {
      // Resumed after the person signed in: finish that sign-in before calling, since a new attempt would start another.
      const asking = context ?? listingScope;
      const pending = await this.#signIn?.pendingSignIn();
      const answered = asking && pending ? asking.state.get<AuthCredential>(suppliedCredentialKey(this.authConfig()))?.oauth2?.authResponseUri : undefined;
      if (answered) await this.#finishSignIn(answered);
      // A listing while the person is signing in must not start another sign-in (its new state would refuse their answer).
      else if (pending && !context && !this.#options.authorize) throw new McpSignInNeeded(`The MCP server ${this.#serverUrl} is waiting for the user to sign in.`);
      for (let attempt = 0; ; attempt++) {
        try {
          return await work();
        } catch (error) {
          if (!(error instanceof UnauthorizedError) || !this.#signIn || attempt >= 2) throw error;
          const pending = await this.#signIn.pendingSignIn();
          // The connection and the tool listing are shared: this caller may have joined another caller's attempt
          // (a listing outside any run, another user's call), whose refusal started a sign-in for that caller. The
          // server refused the request, so nothing ran: trying again starts this caller's own sign-in.
          if (!pending) continue;
          if (this.#options.authorize) {
            await this.#finishSignIn(await this.#options.authorize(pending.authorizationUrl));
            continue;
          }
          if (!context) {
            throw new McpSignInNeeded(
              `The MCP server ${this.#serverUrl} needs sign-in. Use its tools from an agent's run (the run pauses for the user to sign in), or give auth.authorize to sign in from code.`,
            );
          }
          context.requestCredential(this.authConfig(pending));
          return WAITING_FOR_SIGN_IN;
        }
      }
    });
  }

  /** Exchanges the code in the URL the person came back to for tokens (saved by the provider), once. */
  async #finishSignIn(redirectUrl: string): Promise<void> {
    const code = await this.#signIn!.codeFromRedirect(redirectUrl);
    await auth(this.provider, { serverUrl: this.#serverUrl, authorizationCode: code });
    await this.#signIn!.invalidateCredentials("verifier");
  }
}
