import { acceptCredential, credentialKeyOf, credentialRequest, loadCredential, suppliedCredentialKey, type CredentialFlowOptions } from "../auth/credential-flow.js";
import type { AuthConfig } from "../events/event-actions.js";
import type { Event } from "../events/event.js";
import { nodeCredentialRequestEvents } from "../pause/client-requests.js";
import type { NodeContext } from "./node.js";

/**
 * The credential gate of a function node with `authConfig` (ADK's): `undefined` when the node may run, with the
 * credential in its state under `temp:<credentialKey>` (where ADK's node reads it); else the events that ask the
 * client for it, and the node waits. The credential is the one the client's answer in this run brings (an OAuth 2
 * code is exchanged for tokens), else one supplied earlier in this invocation or saved by the runner's
 * credential service (expired OAuth 2 tokens refreshed). An answer is saved with the credential service, so the
 * node does not ask again in later runs (ADK's asks in every invocation: it keeps the credential in `temp:` state
 * only).
 */
export async function nodeCredentialGate(ctx: NodeContext, authConfig: AuthConfig, author: string): Promise<Event[] | undefined> {
  const invocation = ctx.invocationContext;
  const options: CredentialFlowOptions = {
    scope: { appName: invocation.session.appName, userId: invocation.session.userId, state: ctx.state },
    service: invocation.credentialService,
    signal: ctx.abortSignal,
  };
  const key = credentialKeyOf(authConfig);
  for (const [id, answer] of invocation.resumeAnswers ?? []) {
    const credential = answer.credential;
    // Only an answer to this node's request: its id is among the node's answered questions, for this credential.
    if (!credential || !(id in ctx.resumeInputs) || credentialKeyOf(credential.requested ?? credential.answer) !== key) continue;
    await acceptCredential(credential, options);
    return undefined;
  }
  const credential = await loadCredential(authConfig, options);
  if (credential) {
    ctx.state.set(suppliedCredentialKey(authConfig), credential);
    return undefined;
  }
  // With its key, and for an OAuth 2 sign-in the URL with a fresh PKCE pair, as a tool's request has them.
  return nodeCredentialRequestEvents(invocation, author, credentialRequest(authConfig), credentialMessage(authConfig));
}

/** What the request tells the person, as ADK words it for each kind of credential. */
function credentialMessage(authConfig: AuthConfig): string {
  const kind = authConfig.rawAuthCredential?.authType;
  if (kind === "apiKey") return "Please provide your API key.";
  if (kind === "oauth2") return "Please complete the authentication flow.";
  return "Please provide your authentication credentials.";
}
