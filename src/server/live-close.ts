import { ToolsmithError, type ToolsmithErrorCode } from "../errors/toolsmith-error.js";
import { toHttpError } from "./http-error.js";

/**
 * The close codes `/run_live` ends a connection with. 1002 for a missing session is ADK Python's; the rest are
 * RFC 6455's, but for an unknown app, which has none that fits: 4404 (the private range, the HTTP status plus
 * 4000, as other WebSocket APIs do) lets a client tell it from a refused parameter (1008) without reading the reason.
 */
export const LIVE_CLOSE = {
  /** The run ended: the client sent `{"close": true}` or the agent finished. */
  NORMAL: 1000,
  /** The server shut down while the run was under way. */
  GOING_AWAY: 1001,
  /** The session does not exist (or belongs to another user than the bearer token's), as ADK Python closes. */
  SESSION_NOT_FOUND: 1002,
  /** A binary frame: LiveRequests are JSON text frames. */
  UNSUPPORTED_DATA: 1003,
  /** A text frame that is not a LiveRequest. */
  INVALID_MESSAGE: 1007,
  /** A query parameter missing, unknown, repeated, of the wrong value, or asking for what toolsmith does not do. */
  POLICY_VIOLATION: 1008,
  /** The run failed outside the agent (loading the app, storing, a bug). */
  INTERNAL_ERROR: 1011,
  /** The server is draining and takes no new live runs. */
  TRY_AGAIN_LATER: 1013,
  /** No app of that name. */
  APP_NOT_FOUND: 4404,
} as const;

/**
 * Why the server closes a live connection: the close code, the whole message (sent first as an `{ error, code }`
 * frame) and the close reason, which is the message cut to what a close frame holds unless given.
 */
export class LiveCloseError extends ToolsmithError {
  readonly closeCode: number;
  /** The close frame's reason, when it is not the message (ADK's exact "Session not found"). */
  readonly reason: string | undefined;

  constructor(closeCode: number, code: ToolsmithErrorCode, message: string, reason?: string) {
    super(code, message);
    this.closeCode = closeCode;
    this.reason = reason;
  }
}

const CLOSE_BY_CODE: Partial<Record<ToolsmithErrorCode, number>> = {
  APP_NOT_FOUND: LIVE_CLOSE.APP_NOT_FOUND,
  SESSION_NOT_FOUND: LIVE_CLOSE.SESSION_NOT_FOUND,
  SERVER_DRAINING: LIVE_CLOSE.TRY_AGAIN_LATER,
  SERVER_SHUTTING_DOWN: LIVE_CLOSE.GOING_AWAY,
};

/** Any error as the close it ends a connection with: a refusal by its code, anything else 1011. */
export function liveCloseOf(error: unknown): LiveCloseError {
  if (error instanceof LiveCloseError) return error;
  const failure = toHttpError(error);
  return new LiveCloseError(CLOSE_BY_CODE[failure.code] ?? (failure.status === 400 ? LIVE_CLOSE.POLICY_VIOLATION : LIVE_CLOSE.INTERNAL_ERROR), failure.code, failure.message);
}

/** The most a close frame's reason may hold, in UTF-8 bytes (RFC 6455: 125 for the frame, 2 of them the code). */
const MAX_REASON_BYTES = 123;

/** `message` as a close reason: whole when it fits, else cut at a character boundary and ended with `…`. */
export function closeReason(message: string): string {
  if (Buffer.byteLength(message) <= MAX_REASON_BYTES) return message;
  let reason = "";
  let bytes = Buffer.byteLength("…");
  for (const character of message) {
    bytes += Buffer.byteLength(character);
    if (bytes > MAX_REASON_BYTES) break;
    reason += character;
  }
  return `${reason}…`;
}
