import type { AuthConfig } from "../events/event-actions.js";
import type { ToolContext } from "../tools/tool-context.js";
import { credentialKeyOf } from "../tools/tool-context.js";
import type { AuthCredential } from "./credential-service.js";
import { exchangeAuthorizationCode, type AuthorizationCodeFlow } from "./oauth2.js";

/** The authorization-code flow of an OAuth 2 scheme, if it has one. */
export function authorizationCodeFlow(authConfig: AuthConfig): AuthorizationCodeFlow | undefined {
  if (authConfig.authScheme.type !== "oauth2") return undefined;
  const flows = authConfig.authScheme.flows as { authorizationCode?: AuthorizationCodeFlow } | undefined;
  return flows?.authorizationCode;
}

/** The request this call made, as stored (with its PKCE verifier, which the client never saw). */
function storedRequest(context: ToolContext): AuthConfig | undefined {
  const events = context.invocationContext.session.events;
  for (let index = events.length - 1; index >= 0; index--) {
    const requested = events[index]!.actions.requestedAuthConfigs[context.functionCallId];
    if (requested) return requested;
  }
  return undefined;
}

/**
 * Takes the client's answer to a credential request: exchanges an OAuth 2
 * authorization code for tokens (checking state and PKCE), then makes the
 * credential readable by `getAuthResponse` for this run and saves it with the
 * credential service for later runs.
 */
export async function acceptCredential(context: ToolContext, answer: AuthConfig): Promise<AuthCredential> {
  const requested = storedRequest(context) ?? answer;
  const flow = authorizationCodeFlow(requested);
  const answered = answer.exchangedAuthCredential;
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
      context.abortSignal,
    );
    credential = { authType: "oauth2", oauth2: { ...tokens, clientId: raw.clientId, clientSecret: raw.clientSecret } };
  } else {
    credential = (answered ?? answer.rawAuthCredential)!;
  }
  const credentialKey = credentialKeyOf(requested);
  context.state.set(`temp:${credentialKey}`, credential);
  await context.invocationContext.credentialService?.saveCredential({ context, credentialKey, credential });
  return credential;
}
