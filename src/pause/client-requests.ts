import { toolCallIdsIn } from "../agents/branch.js";
import { getFunctionCalls, getFunctionResponses, type Content, type FunctionCall, type FunctionResponse } from "../content/content.js";
import type { AuthConfig, AuthCredential, EventActions, ToolConfirmation } from "../events/event-actions.js";
import { createEvent, type Event } from "../events/event.js";
import { generateClientFunctionCallId } from "../events/client-function-call-id.js";
import type { ClientAnswer, InvocationContext } from "../agents/invocation-context.js";
import type { CallIndex, LocatedCall } from "./call-index.js";
import { REQUEST_INPUT_FUNCTION_CALL_NAME } from "../tools/request-input-tool.js";
import { answersQuestion } from "./input-answers.js";
import { pausedResponse, pauseReasonOf } from "./paused-call.js";
import { ClientResponseError } from "./client-response-error.js";
import { IntentMismatchError } from "./intent-mismatch-error.js";

export type { ClientAnswer };

/** The function call that asks the client to confirm a tool call. */
export const REQUEST_CONFIRMATION = "adk_request_confirmation";
/** The function call that asks the client for a credential. */
export const REQUEST_CREDENTIAL = "adk_request_credential";
/** The calls the framework makes to ask the client; no tool answers them. */
export const CLIENT_FUNCTION_NAMES: ReadonlySet<string> = new Set([REQUEST_CONFIRMATION, REQUEST_CREDENTIAL]);

export { ClientResponseError };

/**
 * The event that asks the client to confirm calls or supply credentials, one
 * function call per request; its ids are in `longRunningToolIds`, so the run
 * pauses on it.
 */
export function clientRequestEvent(context: Pick<InvocationContext, "invocationId" | "branch">, agentName: string, calls: readonly FunctionCall[], actions: EventActions): Event | undefined {
  const parts = [];
  for (const call of calls) {
    const confirmation = actions.requestedToolConfirmations[call.id!];
    if (confirmation) {
      parts.push({
        functionCall: {
          id: generateClientFunctionCallId(),
          name: REQUEST_CONFIRMATION,
          args: { originalFunctionCall: { id: call.id, name: call.name, args: call.args ?? {} }, toolConfirmation: confirmation },
        },
      });
    }
    const authConfig = actions.requestedAuthConfigs[call.id!];
    if (authConfig) parts.push({ functionCall: { id: generateClientFunctionCallId(), name: REQUEST_CREDENTIAL, args: { functionCallId: call.id, authConfig: withoutSecrets(authConfig) } } });
  }
  if (parts.length === 0) return undefined;
  // As in ADK, the event that asks carries the confirmations it asks for, so a client reads them from it alone.
  const confirmations = Object.fromEntries(calls.flatMap((call) => (actions.requestedToolConfirmations[call.id!] ? [[call.id!, actions.requestedToolConfirmations[call.id!]!]] : [])));
  return createEvent({
    invocationId: context.invocationId,
    author: agentName,
    branch: context.branch,
    content: { role: "user", parts },
    longRunningToolIds: parts.map((part) => part.functionCall.id),
    actions: { requestedToolConfirmations: confirmations },
  });
}

/**
 * The events of a workflow node that asks for a credential before it runs (ADK's node `authConfig`): an
 * `adk_request_credential` call that stands for itself (its `functionCallId` is its own id, as in ADK), long-running,
 * with the request kept in its actions (the OAuth 2 verifier stays there; the client sees the request without it),
 * then the paused placeholder it holds until the client answers, as every call waiting for the client does.
 */
export function nodeCredentialRequestEvents(context: Pick<InvocationContext, "invocationId" | "branch">, author: string, request: AuthConfig, message: string): Event[] {
  const id = generateClientFunctionCallId();
  const base = { invocationId: context.invocationId, author, branch: context.branch };
  const call = createEvent({
    ...base,
    content: { role: "model", parts: [{ functionCall: { id, name: REQUEST_CREDENTIAL, args: { functionCallId: id, authConfig: withoutSecrets(request), message } } }] },
    longRunningToolIds: [id],
    actions: { requestedAuthConfigs: { [id]: request } },
  });
  const placeholder = createEvent({ ...base, content: { role: "user", parts: [{ functionResponse: { id, name: REQUEST_CREDENTIAL, response: pausedResponse("client") } }] } });
  return [call, placeholder];
}

/**
 * The call a confirmation request asks about (seed 001's `OriginalCallFrom`): the
 * `originalFunctionCall` of an `adk_request_confirmation` call, whether its
 * arguments arrived as an object or as JSON text. Throws a `ClientResponseError`
 * saying what is wrong for anything else.
 */
export function originalCallFrom(functionCall: FunctionCall): FunctionCall {
  if (functionCall.name !== REQUEST_CONFIRMATION) {
    throw new ClientResponseError("INVALID_CONFIRMATION", `The call ${JSON.stringify(functionCall.name)} is not a confirmation request (${REQUEST_CONFIRMATION}), so it wraps no original call.`);
  }
  let args: unknown = functionCall.args;
  if (typeof args === "string") {
    try {
      args = JSON.parse(args);
    } catch {
      throw new ClientResponseError("INVALID_CONFIRMATION", `The arguments of this ${REQUEST_CONFIRMATION} call are text that is not JSON.`);
    }
  }
  const original = (args as { originalFunctionCall?: unknown } | undefined)?.originalFunctionCall;
  if (typeof original !== "object" || original === null || typeof (original as FunctionCall).name !== "string") {
    throw new ClientResponseError("INVALID_CONFIRMATION", `This ${REQUEST_CONFIRMATION} call has no originalFunctionCall with a name.`);
  }
  return original as FunctionCall;
}

function responsesOf(message: Content | undefined): FunctionResponse[] {
  return (message?.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
}

/** The answer body, unwrapped from `{response: "<json>"}` as some clients send it. */
function answerBody(response: FunctionResponse): Record<string, unknown> {
  const inner = response.response?.response;
  if (typeof inner === "string") {
    try {
      return JSON.parse(inner) as Record<string, unknown>;
    } catch {
      return response.response ?? {};
    }
  }
  return response.response ?? {};
}

/**
 * Checks the function responses in a user message before it is stored, and
 * returns what they unlock. Refuses (throws {@link ClientResponseError}) an
 * answer to a request that does not exist, one already answered, one whose
 * call has since been answered, or one that names other arguments than the
 * call it confirms.
 */
export function readClientAnswers(index: CallIndex, message: Content | undefined): Map<string, ClientAnswer> {
  const answers = new Map<string, ClientAnswer>();
  const responses = responsesOf(message);
  if (responses.length === 0) return answers;

  for (const response of responses) {
    const located = response.id ? index.call(response.id) : undefined;
    if (!located || located.call.name !== response.name) {
      throw new ClientResponseError(
        "UNKNOWN_FUNCTION_CALL",
        `No function call "${response.name}" with id "${response.id}" is waiting for an answer in this session. Answer the id given in the request event.`,
      );
    }
    if (response.name === REQUEST_CONFIRMATION || response.name === REQUEST_CREDENTIAL) {
      // A workflow node's credential request stands for itself: its own paused placeholder is what waits.
      const standsForItself = response.name === REQUEST_CREDENTIAL && located.call.args?.functionCallId === response.id;
      if (!standsForItself && index.response(response.id!)) {
        throw new ClientResponseError("REQUEST_ALREADY_ANSWERED", `Request "${response.id}" was already answered; each answer is used once. Send a new request's id.`);
      }
      const args = located.call.args ?? {};
      if (response.name === REQUEST_CONFIRMATION) refuseUnboundRequest(index, response.id!, located);
      const originalId = (response.name === REQUEST_CONFIRMATION ? (args.originalFunctionCall as FunctionCall | undefined)?.id : args.functionCallId) as string | undefined;
      const original = originalId ? index.call(originalId) : undefined;
      if (!original || pauseReasonOf(index.response(originalId!)?.response) === undefined) {
        throw new ClientResponseError("REQUEST_ALREADY_ANSWERED", `The call that request "${response.id}" was about has already been answered. Nothing was changed.`);
      }
      const body = answerBody(response);
      if (response.name === REQUEST_CONFIRMATION) {
        refuseUnboundAnswer(response.id!, args.originalFunctionCall as FunctionCall, body.originalFunctionCall as FunctionCall | undefined, original.call);
        if (typeof body.confirmed !== "boolean") {
          throw new ClientResponseError("INVALID_CONFIRMATION", `The answer to "${response.id}" must be {"confirmed": true} or {"confirmed": false}, optionally with "payload".`);
        }
        const toolConfirmation = args.toolConfirmation as ToolConfirmation | undefined;
        answers.set(originalId!, { confirmation: { hint: toolConfirmation?.hint, confirmed: body.confirmed, payload: body.payload ?? toolConfirmation?.payload } });
      } else {
        answers.set(originalId!, { credential: { answer: body as unknown as AuthConfig, requested: index.authRequest(originalId!) } });
      }
    } else if (index.response(response.id!) && !isPendingLongRunning(located)) {
      throw new ClientResponseError("UNKNOWN_FUNCTION_CALL", `Function call "${response.id}" is not waiting for a result: it was not long-running, or it already has its final result.`);
    } else if (response.name === REQUEST_INPUT_FUNCTION_CALL_NAME && answersQuestion(response.id!, located.call.args, index.response(response.id!))) {
      // A long-running tool may send updates; a question is answered once (its asker has gone on with the answer).
      throw new ClientResponseError("REQUEST_ALREADY_ANSWERED", `Question "${response.id}" was already answered; each question takes one answer. Nothing was changed. Answer a question that is still waiting (getPendingUserInputRequests lists them), or send a new message.`);
    }
  }
  return answers;
}

/**
 * Refuses a confirmation request that does not bind to a call of the session (ADK's checks, in ADK's order): one
 * the user's own event holds, one naming no call, one naming a call the session does not have. A request naming a
 * call's other tool or other arguments is refused once the call is known to be waiting ({@link refuseUnboundAnswer}).
 */
function refuseUnboundRequest(index: CallIndex, requestId: string, request: LocatedCall): void {
  if (request.event.author === "user") {
    throw new IntentMismatchError({ reason: "untrusted_request", functionCallId: requestId, detail: "The confirmation request is in the user's own event, not one an agent raised; only a request the run made can be answered. Nothing was stored." });
  }
  const requested = request.call.args?.originalFunctionCall as FunctionCall | undefined;
  if (typeof requested?.id !== "string" || requested.id === "" || typeof requested.name !== "string" || requested.name === "") {
    throw new IntentMismatchError({ reason: "malformed_request", functionCallId: requestId, detail: `The confirmation request "${requestId}" names no call (its originalFunctionCall has no id or no name). Nothing was stored.` });
  }
  if (!index.call(requested.id)) {
    throw new IntentMismatchError({ reason: "unknown_original_call", functionCallId: requested.id, detail: `The call that confirmation request "${requestId}" names is not in this session. Nothing was stored.` });
  }
}

/**
 * Refuses a confirmation whose request, or whose answer (when it says which call it approves), names another tool,
 * other arguments or another call than the call waiting in the session: a confirmation approves one call with its
 * exact arguments.
 */
function refuseUnboundAnswer(requestId: string, requested: FunctionCall, claimed: FunctionCall | undefined, original: FunctionCall): void {
  const detail = `The confirmation "${requestId}" does not match the call it was issued for. A confirmation approves one call with its exact arguments; answer the request as it was sent. Nothing was stored.`;
  const refuse = (reason: "unknown_original_call" | "tool_name_mismatch" | "arguments_mismatch") => new IntentMismatchError({ reason, functionCallId: original.id, detail });
  if (requested.name !== original.name) throw refuse("tool_name_mismatch");
  if (!sameJson(requested.args ?? {}, original.args ?? {})) throw refuse("arguments_mismatch");
  if (!claimed) return;
  if (claimed.id !== original.id) throw refuse("unknown_original_call");
  if (claimed.name !== undefined && claimed.name !== original.name) throw refuse("tool_name_mismatch");
  if (!sameJson(claimed.args ?? {}, original.args ?? {})) throw refuse("arguments_mismatch");
}

function isPendingLongRunning(located: LocatedCall): boolean {
  return located.event.longRunningToolIds?.includes(located.call.id!) ?? false;
}

function sameJson(left: unknown, right: unknown): boolean {
  return JSON.stringify(sortKeys(left)) === JSON.stringify(sortKeys(right));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]));
  return value;
}

/** Whether a message carries function responses (answers to requests or long-running results). */
export function hasFunctionResponses(message: Content | undefined): boolean {
  return message?.parts?.some((part) => !!part.functionResponse) ?? false;
}

/**
 * The author of the call a response answers, followed out of agent-tool
 * branches (`…@<callId>`) to the agent that called the agent tool, since that
 * is where the run has to resume.
 */
export function ownerOfCall(index: CallIndex, callId: string): string | undefined {
  let located = index.call(callId);
  for (let depth = 0; located && depth < 32; depth++) {
    const innermost = toolCallIdsIn(located.event.branch).at(-1);
    if (innermost === undefined) return located.event.author;
    located = index.callByBranchSafeId(innermost);
  }
  return located?.event.author;
}

/** What a typed answer confirms with, when `plainTextToolConfirmation` is on (ADK's words). */
const AFFIRMATIVE = new Set(["yes", "y", "true", "approve", "approved", "ok", "okay", "confirm", "confirmed"]);
/** What a typed answer declines with. */
const NEGATIVE = new Set(["no", "n", "false", "reject", "rejected", "deny", "denied", "cancel", "cancelled"]);

/**
 * A typed "yes" or "no" as the answer to the confirmation waiting (ADK's `runConfig.plainTextToolConfirmation`): when
 * `message` is text only, one of ADK's words for either (any case, trimmed), and an `adk_request_confirmation` made
 * since the user's last message is still unanswered, the function response that answers it (the latest such
 * request); else `undefined`, and the message is a message. The answer is then checked and stored as any client's.
 */
export function plainTextConfirmationAnswer(events: readonly Event[], message: Content | undefined): Content | undefined {
  const parts = message?.parts ?? [];
  if (parts.length === 0 || !parts.every((part) => typeof part.text === "string")) return undefined;
  const word = parts.map((part) => part.text).join("").trim().toLowerCase();
  const confirmed = AFFIRMATIVE.has(word) ? true : NEGATIVE.has(word) ? false : undefined;
  if (confirmed === undefined) return undefined;
  const answered = new Set<string>();
  for (const event of events) if (event.author === "user") for (const response of getFunctionResponses(event.content)) if (response.id) answered.add(response.id);
  for (let index = events.length - 1; index >= 0 && events[index]!.author !== "user"; index--) {
    const request = getFunctionCalls(events[index]!.content).find((call) => call.name === REQUEST_CONFIRMATION && call.id && !answered.has(call.id));
    if (request) return { role: "user", parts: [{ functionResponse: { id: request.id, name: REQUEST_CONFIRMATION, response: { confirmed } } }] };
  }
  return undefined;
}

/** What a secret of a credential answer reads as in the session: the credential service keeps it, encrypted. */
export const REDACTED = "[redacted]";

/**
 * The user's message as the session keeps it: each answer to an `adk_request_credential` call without its secrets
 * (every field of its credentials but those known to be harmless, see {@link redactedCredential}), each replaced by
 * {@link REDACTED}. The run reads the credential from the message itself, and the credential service keeps it
 * (encrypted at rest); a session store is no place for it. The same message when it answers no credential request.
 */
export function withoutCredentialSecrets(message: Content): Content {
  const parts = message.parts ?? [];
  if (!parts.some((part) => part.functionResponse?.name === REQUEST_CREDENTIAL)) return message;
  return {
    ...message,
    parts: parts.map((part) => {
      const response = part.functionResponse;
      if (response?.name !== REQUEST_CREDENTIAL || !response.response) return part;
      return { ...part, functionResponse: { ...response, response: redactedAnswer(response.response) } };
    }),
  };
}

/**
 * An answer without secrets: an auth config keeps its scheme and key, its credentials redacted ({@link
 * redactedCredential}); an answer that is the credential itself (as some of ADK's clients send) is redacted so.
 */
function redactedAnswer(answer: Record<string, unknown>): Record<string, unknown> {
  if (!("authScheme" in answer || "exchangedAuthCredential" in answer || "rawAuthCredential" in answer)) return redactedCredential(answer);
  const redacted = keptOnly(answer, AUTH_CONFIG_FIELDS, ["exchangedAuthCredential", "rawAuthCredential"]);
  for (const key of ["exchangedAuthCredential", "rawAuthCredential"]) {
    const credential = answer[key];
    if (isRecord(credential)) redacted[key] = redactedCredential(credential);
  }
  return redacted;
}

/** The fields of an auth config kept as they are: what it asks for, not what was given. */
const AUTH_CONFIG_FIELDS: ReadonlySet<string> = new Set(["authScheme", "credentialKey"]);

/**
 * The fields of a credential kept as they are: what names the credential's kind and where it came from. Every other
 * field, known secret or not (a key, a token, a password, a client secret, a code, a field a client made up), reads
 * {@link REDACTED}: what is not known to be harmless is not kept.
 */
const KEPT_FIELDS = {
  top: new Set(["authType"]),
  oauth2: new Set(["clientId", "redirectUri", "authUri", "state", "expiresAt"]),
  http: new Set(["scheme"]),
  httpCredentials: new Set(["username"]),
} as const;

/** A credential with every field but {@link KEPT_FIELDS} redacted, in its OAuth 2 and HTTP parts too. */
function redactedCredential(credential: Record<string, unknown>): Record<string, unknown> {
  const copy = keptOnly(credential, KEPT_FIELDS.top, ["oauth2", "http"]);
  const oauth2 = credential.oauth2;
  if (isRecord(oauth2)) copy.oauth2 = keptOnly(oauth2, KEPT_FIELDS.oauth2);
  const http = credential.http;
  if (isRecord(http)) {
    const redactedHttp = keptOnly(http, KEPT_FIELDS.http, ["credentials"]);
    if (isRecord(http.credentials)) redactedHttp.credentials = keptOnly(http.credentials, KEPT_FIELDS.httpCredentials);
    copy.http = redactedHttp;
  }
  return copy;
}

/** A copy with the `kept` fields as they are, `nested` ones left to the caller, and every other set field redacted. */
function keptOnly(record: Record<string, unknown>, kept: ReadonlySet<string>, nested: readonly string[] = []): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(record)) {
    if (nested.includes(field) && isRecord(value)) continue;
    copy[field] = kept.has(field) || value === undefined || value === null ? value : REDACTED;
  }
  return copy;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The auth config as the client may see it: no PKCE verifier, no client secret. */
function withoutSecrets(authConfig: AuthConfig): AuthConfig {
  const strip = (credential: AuthCredential | undefined): AuthCredential | undefined => {
    if (!credential?.oauth2) return credential;
    const { codeVerifier: _verifier, clientSecret: _secret, ...visible } = credential.oauth2;
    return { ...credential, oauth2: visible };
  };
  return { ...authConfig, exchangedAuthCredential: strip(authConfig.exchangedAuthCredential), rawAuthCredential: strip(authConfig.rawAuthCredential) };
}
