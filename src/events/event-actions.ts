/**
 * What a human is asked to approve before a tool call runs, and their answer.
 * A class as in ADK (`new ToolConfirmation({ confirmed: true })`, with `hint`
 * `""` when not given); a plain object of the same shape is one too.
 */
export class ToolConfirmation {
  /** Shown to the person who decides. */
  hint?: string;
  /** The decision; `false` until a person confirms. */
  confirmed: boolean;
  /** Structured data for the decision, returned with it. */
  payload?: unknown;

  constructor({ hint = "", confirmed, payload }: { hint?: string; confirmed: boolean; payload?: unknown }) {
    this.hint = hint;
    this.confirmed = confirmed;
    this.payload = payload;
  }
}

/**
 * ADK's names for the kinds of credential, with ADK's values: `authType: AuthCredentialTypes.API_KEY` is
 * `authType: "apiKey"`. toolsmith's {@link AuthCredential} takes `API_KEY`, `HTTP` and `OAUTH2`; OpenID Connect and
 * service-account credentials are not supported, so the compiler refuses the other two as an `authType`.
 */
export enum AuthCredentialTypes {
  API_KEY = "apiKey",
  HTTP = "http",
  OAUTH2 = "oauth2",
  OPEN_ID_CONNECT = "openIdConnect",
  SERVICE_ACCOUNT = "serviceAccount",
}

/** A credential a client supplied or toolsmith obtained: an API key, a bearer token, or OAuth 2 tokens. */
export interface AuthCredential {
  authType: "apiKey" | "http" | "oauth2";
  apiKey?: string;
  http?: { scheme: string; credentials: { token?: string; username?: string; password?: string } };
  oauth2?: {
    clientId?: string;
    clientSecret?: string;
    redirectUri?: string;
    authUri?: string;
    state?: string;
    codeVerifier?: string;
    /** The URL the authorization server redirected the user to, carrying the code. */
    authResponseUri?: string;
    authCode?: string;
    accessToken?: string;
    refreshToken?: string;
    /** Seconds since the epoch. */
    expiresAt?: number;
  };
}

/** Describes a credential a tool needs; see the credentials section of the README. */
export interface AuthConfig {
  /** The kind of credential: `apiKey`, `http` (bearer) or `oauth2`. */
  authScheme: Record<string, unknown> & { type: string };
  /** What the client filled in, when it answers. */
  /** What was obtained: the client's key or token, or OAuth 2 tokens (or, while signing in, the sign-in URL). */
  exchangedAuthCredential?: AuthCredential;
  /** What the app configured, such as the OAuth 2 client id and redirect URI. */
  rawAuthCredential?: AuthCredential;
  /** Names the credential so a later run finds it; derived from the scheme when absent. */
  credentialKey?: string;
}

/** The side effects an event carries, applied by the runner and the session service. */
export interface EventActions {
  /** The function response is the final answer: no model call follows it in this turn. */
  skipSummarization?: boolean;
  /** State changes, applied to the session when the event is appended. */
  stateDelta: Record<string, unknown>;
  /** Artifact name to the version this event saved. */
  artifactDelta: Record<string, number>;
  /** Hand the conversation to the named agent. */
  transferToAgent?: string;
  /** Stop the enclosing loop agent. */
  escalate?: boolean;
  /** Credentials requested by tool calls, keyed by function call id. */
  requestedAuthConfigs: Record<string, AuthConfig>;
  /** Confirmations requested by tool calls, keyed by function call id. */
  requestedToolConfirmations: Record<string, ToolConfirmation>;
}

/** A fresh, empty set of actions, optionally pre-filled. */
export function createEventActions(initial?: Partial<EventActions>): EventActions {
  if (!initial) return { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} };
  // The records first, in one literal (one shape for every copy), then the flags the initial actions set.
  const actions: EventActions = {
    stateDelta: { ...initial.stateDelta },
    artifactDelta: { ...initial.artifactDelta },
    requestedAuthConfigs: { ...initial.requestedAuthConfigs },
    requestedToolConfirmations: { ...initial.requestedToolConfirmations },
  };
  for (const key in initial) if (!(key in actions)) (actions as unknown as Record<string, unknown>)[key] = (initial as Record<string, unknown>)[key];
  return actions;
}

/**
 * Merges the actions of several tool calls into one, in call order: for a key
 * written by two calls the later call wins; a flag set by any call is set.
 */
export function mergeEventActions(sources: readonly EventActions[]): EventActions {
  const merged = createEventActions();
  for (const source of sources) {
    Object.assign(merged.stateDelta, source.stateDelta);
    Object.assign(merged.artifactDelta, source.artifactDelta);
    Object.assign(merged.requestedAuthConfigs, source.requestedAuthConfigs);
    Object.assign(merged.requestedToolConfirmations, source.requestedToolConfirmations);
    if (source.skipSummarization) merged.skipSummarization = true;
    if (source.escalate) merged.escalate = true;
    if (source.transferToAgent) merged.transferToAgent = source.transferToAgent;
  }
  return merged;
}

const NONE: Record<string, never> = Object.freeze({});
const NO_ACTIONS: EventActions = Object.freeze({
  stateDelta: NONE,
  artifactDelta: NONE,
  requestedAuthConfigs: NONE,
  requestedToolConfirmations: NONE,
});

/** Whether a record (a state delta, an actions record) has any key: most are empty, and skip the work on them. */
export function hasKeys(record: object): boolean {
  for (const _ in record) return true;
  return false;
}

/**
 * The same actions for storage, with every empty record replaced by one shared
 * frozen object: most events carry no actions, and four empty objects per
 * stored event add up over thousands of sessions.
 */
export function compactEventActions(actions: EventActions, stateDelta: Record<string, unknown> = actions.stateDelta): EventActions {
  const emptyStateDelta = !hasKeys(stateDelta);
  const emptyArtifactDelta = !hasKeys(actions.artifactDelta);
  const emptyAuth = !hasKeys(actions.requestedAuthConfigs);
  const emptyConfirmations = !hasKeys(actions.requestedToolConfirmations);
  let otherFields = false;
  for (const key in actions) {
    if (!isRecordField(key) && actions[key as keyof EventActions] !== undefined) {
      otherFields = true;
      break;
    }
  }
  if (emptyStateDelta && emptyArtifactDelta && emptyAuth && emptyConfirmations && !otherFields) return NO_ACTIONS;
  const compact: EventActions = {
    stateDelta: emptyStateDelta ? NONE : stateDelta,
    artifactDelta: emptyArtifactDelta ? NONE : actions.artifactDelta,
    requestedAuthConfigs: emptyAuth ? NONE : actions.requestedAuthConfigs,
    requestedToolConfirmations: emptyConfirmations ? NONE : actions.requestedToolConfirmations,
  };
  if (otherFields) for (const key in actions) if (!isRecordField(key)) (compact as unknown as Record<string, unknown>)[key] = actions[key as keyof EventActions];
  return compact;
}

/** Whether a field is one of the four records every `EventActions` has (interned names: pointer checks, no hashing). */
function isRecordField(key: string): boolean {
  return key === "stateDelta" || key === "artifactDelta" || key === "requestedAuthConfigs" || key === "requestedToolConfirmations";
}
