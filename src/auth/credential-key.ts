import type { AuthConfig } from "../events/event-actions.js";

/** The key a credential is stored under: the auth config's `credentialKey`, else one stable for the same scheme. */
export function credentialKeyOf(authConfig: AuthConfig): string {
  return authConfig.credentialKey ?? `adk_${authConfig.authScheme.type}_${stableHash(JSON.stringify(authConfig.authScheme))}`;
}

function stableHash(text: string): string {
  let hash = 5381;
  for (let index = 0; index < text.length; index++) hash = ((hash * 33) ^ text.charCodeAt(index)) >>> 0;
  return hash.toString(36);
}
