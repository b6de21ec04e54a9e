import type { AuthCredential } from "../events/event-actions.js";
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

/** Credentials in this process's memory, per app and user. */
export class InMemoryCredentialService implements CredentialService {
  readonly #credentials = new Map<string, AuthCredential>();

  async loadCredential({ context, credentialKey }: CredentialRequest): Promise<AuthCredential | undefined> {
    return this.#credentials.get(`${context.appName}/${context.userId}/${credentialKey}`);
  }

  async saveCredential({ context, credentialKey, credential }: CredentialRequest & { credential: AuthCredential }): Promise<void> {
    this.#credentials.set(`${context.appName}/${context.userId}/${credentialKey}`, credential);
  }
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
