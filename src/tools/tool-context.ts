import { CallbackContext } from "../agents/callback-context.js";
import type { InvocationContext } from "../agents/invocation-context.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { AuthConfig, EventActions, ToolConfirmation } from "../events/event-actions.js";
import type { SearchMemoryResponse } from "../memory/memory-service.js";

/** Options of {@link ToolContext.requestConfirmation}. */
export interface ConfirmationRequest {
  /** Shown to the person asked. */
  hint?: string;
  /** Structured data the person may fill in or change. */
  payload?: unknown;
}

/** The key a credential is stored under, stable for the same scheme. */
export function credentialKeyOf(authConfig: AuthConfig): string {
  return authConfig.credentialKey ?? `adk_${authConfig.authScheme.type}_${stableHash(JSON.stringify(authConfig.authScheme))}`;
}

function stableHash(text: string): string {
  let hash = 5381;
  for (let index = 0; index < text.length; index++) hash = ((hash * 33) ^ text.charCodeAt(index)) >>> 0;
  return hash.toString(36);
}

/**
 * What a tool receives besides its arguments: the session state, the event's
 * actions, the call's id, artifacts, memory, credentials, confirmation, and an
 * abort signal that fires on cancellation or timeout.
 */
export class ToolContext extends CallbackContext {
  /** The id of the function call being answered. */
  readonly functionCallId: string;
  /** Fires when the run is cancelled or the tool's `timeoutMs` passes. */
  readonly abortSignal: AbortSignal;
  /** The person's decision, when this call was confirmed before it ran. */
  readonly toolConfirmation?: ToolConfirmation;

  constructor(options: {
    invocation: InvocationContext;
    functionCallId: string;
    actions?: EventActions;
    abortSignal?: AbortSignal;
    toolConfirmation?: ToolConfirmation;
  }) {
    super(options.invocation, options.actions);
    this.functionCallId = options.functionCallId;
    this.abortSignal = options.abortSignal ?? options.invocation.abortSignal;
    this.toolConfirmation = options.toolConfirmation;
  }

  /** Searches the user's long-term memory. */
  async searchMemory(query: string): Promise<SearchMemoryResponse> {
    const service = this.invocation.memoryService;
    if (!service) throw new ConfigurationError("NO_MEMORY_SERVICE", "No memory service is configured. Pass memoryService to the Runner.");
    return service.searchMemory({ appName: this.appName, userId: this.userId, query });
  }

  /**
   * Asks a person to confirm this call. The run pauses with an
   * `adk_request_confirmation` call; the tool runs again with
   * {@link ToolContext.toolConfirmation} set once they answer.
   */
  requestConfirmation(request: ConfirmationRequest = {}): void {
    this.actions.requestedToolConfirmations[this.functionCallId] = { hint: request.hint, payload: request.payload, confirmed: false };
  }

  /**
   * Asks the client for a credential. The run pauses with an
   * `adk_request_credential` call; read the answer with
   * {@link ToolContext.getAuthResponse} on the next run.
   */
  requestCredential(authConfig: AuthConfig): void {
    this.actions.requestedAuthConfigs[this.functionCallId] = { ...authConfig, credentialKey: credentialKeyOf(authConfig) };
  }

  /** The credential the client supplied for this auth config, if any. */
  getAuthResponse(authConfig: AuthConfig): Record<string, unknown> | undefined {
    return this.state.get<Record<string, unknown>>(`temp:${credentialKeyOf(authConfig)}`);
  }
}
