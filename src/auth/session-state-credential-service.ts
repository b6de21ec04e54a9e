import type { AuthConfig } from "../events/event-actions.js";
import type { State } from "../sessions/state.js";
import { credentialKeyOf } from "./credential-flow.js";
import type { AuthCredential, CredentialRequest, CredentialService } from "./credential-service.js";

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
  loadCredential(authConfig: AuthConfig, toolContext: { readonly state: State }): Promise<AuthCredential | undefined>;
  async loadCredential(first: CredentialRequest | AuthConfig, toolContext?: { readonly state: State }): Promise<AuthCredential | undefined> {
    if (toolContext) return toolContext.state.get<AuthCredential>(credentialKeyOf(first as AuthConfig));
    const { context, credentialKey } = first as CredentialRequest;
    return context.state.get<AuthCredential>(credentialKey);
  }

  /** Saves the credential under the request's key, in the state of the session asking. */
  saveCredential(request: CredentialRequest & { credential: AuthCredential }): Promise<void>;
  /** ADK's form: saves `authConfig.exchangedAuthCredential` (nothing when it has none) under `authConfig.credentialKey`. */
  saveCredential(authConfig: AuthConfig, toolContext: { readonly state: State }): Promise<void>;
  async saveCredential(first: (CredentialRequest & { credential: AuthCredential }) | AuthConfig, toolContext?: { readonly state: State }): Promise<void> {
    if (toolContext) {
      const authConfig = first as AuthConfig;
      if (authConfig.exchangedAuthCredential) toolContext.state.set(credentialKeyOf(authConfig), authConfig.exchangedAuthCredential);
      return;
    }
    const { context, credentialKey, credential } = first as CredentialRequest & { credential: AuthCredential };
    context.state.set(credentialKey, credential);
  }
}
