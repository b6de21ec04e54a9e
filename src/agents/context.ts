import { CallbackContext } from "./callback-context.js";
import type { InvocationContext } from "./invocation-context.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { AuthConfig, EventActions, ToolConfirmation } from "../events/event-actions.js";
import type { SearchMemoryResponse } from "../memory/memory-service.js";
import { createEvent, type Event } from "../events/event.js";
import { credentialRequest, loadCredential, suppliedCredentialKey } from "../auth/credential-flow.js";
import type { AuthCredential } from "../auth/credential-service.js";
import type { LiveRequestQueue } from "./live-request-queue.js";

/** Options of {@link Context.requestConfirmation}. */
export interface ConfirmationRequest {
  /** Shown to the person asked. */
  hint?: string;
  /** Structured data the person may fill in or change. */
  payload?: unknown;
}

/**
 * ADK 2's one context, which tools and callbacks receive (`ToolContext` and
 * `CallbackContext` are other names for it, kept for ADK 1 programs): the
 * session state, the event's actions, the call's id (empty outside a tool
 * call), artifacts, memory, credentials, confirmation, and an abort signal
 * that fires on cancellation or timeout.
 */
export class Context extends CallbackContext {
  /** The id of the function call being answered. */
  readonly functionCallId: string;
  /** The person's decision, when this call was confirmed before it ran. */
  readonly toolConfirmation?: ToolConfirmation;
  /**
   * Set when the call waits for the client without a request of its own: an
   * agent tool whose agent paused for a confirmation or a credential.
   */
  pausedForClient = false;
  readonly #emit?: (event: Event) => Promise<void>;
  // Given for a call with a deadline; else the invocation's, read only when asked for (a run's signal is made when
  // first read).
  readonly #abortSignal: AbortSignal | undefined;
  readonly #inputStream: (() => LiveRequestQueue) | undefined;

  /** Takes toolsmith's option names or ADK's (`invocationContext`, `eventActions`). */
  constructor(
    options: (
      | { invocation: InvocationContext; actions?: EventActions }
      | { invocationContext: InvocationContext; eventActions?: EventActions }
    ) & {
      /** The call this context answers; empty (the default) in callbacks. */
      functionCallId?: string;
      abortSignal?: AbortSignal;
      toolConfirmation?: ToolConfirmation;
      emitEvent?: (event: Event) => Promise<void>;
      /** A streaming tool's input stream in a live run, made when first read. */
      inputStream?: () => LiveRequestQueue;
    },
  ) {
    const invocation = "invocation" in options ? options.invocation : options.invocationContext;
    super(invocation, "invocation" in options ? options.actions : options.eventActions);
    this.functionCallId = options.functionCallId ?? "";
    this.#abortSignal = options.abortSignal;
    this.toolConfirmation = options.toolConfirmation;
    this.#emit = options.emitEvent;
    this.#inputStream = options.inputStream;
  }

  /**
   * A streaming tool's copy of what the user streams in a live run (audio, video frames; ADK Python's
   * `input_stream`): from its first read on, every blob the program sends the model is also queued here, until the
   * tool stops. Read it as it comes (`await stream.get()`, or `for await`): what is not read is kept. `undefined`
   * outside a streaming tool's call in a live run.
   */
  get inputStream(): LiveRequestQueue | undefined {
    return this.#inputStream?.();
  }

  /** Fires when the run is cancelled or the tool's `timeoutMs` passes. */
  get abortSignal(): AbortSignal {
    return this.#abortSignal ?? this.invocation.abortSignal;
  }

  /** ADK's name for {@link CallbackContext.actions}: the side effects recorded on this context's event. */
  get eventActions(): EventActions {
    return this.actions;
  }

  /**
   * Streams an event to the caller while the tool runs (stored unless
   * `partial`); resolves once it was passed on. Agent tools use it for their
   * agent's events.
   */
  emitEvent(event: Event): Promise<void> {
    return this.#emit ? this.#emit(event) : Promise.resolve();
  }

  /** Streams a partial event telling the caller how far the call has got. Never stored. */
  reportProgress(progress: { progress: number; total?: number; message?: string }): Promise<void> {
    return this.emitEvent(
      createEvent({
        invocationId: this.invocationId,
        author: this.agentName,
        branch: this.invocation.branch,
        partial: true,
        customMetadata: { toolProgress: { functionCallId: this.functionCallId, ...progress } },
      }),
    );
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
   * {@link Context.toolConfirmation} set once they answer. (The fields are in
   * ADK's order, hint, confirmed, payload, so the request prints as ADK's does.)
   */
  requestConfirmation(request: ConfirmationRequest = {}): void {
    this.actions.requestedToolConfirmations[this.functionCallId] = { hint: request.hint, confirmed: false, payload: request.payload };
  }

  /**
   * Asks the client for a credential. The run pauses with an
   * `adk_request_credential` call; when the client answers, this call runs
   * again and {@link Context.getAuthResponse} returns the credential. For
   * an OAuth 2 authorization-code scheme with `rawAuthCredential.oauth2`
   * (clientId, redirectUri), the sign-in URL with PKCE is made here and the
   * code-for-token exchange happens when the client sends the redirect back.
   */
  requestCredential(authConfig: AuthConfig): void {
    this.actions.requestedAuthConfigs[this.functionCallId] = credentialRequest(authConfig);
  }

  /**
   * A stored credential for this auth config: the one the client just supplied,
   * else the credential service's, with expired OAuth 2 tokens refreshed.
   */
  loadCredential(authConfig: AuthConfig): Promise<AuthCredential | undefined> {
    return loadCredential(authConfig, { scope: this, service: this.invocation.credentialService, signal: this.abortSignal });
  }

  /** The credential the client supplied for this auth config, if any. */
  getAuthResponse(authConfig: AuthConfig): AuthCredential | undefined {
    return this.state.get<AuthCredential>(suppliedCredentialKey(authConfig));
  }
}
