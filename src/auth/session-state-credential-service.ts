import type { AuthConfig } from "../events/event-actions.js";
import { credentialRequestOf, type AuthCredential, type CredentialRequest, type CredentialScope, type CredentialService } from "./credential-service.js";

/**
 * ADK's `SessionStateCredentialService`: credentials kept in the session's state under their `credentialKey` (a
 * key with the `user:` or `app:` prefix reaches wider, as any state key does). The state is stored with the
 * session, in the clear: as ADK warns, use it only where the session store is trusted with secrets; toolsmith's
 * `SqliteCredentialService` and `PostgresCredentialService` encrypt instead.
 *
 * It answers ADK's calls, `loadCredential(authConfig, toolContext)` and `saveCredential(authConfig, toolContext)`
 * (which saves `authConfig.exchangedAuthCredential`, if there is one), and toolsmith's {@link CredentialService}
 * calls, through which a run saves the credential a person gave and loads it at the next call. Both read and write
 * the same state key, so a credential a run saved is found by a tool calling the service by hand, and the other way
 * round.
 *
 * @example
 * ```ts
 * const runner = new Runner({ appName: "app", agent, sessionService, credentialService: new SessionStateCredentialService() });
 * ```
 */
export class SessionStateCredentialService implements CredentialService {
  /** The credential saved under the request's key, from the state of the session asking. */
  loadCredential(request: CredentialRequest): Promise<AuthCredential | undefined>;
  /** ADK's form: the credential saved under `authConfig.credentialKey`, from `toolContext.state`. */
  loadCredential(authConfig: AuthConfig, toolContext: CredentialScope): Promise<AuthCredential | undefined>;
  async loadCredential(first: CredentialRequest | AuthConfig, toolContext?: CredentialScope): Promise<AuthCredential | undefined> {
    const { context, credentialKey } = credentialRequestOf(first, toolContext, "state");
    return context.state.get<AuthCredential>(credentialKey);
  }

  /** Saves the credential under the request's key, in the state of the session asking. */
  saveCredential(request: CredentialRequest & { credential: AuthCredential }): Promise<void>;
  /** ADK's form: saves `authConfig.exchangedAuthCredential` (nothing when it has none) under `authConfig.credentialKey`. */
  saveCredential(authConfig: AuthConfig, toolContext: CredentialScope): Promise<void>;
  async saveCredential(first: (CredentialRequest & { credential: AuthCredential }) | AuthConfig, toolContext?: CredentialScope): Promise<void> {
    const { context, credentialKey, credential } = credentialRequestOf(first, toolContext, "state");
    if (credential) context.state.set(credentialKey, credential);
  }
}
