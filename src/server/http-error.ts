import { isToolsmithError, ToolsmithError, type ToolsmithErrorCode } from "../errors/toolsmith-error.js";

/** A request the server refuses, with the status and the message the client receives as `{ error, code }`. */
export class HttpError extends ToolsmithError {
  readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 426 | 500 | 503;

  constructor(status: HttpError["status"], code: ToolsmithErrorCode, message: string) {
    super(code, message);
    this.status = status;
  }
}

const STATUS_BY_CODE: Partial<Record<ToolsmithErrorCode, HttpError["status"]>> = {
  SESSION_NOT_FOUND: 404,
  APP_NOT_FOUND: 404,
  SESSION_EXISTS: 409,
  STALE_SESSION: 409,
  SHARED_STATE_CONFLICT: 409,
  REQUEST_ALREADY_ANSWERED: 409,
  UNKNOWN_FUNCTION_CALL: 400,
  CONFIRMATION_MISMATCH: 400,
  INVALID_CONFIRMATION: 400,
  UNKNOWN_TOOL: 404,
  INVALID_ARTIFACT_NAME: 400,
  STATE_VALUE_NOT_JSON: 400,
  STATE_KEY_INVALID: 400,
  INVALID_LIST_REQUEST: 400,
  EVAL_SET_NOT_FOUND: 404,
  EVAL_CASE_NOT_FOUND: 404,
  EVAL_SET_EXISTS: 409,
  EVAL_SET_INVALID: 400,
  EVAL_CONFIG_INVALID: 400,
};

/**
 * The HTTP form of any error: bad input and unknown names are 4xx with the
 * message that says what to do; a toolsmith error in the app's own setup is a
 * 500 that still names its code; anything else is a 500 without internals.
 */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (isToolsmithError(error)) {
    const status = STATUS_BY_CODE[error.code] ?? statusByClass(error.name);
    return new HttpError(status, error.code, error.message);
  }
  return new HttpError(500, "INTERNAL", `The server failed: ${(error as Error)?.message ?? String(error)}`);
}

function statusByClass(name: string): HttpError["status"] {
  if (name === "ClientResponseError" || name === "StateValueError" || name === "InvalidArtifactNameError") return 400;
  return 500;
}
