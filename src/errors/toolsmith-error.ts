const TOOLSMITH_ERROR_BRAND = Symbol.for("toolsmith.error");

/**
 * Every code a {@link ToolsmithError} carries, as one union to switch on. The
 * HTTP API answers with the same codes (`{"error", "code"}`), and
 * the built-in filesystem tools report their backend's codes in results.
 */
export type ToolsmithErrorCode =
  // Setup of agents, tools and models (ConfigurationError)
  | "AGENTS_DIR_NOT_FOUND"
  | "AGENT_HAS_PARENT"
  | "AGENT_LOAD_FAILED"
  | "AGENT_NOT_FOUND"
  | "AI_SDK_TOOL_WITHOUT_EXECUTE"
  | "APP_NOT_FOUND"
  | "DUPLICATE_AGENT_NAME"
  | "DUPLICATE_SUBAGENT"
  | "DUPLICATE_TOOL_NAME"
  | "GEMINI_TOOL_UNSUPPORTED"
  | "INVALID_AGENT_NAME"
  | "INVALID_ARGUMENTS"
  | "INVALID_EVENT"
  | "INVALID_APP_NAME"
  | "INVALID_COMPACTION_OPTION"
  | "INVALID_LIST_REQUEST"
  | "INVALID_PLUGIN"
  | "INVALID_RUN_CONFIG"
  | "INVALID_ROUTE"
  | "INVALID_ROUTING"
  | "INVALID_SANDBOX_OPTION"
  | "INVALID_SESSION_STORE_OPTION"
  | "INVALID_SKILL"
  | "INVALID_WORKFLOW"
  | "INVALID_STORE_PREFIX"
  | "INVALID_TOOL_NAME"
  | "INVALID_TOOL_SCHEMA"
  | "INVALID_TOOL"
  | "TOOL_UNUSABLE"
  | "MISSING_API_KEY"
  // Vertex AI was asked for without a project or a location, or a project or location was given without it
  | "VERTEX_AI_NOT_CONFIGURED"
  | "MISSING_ARTIFACT"
  | "MISSING_BASE_URL"
  | "MISSING_MODEL_PACKAGE"
  | "MISSING_PACKAGE"
  | "MISSING_STATE_KEY"
  | "NO_AGENT_EXPORT"
  | "NO_APPS"
  | "NO_ARTIFACT_SERVICE"
  | "NO_MEMORY_SERVICE"
  | "NO_MODEL"
  | "NO_ROOT_AGENT"
  | "NO_TOOL_CONTEXT"
  | "OPENAPI_DUPLICATE_OPERATION"
  | "OPENAPI_NO_DOCUMENT"
  | "OPENAPI_REF_REFUSED"
  | "OPENAPI_SERVER_VARIABLE"
  | "OPENAPI_UNREADABLE"
  | "OPENAPI_UNSUPPORTED_VERSION"
  | "PACKAGE_DAMAGED"
  | "PORT_IN_USE"
  | "PROJECT_EXISTS"
  | "ROOT_NOT_FOUND"
  | "NO_WORKING_DIRECTORY"
  // An environment (`LocalEnvironment`, `SandboxedEnvironment`) used before `initialize()` or after `close()`
  | "ENVIRONMENT_NOT_INITIALIZED"
  // `SandboxedEnvironment.initialize()` where bubblewrap is missing or cannot make its sandbox
  | "SANDBOX_UNAVAILABLE"
  // Live runs (`Runner.runLive`): a model or agent that cannot run live, a live run without its request queue
  | "LIVE_UNSUPPORTED"
  // A LiveRequestQueue sent to after close(), or a read of it released because its live connection ended
  | "LIVE_QUEUE_CLOSED"
  | "LIVE_QUEUE_READ_ABORTED"
  // A streaming tool (an async generator) called outside a live run
  | "STREAMING_TOOL_NOT_LIVE"
  | "TYPESCRIPT_UNSUPPORTED"
  | "UNKNOWN_AGENT"
  | "UNKNOWN_MODEL"
  | "UNKNOWN_SERVICE_URI"
  | "UNKNOWN_TOOL"
  | "UNSUPPORTED_OPTION"
  // Runs, sessions and the client's answers
  | "CONFIRMATION_MISMATCH"
  | "INVALID_ARTIFACT_NAME"
  | "INVALID_CONFIRMATION"
  | "LLM_CALLS_LIMIT_EXCEEDED"
  | "MODEL_ERROR"
  | "OUTPUT_SCHEMA_MISMATCH"
  | "PLUGIN_FAILED"
  | "REQUEST_ALREADY_ANSWERED"
  | "SESSION_EXISTS"
  | "SESSION_NOT_FOUND"
  | "SHARED_STATE_CONFLICT"
  | "STALE_SESSION"
  | "STATE_VALUE_NOT_JSON"
  | "STATE_KEY_INVALID"
  | "UNKNOWN_FUNCTION_CALL"
  // Storage backends
  | "DRIVER_MISSING"
  | "POSTGRES_UNREACHABLE"
  | "SCHEMA_TOO_NEW"
  | "SQLITE_BUSY"
  | "SQLITE_FILE_UNUSABLE"
  | "SQLITE_FOREIGN_DATABASE"
  | "S3_BUCKET_NOT_FOUND"
  | "S3_UNREACHABLE"
  | "ARTIFACT_METADATA_TOO_LARGE"
  // Credentials (OAuth2Error; a failed exchange is a CredentialExchangeError, ADK's name, which a program may make itself)
  | "CREDENTIAL_EXCHANGE_FAILED"
  | "OAUTH2_DENIED"
  | "OAUTH2_NO_CODE"
  | "OAUTH2_STATE_MISMATCH"
  | "OAUTH2_TOKEN_REQUEST_FAILED"
  | "OAUTH2_INVALID_URL"
  // Credentials at rest (ConfigurationError, CredentialKeyError)
  | "CREDENTIAL_KEY_MISSING"
  | "CREDENTIAL_KEY_MALFORMED"
  | "CREDENTIAL_KEY_MISMATCH"
  | "CREDENTIAL_UNREADABLE"
  // Model providers (ModelProviderError)
  | "MODEL_AUTH"
  | "MODEL_BAD_REQUEST"
  | "MODEL_NOT_FOUND"
  | "MODEL_QUOTA_EXCEEDED"
  | "MODEL_RATE_LIMITED"
  | "MODEL_UNAVAILABLE"
  // What a model answered instead of an answer (error responses from the adapters)
  | "MODEL_REFUSED"
  | "MODEL_SAFETY_BLOCKED"
  | "MODEL_UNHANDLED_OUTPUT"
  | "MODEL_INVALID_RESPONSE"
  // The scripted model (toolsmith/testing)
  | "INVALID_SCRIPT"
  | "SCRIPT_EXHAUSTED"
  | "SCRIPT_NOT_COMPLETE"
  // The HTTP API (HttpError)
  | "ARTIFACT_NOT_FOUND"
  | "BODY_TOO_LARGE"
  | "HOST_NOT_ALLOWED"
  | "INTERNAL"
  | "INVALID_BODY"
  // A /run_live client's message that is not a LiveRequest (the socket closes with 1007, or 1003 for binary)
  | "INVALID_LIVE_REQUEST"
  | "INVALID_QUERY"
  | "INVALID_VERSION"
  | "MALFORMED_JSON"
  | "NOT_FOUND"
  | "NOT_READY"
  // A WebSocket upgrade from a page of another origin (/run_live), one offering only subprotocols the server does not
  // speak, or a plain GET where an upgrade is needed
  | "ORIGIN_NOT_ALLOWED"
  | "APP_STATE_REFUSED"
  | "UNSUPPORTED_SUBPROTOCOL"
  | "UPGRADE_REQUIRED"
  | "SERVER_DRAINING"
  | "SERVER_SHUTTING_DOWN"
  | "TRACE_NOT_FOUND"
  | "TRACES_NOT_SERVED"
  | "UNAUTHORIZED"
  // The command line (UsageError)
  | "CLI_USAGE"
  // Evaluation (EvalError)
  | "EVAL_SET_INVALID"
  | "EVAL_CONFIG_INVALID"
  | "EVAL_SET_NOT_FOUND"
  | "EVAL_CASE_NOT_FOUND"
  | "EVAL_SET_EXISTS"
  // MCP
  | "AGENT_FAILED"
  | "MCP_TOOLSET_CLOSED"
  | "MCP_CALL_INTERRUPTED"
  | "MCP_SAMPLING_LIMIT"
  | "MCP_CLIENT_UNAVAILABLE"
  | "MCP_RESOURCE_NOT_FOUND"
  | "MCP_PROMPT_NOT_FOUND"
  // `MCPSessionManager.createSession()` could not connect to the server
  | "MCP_CONNECTION_FAILED"
  // Filesystem backends of the built-in tools (BackendError)
  | "EXISTS"
  | "IO"
  | "INVALID_GLOB"
  | "IS_DIRECTORY"
  | "NOT_DIRECTORY"
  | "NOT_A_FILE"
  | "PATH_REFUSED"
  // A run that failed inside: the runner ends it with an error event carrying one of these
  | "CALLBACK_FAILED"
  | "TOOLSET_FAILED"
  | "SESSION_STORE_FAILED"
  | "RUN_FAILED"
  // A live connection failed, or dropped and could not be taken up again with the session's resumption handle
  | "LIVE_CONNECTION_FAILED"
  // An LLM agent's code executor threw while running the model's code (a failure of the code itself is its result)
  | "CODE_EXECUTION_FAILED"
  // Context compaction: the summariser failed; the turn ends with an error event, nothing stored is removed
  | "COMPACTION_FAILED"
  // Graph workflows: a node threw or reported an error, a node's input or output missed its schema, or more than one
  // terminal node answered; the workflow ends with the node's error event
  | "NODE_FAILED"
  | "NODE_SCHEMA_MISMATCH"
  | "STATE_SCHEMA_MISMATCH"
  | "NODE_OUTPUT_NOT_JSON"
  | "NODE_TIMEOUT"
  | "WORKFLOW_OUTPUT_AMBIGUOUS"
  | "WORKFLOW_RESUME_UNSUPPORTED"
  // A NodeTool call nested in more than 8 others (a node offering itself as a tool)
  | "NODE_TOOL_TOO_DEEP"
  | "INTERRUPT_NOT_WAITING"
  | "INTERRUPT_ANSWER_MISMATCH"
  // A2A: a peer's message toolsmith cannot read, a request to a remote agent that failed, a remote task that failed,
  // an A2A surface mounted without authentication, an agent card that cannot be used
  | "A2A_INVALID_MESSAGE"
  | "A2A_REQUEST_FAILED"
  | "A2A_TASK_FAILED"
  | "A2A_UNAUTHENTICATED"
  | "INVALID_A2A_AGENT";

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
  readonly code: ToolsmithErrorCode;
  readonly [TOOLSMITH_ERROR_BRAND] = true;

  constructor(code: ToolsmithErrorCode, message: string, options?: { cause?: unknown }) {
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

/**
 * A program called a tool directly (`tool.runAsync({ args, toolContext })`, as ADK programs do) with arguments its
 * parameters refuse. In a run the model gets the same message as the call's result instead, to correct itself.
 */
export class InvalidArgumentsError extends ToolsmithError {}

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

/**
 * An append wrote an `app:` or `user:` key whose stored value another session changed after this copy of the
 * session was read, so the new value was likely computed from an old one. Nothing was stored; reload the
 * session with `getSession`, compute the change again from the values it now holds, and append again. Inside
 * a run, the runner ends the turn with an error event of this code instead of throwing.
 */
export class SharedStateConflictError extends ToolsmithError {
  /** The session whose append was refused. */
  readonly sessionId: string;
  /** The shared keys that changed since the session was read, sorted. */
  readonly keys: readonly string[];

  constructor(details: { sessionId: string; keys: readonly string[] }) {
    const keys = details.keys.map((key) => `"${key}"`).join(", ");
    super(
      "SHARED_STATE_CONFLICT",
      `Session "${details.sessionId}" tried to write shared state ${details.keys.length === 1 ? "key" : "keys"} ${keys}, which another session changed after this copy was read. ` +
        "Nothing was stored: reload the session with getSession, compute the change again from the values it now holds, and append again.",
    );
    this.sessionId = details.sessionId;
    this.keys = details.keys;
  }
}
