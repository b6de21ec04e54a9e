const TOOLSMITH_ERROR_BRAND = Symbol.for("toolsmith.error");

/**
 * Base class of every error toolsmith throws at a developer.
 *
 * Errors the model can fix (bad arguments, an unknown tool, a tool that throws)
 * never throw: they become function responses. What reaches your code is a
 * `ToolsmithError` subclass with a string {@link ToolsmithError.code} you can
 * switch on, and a message that says what to do.
 *
 * @example
 * ```ts
 * try { await runner.sessionService.getSession(request) }
 * catch (error) { if (isToolsmithError(error) && error.code === "SESSION_NOT_FOUND") { … } }
 * ```
 */
export class ToolsmithError extends Error {
  /** A stable, machine-readable identifier of what went wrong. */
  readonly code: string;
  readonly [TOOLSMITH_ERROR_BRAND] = true;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** Tells a toolsmith error apart from any other, across realms and duplicated installs. */
export function isToolsmithError(value: unknown): value is ToolsmithError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[TOOLSMITH_ERROR_BRAND] === true;
}

/**
 * The program is set up wrongly: duplicate tool names, an instruction that names
 * a missing state key, an unknown agent. Fix the configuration the message names.
 */
export class ConfigurationError extends ToolsmithError {}

/** A session that was asked for does not exist (or belongs to another user). */
export class SessionNotFoundError extends ToolsmithError {
  constructor(details: { appName: string; userId: string; sessionId: string }) {
    super(
      "SESSION_NOT_FOUND",
      `Session "${details.sessionId}" was not found for app "${details.appName}" and user "${details.userId}". ` +
        "Create it first with sessionService.createSession({ appName, userId }).",
    );
  }
}

/** A run exceeded `runConfig.maxLlmCalls`, which guards against endless tool loops. */
export class LlmCallsLimitExceededError extends ToolsmithError {
  constructor(limit: number) {
    super(
      "LLM_CALLS_LIMIT_EXCEEDED",
      `The run made more than ${limit} model calls. Raise runConfig.maxLlmCalls if this is expected, or check for a tool loop.`,
    );
  }
}

/**
 * Another writer appended to the session after this copy was read. Nothing was
 * stored; reload the session with `getSession` and apply the change again.
 */
export class StaleSessionError extends ToolsmithError {
  constructor(details: { sessionId: string; readAt: number; storedAt: number }) {
    super(
      "STALE_SESSION",
      `Session "${details.sessionId}" was changed by another writer (stored update ${details.storedAt}, this copy ${details.readAt}). ` +
        "Nothing was stored: reload the session with getSession and try again.",
    );
  }
}
