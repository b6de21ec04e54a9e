import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { AuthConfig, AuthCredential } from "../events/event-actions.js";
import { credentialKeyOf } from "./credential-key.js";
import type { State } from "../sessions/state.js";

export type { AuthCredential };

/**
 * Whose credential: the app and user, and the session state of the call
 * asking (where {@link StateCredentialService} keeps credentials). A
 * `ToolContext` is one.
 */
export interface CredentialScope {
  readonly appName: string;
  readonly userId: string;
  readonly state: State;
}

/** Options of the {@link CredentialService} methods: where, and which credential. */
export interface CredentialRequest {
  context: CredentialScope;
  credentialKey: string;
}

/**
 * Keeps credentials per user, so a user signs in once. Two implementations:
 * {@link InMemoryCredentialService} (this process) and
 * {@link StateCredentialService} (the user's state, stored with the sessions).
 */
export interface CredentialService {
  loadCredential(request: CredentialRequest): Promise<AuthCredential | undefined>;
  saveCredential(request: CredentialRequest & { credential: AuthCredential }): Promise<void>;
}

/**
 * A credential service's call in ADK's form, `(authConfig, toolContext)`, or toolsmith's, `(request)`, as toolsmith's
 * request: ADK's gives the auth config's key and, to save, its `exchangedAuthCredential` (none: nothing to save).
 */
export function credentialRequestOf(first: CredentialRequest | AuthConfig, toolContext: CredentialScope | undefined, needs: CredentialContextNeeds = "user"): CredentialRequest & { credential?: AuthCredential } {
  if (!toolContext) {
    assertCredentialRequest(first, { needs });
    return first as CredentialRequest & { credential?: AuthCredential };
  }
  const authConfig = first as AuthConfig;
  const request = { context: toolContext, credentialKey: credentialKeyOf(authConfig), credential: authConfig.exchangedAuthCredential };
  assertCredentialRequest(request, { needs });
  return request;
}

/** What a credential service reads of a request's context: the app and user it keeps credentials under, or only the session's state it keeps them in. */
export type CredentialContextNeeds = "user" | "state";

/**
 * Refuses a credential request without the app and user it belongs to, without a key, or with a credential that is
 * no object, before anything is read or kept: a credential filed under a missing user would reach no one, or the
 * wrong one.
 */
export function assertCredentialRequest(request: unknown, { saving = false, needs = "user" }: { saving?: boolean; needs?: CredentialContextNeeds } = {}): asserts request is CredentialRequest & { credential?: AuthCredential } {
  const given = request as Partial<CredentialRequest & { credential: unknown }> | null;
  const refuse = (message: string): never => {
    throw new ConfigurationError("UNSUPPORTED_OPTION", message);
  };
  if (typeof given !== "object" || given === null) refuse("A credential request is { context, credentialKey } (and credential, to save): context names the app and user, as a tool context does.");
  const context = given!.context as Partial<CredentialScope> | null | undefined;
  if (needs === "state") {
    if (typeof context !== "object" || context === null || typeof context.state?.get !== "function") refuse("A credential request needs its context: the session state the credential is kept in (a tool or callback context).");
  } else if (typeof context !== "object" || context === null || typeof context.appName !== "string" || context.appName === "" || typeof context.userId !== "string" || context.userId === "") {
    refuse("A credential request needs its context: the app and user the credential belongs to (a tool or callback context, or { appName, userId, state }).");
  }
  if (typeof given!.credentialKey !== "string" || given!.credentialKey === "") refuse(`A credential request needs credentialKey, the name the credential is kept under; it got ${given!.credentialKey === undefined ? "nothing" : JSON.stringify(given!.credentialKey) ?? typeof given!.credentialKey}.`);
  const credential = given!.credential;
  if (saving && credential === undefined) refuse('A credential to save is an object such as { authType: "apiKey", apiKey: "…" }; it got nothing.');
  if (credential !== undefined && (typeof credential !== "object" || credential === null || Array.isArray(credential))) {
    refuse(`A credential to save is an object such as { authType: "apiKey", apiKey: "…" }; it got ${credential === null ? "null" : Array.isArray(credential) ? "a list" : `a ${typeof credential}`}.`);
  }
}

/**
 * Credentials in this process's memory, per app and user. It answers toolsmith's calls (`{ context, credentialKey }`)
 * and ADK's (`loadCredential(authConfig, toolContext)`, and `saveCredential(authConfig, toolContext)`, which keeps
 * `authConfig.exchangedAuthCredential`), both under the same key.
 */
export class InMemoryCredentialService implements CredentialService {
  readonly #credentials = new Map<string, AuthCredential>();

  /** The credential saved for the request's app, user and key. */
  loadCredential(request: CredentialRequest): Promise<AuthCredential | undefined>;
  /** ADK's form: the credential saved for the tool context's app and user under `authConfig.credentialKey`. */
  loadCredential(authConfig: AuthConfig, toolContext: CredentialScope): Promise<AuthCredential | undefined>;
  async loadCredential(first: CredentialRequest | AuthConfig, toolContext?: CredentialScope): Promise<AuthCredential | undefined> {
    const { context, credentialKey } = credentialRequestOf(first, toolContext);
    return this.#credentials.get(storeKey(context, credentialKey));
  }

  /** Saves the credential for the request's app, user and key. */
  saveCredential(request: CredentialRequest & { credential: AuthCredential }): Promise<void>;
  /** ADK's form: saves `authConfig.exchangedAuthCredential` (nothing when it has none) for the tool context's app and user. */
  saveCredential(authConfig: AuthConfig, toolContext: CredentialScope): Promise<void>;
  async saveCredential(first: (CredentialRequest & { credential: AuthCredential }) | AuthConfig, toolContext?: CredentialScope): Promise<void> {
    const { context, credentialKey, credential } = credentialRequestOf(first, toolContext);
    if (credential) this.#credentials.set(storeKey(context, credentialKey), credential);
  }
}

/** One key per app, user and credential key; as a JSON list, so an app named `a/b` and a user `c` stay apart from app `a` and user `b/c`. */
function storeKey(context: CredentialScope, credentialKey: string): string {
  return JSON.stringify([context.appName, context.userId, credentialKey]);
}

/**
 * Credentials in the user's state (`user:credential:<key>`), so they last as
 * long as the sessions do and every session of the user sees them. The state
 * is stored in the session store: use it only where that store is trusted
 * with secrets.
 */
export class StateCredentialService implements CredentialService {
  async loadCredential({ context, credentialKey }: CredentialRequest): Promise<AuthCredential | undefined> {
    return context.state.get<AuthCredential>(`user:credential:${credentialKey}`);
  }

  async saveCredential({ context, credentialKey, credential }: CredentialRequest & { credential: AuthCredential }): Promise<void> {
    context.state.set(`user:credential:${credentialKey}`, credential);
  }
}
