import { ClientResponseError } from "./client-response-error.js";

/**
 * Why a confirmation was refused (ADK's reasons): each is one check made before a call a person approved runs.
 * `unregistered_tool` and `confirmation_not_required` are ADK's and never toolsmith's reasons: a call whose tool
 * the agent no longer has is answered "no such tool" as any other call, and a confirmation toolsmith asked for is
 * never refused as unasked.
 */
export type IntentMismatchReason =
  /** The `adk_request_confirmation` call was not raised by an agent (the user's own event holds it). */
  | "untrusted_request"
  /** The `adk_request_confirmation` call names no call (no id or no name in its `originalFunctionCall`). */
  | "malformed_request"
  /** The call the request names is not in the session, or the answer claims to approve another call. */
  | "unknown_original_call"
  /** ADK's: the call names a tool the agent does not have. */
  | "unregistered_tool"
  /** ADK's: the call's tool does not ask for confirmation, so nothing was approved. */
  | "confirmation_not_required"
  /** The request (or the answer) names another tool than the call in the session. */
  | "tool_name_mismatch"
  /** The request (or the answer) names other arguments than the call in the session. */
  | "arguments_mismatch";

/**
 * ADK's `IntentMismatchError`: a confirmation that does not bind to the call it claims to approve, so the approval
 * and the call about to run are not the same thing. The run refuses it before anything is stored and nothing runs.
 * Its message starts as ADK's (`Tool confirmation rejected for function call '<id>': <reason>.`) and says no
 * argument values; `reason` and `functionCallId` are ADK's fields. It is a {@link ClientResponseError} (code
 * `CONFIRMATION_MISMATCH`), so code that catches those catches it too.
 *
 * @example
 * ```ts
 * try { for await (const event of runner.runAsync(request)) show(event) }
 * catch (error) { if (isIntentMismatchError(error)) alert(`refused confirmation: ${error.reason}`); else throw error }
 * ```
 */
export class IntentMismatchError extends ClientResponseError {
  /** Which check refused the confirmation. */
  readonly reason: IntentMismatchReason;
  /** The call the confirmation named (the request's own id when it named none). */
  readonly functionCallId?: string;

  /** ADK's options; `detail`, toolsmith's, follows ADK's message with what was wrong and what to do. */
  constructor(options: { reason: IntentMismatchReason; functionCallId?: string; detail?: string }) {
    const target = options.functionCallId ? ` for function call '${options.functionCallId}'` : "";
    super("CONFIRMATION_MISMATCH", `Tool confirmation rejected${target}: ${options.reason}.${options.detail ? ` ${options.detail}` : ""}`);
    // Set by hand, as ADK does, so a subclass keeps the name the guard reads.
    this.name = "IntentMismatchError";
    this.reason = options.reason;
    this.functionCallId = options.functionCallId;
  }
}

/**
 * Whether a value is an {@link IntentMismatchError}, ADK's or toolsmith's: as ADK's guard, it reads the error's
 * name, so it holds across packages and realms (`instanceof` would not).
 */
export function isIntentMismatchError(error: unknown): error is IntentMismatchError {
  return error instanceof Error && error.name === "IntentMismatchError";
}
