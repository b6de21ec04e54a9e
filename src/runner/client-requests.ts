import { ToolsmithError } from "../errors/toolsmith-error.js";
import type { Content, FunctionCall, FunctionResponse } from "../events/content.js";
import type { AuthConfig, AuthCredential, EventActions, ToolConfirmation } from "../events/event-actions.js";
import { createEvent, type Event } from "../events/event.js";
import { newId } from "../events/new-id.js";
import type { InvocationContext } from "../agents/invocation-context.js";

/** The function call that asks the client to confirm a tool call. */
export const REQUEST_CONFIRMATION = "adk_request_confirmation";
/** The function call that asks the client for a credential. */
export const REQUEST_CREDENTIAL = "adk_request_credential";

/** What a paused call waits for. `client` means an inner agent is waiting for one of the others. */
export type PauseReason = "confirmation" | "credential" | "client";

/** The response a paused call holds until the client answers; the model reads it if the user moves on. */
export function pausedResponse(reason: PauseReason): Record<string, unknown> {
  const message = {
    confirmation: "This call is waiting for the user's confirmation and has not run. It will run if the user approves.",
    credential: "This call is waiting for the user to provide a credential and has not run yet.",
    client: "This call is waiting for the user's answer to a request and has not finished yet.",
  }[reason];
  return { status: "paused", waitingFor: reason, message };
}

/** The pause reason of a response, if it is a paused one. */
export function pauseReasonOf(response: Record<string, unknown> | undefined): PauseReason | undefined {
  return response?.status === "paused" ? (response.waitingFor as PauseReason) : undefined;
}

/** A client answer refused before anything was stored. */
export class ClientResponseError extends ToolsmithError {}

/**
 * The event that asks the client to confirm calls or supply credentials, one
 * function call per request; its ids are in `longRunningToolIds`, so the run
 * pauses on it.
 */
export function clientRequestEvent(context: InvocationContext, agentName: string, calls: readonly FunctionCall[], actions: EventActions): Event | undefined {
  const parts = [];
  for (const call of calls) {
    const confirmation = actions.requestedToolConfirmations[call.id!];
    if (confirmation) {
      parts.push({
        functionCall: {
          id: newId("adk-"),
          name: REQUEST_CONFIRMATION,
          args: { originalFunctionCall: { id: call.id, name: call.name, args: call.args ?? {} }, toolConfirmation: confirmation },
        },
      });
    }
    const authConfig = actions.requestedAuthConfigs[call.id!];
    if (authConfig) parts.push({ functionCall: { id: newId("adk-"), name: REQUEST_CREDENTIAL, args: { functionCallId: call.id, authConfig: withoutSecrets(authConfig) } } });
  }
  if (parts.length === 0) return undefined;
  return createEvent({
    invocationId: context.invocationId,
    author: agentName,
    branch: context.branch,
    content: { role: "user", parts },
    longRunningToolIds: parts.map((part) => part.functionCall.id),
  });
}

/** What the client's answers in a message unlock, by the id of the call they concern. */
export interface ClientAnswer {
  confirmation?: ToolConfirmation;
  credential?: AuthConfig;
}

interface LocatedCall {
  call: FunctionCall;
  event: Event;
}

/** Every function call of the session by id. */
export function indexCalls(events: readonly Event[]): Map<string, LocatedCall> {
  const calls = new Map<string, LocatedCall>();
  for (const event of events) for (const part of event.content?.parts ?? []) if (part.functionCall?.id) calls.set(part.functionCall.id, { call: part.functionCall, event });
  return calls;
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
      return response.response;
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
export function readClientAnswers(events: readonly Event[], message: Content | undefined): Map<string, ClientAnswer> {
  const answers = new Map<string, ClientAnswer>();
  const responses = responsesOf(message);
  if (responses.length === 0) return answers;
  const calls = indexCalls(events);
  const answered = new Map<string, FunctionResponse>();
  for (const event of events) for (const part of event.content?.parts ?? []) if (part.functionResponse?.id) answered.set(part.functionResponse.id, part.functionResponse);

  for (const response of responses) {
    const located = response.id ? calls.get(response.id) : undefined;
    if (!located || located.call.name !== response.name) {
      throw new ClientResponseError(
        "UNKNOWN_FUNCTION_CALL",
        `No function call "${response.name}" with id "${response.id}" is waiting for an answer in this session. Answer the id given in the request event.`,
      );
    }
    if (response.name === REQUEST_CONFIRMATION || response.name === REQUEST_CREDENTIAL) {
      if (answered.has(response.id!)) {
        throw new ClientResponseError("REQUEST_ALREADY_ANSWERED", `Request "${response.id}" was already answered; each answer is used once. Send a new request's id.`);
      }
      const args = located.call.args ?? {};
      const originalId = (response.name === REQUEST_CONFIRMATION ? (args.originalFunctionCall as FunctionCall | undefined)?.id : args.functionCallId) as string | undefined;
      const original = originalId ? calls.get(originalId) : undefined;
      if (!original || pauseReasonOf(answered.get(originalId!)?.response) === undefined) {
        throw new ClientResponseError("REQUEST_ALREADY_ANSWERED", `The call that request "${response.id}" was about has already been answered. Nothing was changed.`);
      }
      const body = answerBody(response);
      if (response.name === REQUEST_CONFIRMATION) {
        const claimed = body.originalFunctionCall as FunctionCall | undefined;
        const requested = args.originalFunctionCall as FunctionCall;
        if (!sameJson(requested.args ?? {}, original.call.args ?? {}) || (claimed && (claimed.id !== original.call.id || !sameJson(claimed.args ?? {}, original.call.args ?? {})))) {
          throw new ClientResponseError(
            "CONFIRMATION_MISMATCH",
            `The confirmation "${response.id}" does not match the call it was issued for (id or arguments differ). A confirmation approves one call with its exact arguments.`,
          );
        }
        if (typeof body.confirmed !== "boolean") {
          throw new ClientResponseError("INVALID_CONFIRMATION", `The answer to "${response.id}" must be {"confirmed": true} or {"confirmed": false}, optionally with "payload".`);
        }
        const toolConfirmation = args.toolConfirmation as ToolConfirmation | undefined;
        answers.set(originalId!, { confirmation: { hint: toolConfirmation?.hint, confirmed: body.confirmed, payload: body.payload ?? toolConfirmation?.payload } });
      } else {
        answers.set(originalId!, { credential: body as unknown as AuthConfig });
      }
    } else if (answered.has(response.id!) && !isPendingLongRunning(located, answered.get(response.id!)!)) {
      throw new ClientResponseError("UNKNOWN_FUNCTION_CALL", `Function call "${response.id}" is not waiting for a result: it was not long-running, or it already has its final result.`);
    }
  }
  return answers;
}

function isPendingLongRunning(located: LocatedCall, _latest: FunctionResponse): boolean {
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
  return responsesOf(message).length > 0;
}

/**
 * The author of the call a response answers, followed out of agent-tool
 * branches (`…@<callId>`) to the agent that called the agent tool, since that
 * is where the run has to resume.
 */
export function ownerOfCall(events: readonly Event[], callId: string): string | undefined {
  const calls = indexCalls(events);
  let located = calls.get(callId);
  for (let depth = 0; located && depth < 32; depth++) {
    const branch = located.event.branch ?? "";
    const at = branch.lastIndexOf("@");
    if (at < 0) return located.event.author;
    const agentToolCallId = branch.slice(at + 1).split(".")[0]!;
    located = [...calls.values()].find((candidate) => branchSafeId(candidate.call.id!) === agentToolCallId);
  }
  return located?.event.author;
}

/** A call id as it may appear inside a branch name. */
export function branchSafeId(callId: string): string {
  return callId.replace(/[^A-Za-z0-9_-]/g, "_");
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
