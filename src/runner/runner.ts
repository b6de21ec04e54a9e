import { RunCancellation } from "../agents/run-cancellation.js";
import { allAgents, findAgent, findAgentBelow, type Agent } from "../agents/agent.js";
import { newId } from "../events/new-id.js";
import { createInvocationContext, invocationAborted, runAgentLive, type RunConfig } from "../agents/invocation-context.js";
import type { LiveRequestQueue } from "../agents/live-request-queue.js";
import type { ArtifactService } from "../artifacts/artifact-service.js";
import { InMemoryArtifactService } from "../artifacts/in-memory-artifact-service.js";
import { ConfigurationError, isToolsmithError, SessionNotFoundError, ToolsmithError } from "../errors/toolsmith-error.js";
import { getFunctionResponses, type Content } from "../content/content.js";
import { createEvent, describeNonEvent, isEventShaped, type Event } from "../events/event.js";
import { findEventByLastFunctionResponseId } from "../events/find-events.js";
import { InMemoryMemoryService } from "../memory/in-memory-memory-service.js";
import type { MemoryService } from "../memory/memory-service.js";
import { InMemorySessionService, synchronousAppend } from "../sessions/in-memory-session-service.js";
import { assertJsonState } from "../sessions/json-value.js";
import type { Session } from "../sessions/session.js";
import type { AppendEventRequest, SessionService } from "../sessions/session-service.js";
import { isToolset, type Toolset } from "../tools/tool.js";
import { assertUniqueAgentNames, isAgentLike } from "../agents/agent-tree.js";
import { isInsideAgentTool } from "../agents/branch.js";
import { hasTempKeys, withoutTempKeys } from "../sessions/state-prefixes.js";
import { InMemoryCredentialService, type CredentialService } from "../auth/credential-service.js";
import { CallIndex, unansweredCalls, type LocatedCall } from "../pause/call-index.js";
import { hasFunctionResponses, ownerOfCall, plainTextConfirmationAnswer, readClientAnswers, withoutCredentialSecrets } from "../pause/client-requests.js";
import { repairInterruptedCalls } from "../pause/repair-interrupted-calls.js";
import type { BasePlugin } from "../plugins/base-plugin.js";
import { PluginManager } from "../plugins/plugin-manager.js";
import { GenAi } from "../telemetry/gen-ai-attributes.js";
import { countActiveRun } from "../telemetry/metrics.js";
import { captureContentFromEnvironment, rootTraceScope, traced } from "../telemetry/spans.js";
import { endSentence } from "../errors/sentence.js";
import { assertResumable, type App, type ResumabilityConfig } from "./app.js";
import { logger } from "../logging/logger.js";
import { saveInputBlobs } from "./save-input-blobs.js";
import { resolveRunConfig, type ResolvedRunConfig } from "../agents/run-config.js";
import { describeGiven, refuseNonObjectOptions, refuseUnhonouredOptions } from "../errors/unhonoured-option.js";
import { isLlmAgent } from "../llm-agent/agent-kinds.js";

/** What `new Runner(…)` takes: ADK's options, and toolsmith's `captureContentInSpans`. */
const RUNNER_OPTIONS = ["appName", "agent", "app", "sessionService", "artifactService", "memoryService", "credentialService", "plugins", "resumabilityConfig", "captureContentInSpans"] as const;

/** What {@link Runner} is given besides the app: its services and plugins. */
export interface RunnerServiceOptions {
  /** Defaults to an {@link InMemorySessionService}. */
  sessionService?: SessionService;
  /** Defaults to an {@link InMemoryArtifactService}. */
  artifactService?: ArtifactService;
  /** Defaults to an {@link InMemoryMemoryService}. */
  memoryService?: MemoryService;
  /** Keeps users' credentials between runs. Defaults to an {@link InMemoryCredentialService}. */
  credentialService?: CredentialService;
  /**
   * Plugins run around every run, agent, model call and tool call, in this order (after an `app`'s own), before
   * the agents' own callbacks.
   */
  plugins?: readonly BasePlugin[];
  /** ADK's setting: only `isResumable: true`, what toolsmith always does, is accepted (see {@link ResumabilityConfig}). */
  resumabilityConfig?: ResumabilityConfig;
  /**
   * Whether OpenTelemetry spans may carry message texts, tool arguments and
   * results. Off unless set here or by
   * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`: they often
   * hold personal data.
   */
  captureContentInSpans?: boolean;
}

/**
 * Options of {@link Runner}: the app's name and root agent, or an {@link App} holding them (whose name and agent
 * then win over `appName` and `agent`, and whose plugins run first, as in ADK).
 */
export type RunnerOptions = RunnerServiceOptions & ({ appName: string; agent: Agent; app?: undefined } | { app: App; appName?: string; agent?: Agent });

/** Options of {@link Runner.runAsync}. */
export interface RunAsyncRequest {
  userId: string;
  sessionId: string;
  /** The user's message; absent to let the agent continue (after a long-running result, say). */
  newMessage?: Content;
  /** State changes applied with the user's message. */
  stateDelta?: Record<string, unknown>;
  runConfig?: RunConfig;
  /** Cancels the run: the model call and running tools are aborted, and no further events come. */
  abortSignal?: AbortSignal;
  /**
   * Stored on the user's event (ADK's `customMetadata`): where the message came from, a ticket number. Needs
   * `newMessage` or `stateDelta`, which make that event.
   */
  customMetadata?: Record<string, unknown>;
}

/** Options of {@link Runner.runLive}, as ADK's. */
export interface RunLiveRequest {
  userId: string;
  /** The session to run in; made when it does not exist. */
  sessionId: string;
  /** What the program sends the model while the run lasts; closing it ends the run. */
  liveRequestQueue: LiveRequestQueue;
  /** The live settings (`responseModalities`, `speechConfig`, transcriptions, …) and the run's others. */
  runConfig?: RunConfig;
  /** Ends the run: the connection closes and no further events come. */
  abortSignal?: AbortSignal;
  /**
   * A session resumption handle from an earlier live run of this conversation (an event's
   * `liveSessionResumptionUpdate.newHandle`): the server takes its session up again instead of being sent the
   * history.
   */
  liveSessionResumptionHandle?: string;
}

const RUN_LIVE_OPTIONS = ["userId", "sessionId", "liveRequestQueue", "runConfig", "abortSignal", "liveSessionResumptionHandle"] as const;

/**
 * A live run's settings with ADK's defaults: answers in audio unless said otherwise, and for an agent with
 * sub-agents (which a transfer may hand the conversation to) transcriptions of the user, and of the model when
 * it speaks.
 */
export function liveRunDefaults(runConfig: RunConfig | undefined, agent: Agent): RunConfig {
  const config: RunConfig = { ...runConfig };
  if (!config.responseModalities?.length) config.responseModalities = ["AUDIO"];
  if (agent.subAgents.length > 0) {
    if (config.responseModalities.includes("AUDIO")) config.outputAudioTranscription ??= {};
    config.inputAudioTranscription ??= {};
  }
  return config;
}

/** Whether an event carries raw audio, video or images (inline bytes), which a live run does not store (as ADK). */
export function carriesRawMedia(event: Event): boolean {
  return event.content?.parts?.some((part) => /^(audio|video|image)\//i.test(part.inlineData?.mimeType ?? "")) ?? false;
}

/** Options of {@link Runner.runEphemeral}: those of `runAsync` but the session, which the run makes for itself. */
export type RunEphemeralRequest = Omit<RunAsyncRequest, "sessionId" | "newMessage"> & {
  /** The user's message. */
  newMessage: Content;
};

/**
 * Runs agents over sessions: stores the user's message, lets the agent produce
 * events, stores each complete event (applying its state changes) and yields
 * every event, partial ones included, to the caller.
 *
 * An event that writes an `app:` or `user:` key another session changed during
 * the run is not stored (a `SharedStateConflictError` in the store): the run does not
 * throw and does not retry (its value was computed from the old one); it ends
 * with a stored error event of code `SHARED_STATE_CONFLICT`. Run the turn again
 * to work from the new values.
 *
 * @example
 * ```ts
 * const runner = new Runner({ appName: "weather", agent });
 * const session = await runner.sessionService.createSession({ appName: "weather", userId: "u1" });
 * for await (const event of runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Weather in Paris?" }] } })) {
 *   if (isFinalResponse(event)) console.log(event.content?.parts?.[0]?.text);
 * }
 * ```
 */
export class Runner {
  readonly appName: string;
  readonly agent: Agent;
  readonly sessionService: SessionService;
  readonly artifactService: ArtifactService;
  readonly memoryService: MemoryService;
  readonly credentialService: CredentialService;
  /** The plugins given: the `app`'s, then `plugins`. */
  readonly pluginManager: PluginManager;
  /** The `resumabilityConfig` given (the runner's, else the app's), if any: toolsmith always resumes. */
  readonly resumabilityConfig: ResumabilityConfig | undefined;

  readonly #captureContent: boolean;

  constructor(options: RunnerOptions) {
    refuseNonObjectOptions("Runner", options, () => 'new Runner({ appName: "my_app", agent }) or new Runner({ app })');
    if (new.target === Runner) refuseUnhonouredOptions("Runner", options, RUNNER_OPTIONS);
    const { app } = options;
    const agent = app?.rootAgent ?? options.agent;
    const appName = app?.name ?? options.appName;
    if (!agent) throw new ConfigurationError("NO_ROOT_AGENT", "The runner has no agent: pass new Runner({ appName, agent }) or new Runner({ app }).");
    if (!isAgentLike(agent)) throw new ConfigurationError("NO_ROOT_AGENT", "The runner's agent is no agent: pass an agent made with new LlmAgent({ … }) (or another agent class) as new Runner({ appName, agent }).");
    if (typeof appName !== "string" || appName === "") throw new ConfigurationError("INVALID_APP_NAME", "The runner has no appName: pass new Runner({ appName, agent }) or new Runner({ app }).");
    // An App checked its own resumabilityConfig when it was made.
    assertResumable(options.resumabilityConfig);
    assertUniqueAgentNames(agent);
    this.#captureContent = options.captureContentInSpans ?? captureContentFromEnvironment();
    this.appName = appName;
    this.agent = agent;
    this.sessionService = options.sessionService ?? new InMemorySessionService();
    this.artifactService = options.artifactService ?? new InMemoryArtifactService();
    this.memoryService = options.memoryService ?? new InMemoryMemoryService();
    this.credentialService = options.credentialService ?? new InMemoryCredentialService();
    this.pluginManager = new PluginManager(app ? [...app.plugins, ...(options.plugins ?? [])] : options.plugins);
    this.resumabilityConfig = options.resumabilityConfig ?? app?.resumabilityConfig;
  }

  /** Runs one turn and yields its events as they happen. */
  async *runAsync(request: RunAsyncRequest): AsyncGenerator<Event, void, undefined> {
    checkRunRequest(request);
    const runConfig = resolveRunConfig(request.runConfig);
    const session = await this.sessionService.getSession({ appName: this.appName, userId: request.userId, sessionId: request.sessionId });
    if (!session) throw new SessionNotFoundError({ appName: this.appName, userId: request.userId, sessionId: request.sessionId });
    if (request.stateDelta) assertJsonState(request.stateDelta);
    if (request.customMetadata && !request.newMessage && !request.stateDelta) {
      // ADK drops it without a word when no user event is stored; here it would be lost the same way.
      throw new ConfigurationError(
        "UNSUPPORTED_OPTION",
        "runAsync got customMetadata but no newMessage or stateDelta: customMetadata is stored on the user's event, which only a message or a state delta makes. Send it with the message.",
      );
    }

    // ADK's plainTextToolConfirmation: a "yes" or "no" typed while one confirmation waits answers it.
    const message = runConfig.plainTextToolConfirmation ? (plainTextConfirmationAnswer(session.events, request.newMessage) ?? request.newMessage) : request.newMessage;
    // Answers to paused calls are checked before anything is stored: a forged or replayed one is refused whole.
    // One pass over the history serves the checks, the owner of the answered call and the repairs; a run that
    // answers no paused call needs only the calls left unanswered, found without the index (unansweredCalls).
    const answersPause = hasFunctionResponses(message);
    const calls = answersPause ? new CallIndex(session.events) : undefined;
    const resumeAnswers = calls ? readClientAnswers(calls, message) : undefined;
    const resumeAgent = calls ? this.#ownerOfAnswer(calls, message!) : undefined;

    // Cancelled by the caller's signal or by the run itself (an error, the caller stopping); see RunCancellation.
    const cancel = new RunCancellation(request.abortSignal);
    const invocationId = newId("e-");
    const span = this.#runSpan(session, invocationId);
    countActiveRun(this.appName, 1);
    // One generator for the whole run: a wrapper generator would cost every event a hop.
    try {
      // Calls a killed run left unanswered get their (error) answers before the new message, right after the calls.
      // A call the new message answers is not left unanswered: the client ran it (pauseOnToolCalls).
      const unanswered = calls ? unansweredBesides(calls, message) : unansweredCalls(session.events);
      // Nearly every run has none to repair: no grouping map, no iterator.
      if (unanswered.length > 0) {
        for (const repair of repairInterruptedCalls(unanswered, invocationId)) {
          await this.sessionService.appendEvent({ session, event: repair });
          yield repair;
        }
      }
      const agent = resumeAgent && staysWith(resumeAgent, false) ? resumeAgent : resumeAgent ? this.agent : determineAgentForResumption(session, this.agent);
      const plugins = this.pluginManager.hasPlugins ? this.pluginManager : undefined;
      const makeContext = (userContent: Content | undefined) => createInvocationContext({
        invocationId,
        agent,
        session,
        sessionService: this.sessionService,
        artifactService: this.artifactService,
        memoryService: this.memoryService,
        credentialService: this.credentialService,
        userContent,
        resumeMessage: answersPause ? message : undefined,
        resumeAnswers,
        resumeAgent,
        runConfig,
        cancellation: cancel,
        plugins,
        trace: span.scope,
      });
      // The in-memory store appends at once: its events are stored without a suspension of this generator.
      const appendNow = synchronousAppend(this.sessionService);
      let newMessage = message;
      let context = makeContext(newMessage);
      let finished = false;
      try {
        if (plugins?.overrides("onUserMessageCallback") && newMessage && !answersPause) {
          newMessage = (await plugins.runOnUserMessageCallback({ invocationContext: context, userMessage: newMessage })) ?? newMessage;
          context = makeContext(newMessage);
        }
        if (newMessage && runConfig.saveInputBlobsAsArtifacts) {
          const saved = await saveInputBlobs(this.artifactService, { appName: this.appName, userId: session.userId, sessionId: session.id }, invocationId, newMessage);
          if (saved !== newMessage) context = makeContext((newMessage = saved));
        }
        if (newMessage || request.stateDelta) {
          // Stored with the role "user" when the caller left it out, as ADK stores it.
          const given = newMessage && newMessage.role === undefined ? { ...newMessage, role: "user" } : newMessage;
          // A credential the client answered with is read from the message and kept by the credential service, not the session.
          const content = given && answersPause ? withoutCredentialSecrets(given) : given;
          const userEvent = createEvent({ invocationId, author: "user", content, actions: request.stateDelta ? { stateDelta: request.stateDelta } : undefined, customMetadata: request.customMetadata });
          const storing = storeEvent(this.sessionService, appendNow, session, userEvent);
          if (storing) await storing;
        }
        const earlyAnswer = plugins?.overrides("beforeRunCallback") && newMessage ? await plugins.runBeforeRunCallback({ invocationContext: context }) : undefined;
        if (earlyAnswer) {
          // As in ADK: a plugin that answers before the run ends it with its content, authored "model".
          const event = createEvent({ invocationId, author: "model", content: earlyAnswer });
          await storeEvent(this.sessionService, appendNow, session, event);
          yield event;
        } else {
          // A plugin costs each event only when it watches events.
          const watching = plugins?.overrides("onEventCallback") ? plugins : undefined;
          for await (const produced of agent.runAsync(context)) {
            if (!isEventShaped(produced)) throw notAnEvent(produced);
            const event = watching ? withPluginChanges(produced, await watching.runOnEventCallback({ invocationContext: context, event: produced })) : produced;
            if (!event.partial) {
              const storing = storeProduced(this.sessionService, appendNow, session, event, span);
              if (storing) await storing;
            }
            if (reachesCaller(event, context.runConfig)) yield event;
          }
          if (plugins?.overrides("afterRunCallback")) await plugins.runAfterRunCallback({ invocationContext: context });
        }
        finished = true;
      } catch (error) {
        // A run never throws for what happens inside it: a failing plugin, callback, toolset, instruction or
        // session store ends it with an error event, stored when the store can still take it, and anything
        // still running (tools started in parallel) is stopped. Nothing is retried: a SHARED_STATE_CONFLICT's
        // event was computed from shared state another session changed, so merging it again would store a value
        // computed from the old one, and re-running the turn would repeat tools' side effects. A call left
        // without its response is answered as interrupted by the next run.
        yield await this.#failureEvent(error, { cancel, span, session, invocationId, author: agent.name });
        finished = true;
      } finally {
        // Reached unfinished when the caller stops iterating or something threw: stop the tools still running.
        if (!finished) cancel.abort(new Error("The run was stopped by its caller."));
      }
    } finally {
      cancel.release();
      span.end();
      countActiveRun(this.appName, -1);
    }
  }

  /**
   * Runs the agent live (ADK's `runLive`): the model stays connected while the program sends it text, audio and
   * video through `liveRequestQueue`, and its answers come as events as they are produced, partial text and
   * audio included, until the program closes the queue or the signal aborts. The session is made when it does not
   * exist. Events are stored as in `runAsync`, but for partial ones and those carrying raw audio, video or images
   * (a session is not a media store: `fileData` references are kept), as in ADK. A failure inside ends the run
   * with an error event, as in `runAsync`.
   *
   * As ADK's, a live run answers with audio unless `runConfig.responseModalities` says otherwise, and an agent
   * with sub-agents has transcriptions turned on (what the user says, and what the model says when it speaks).
   *
   * @example
   * ```ts
   * const queue = new LiveRequestQueue();
   * queue.sendContent({ role: "user", parts: [{ text: "What is the weather in Paris?" }] });
   * for await (const event of runner.runLive({ userId: "u1", sessionId: "s1", liveRequestQueue: queue, runConfig: { responseModalities: ["TEXT"] } })) {
   *   if (event.turnComplete) queue.close();
   * }
   * ```
   */
  async *runLive(request: RunLiveRequest): AsyncGenerator<Event, void, undefined> {
    refuseNonObjectOptions("runLive", request, () => "runner.runLive({ userId, sessionId, liveRequestQueue: new LiveRequestQueue() })");
    refuseUnhonouredOptions("runLive", request, RUN_LIVE_OPTIONS);
    if (typeof request.userId !== "string" || request.userId === "") {
      throw new ConfigurationError("UNSUPPORTED_OPTION", `runLive needs userId: the id of the user the session belongs to; it got ${describeGiven(request.userId)}.`);
    }
    if (!request.liveRequestQueue) throw new ConfigurationError("LIVE_UNSUPPORTED", "runLive needs a liveRequestQueue: pass runLive({ userId, sessionId, liveRequestQueue: new LiveRequestQueue() }).");
    const runConfig = resolveRunConfig(liveRunDefaults(request.runConfig, this.agent));
    const session = await this.sessionService.getOrCreateSession({ appName: this.appName, userId: request.userId, sessionId: request.sessionId });
    if (request.abortSignal?.aborted) return;
    const cancel = new RunCancellation(request.abortSignal);
    const invocationId = newId("e-");
    const span = this.#runSpan(session, invocationId);
    countActiveRun(this.appName, 1);
    const agent = determineAgentForResumption(session, this.agent);
    const plugins = this.pluginManager.hasPlugins ? this.pluginManager : undefined;
    const context = createInvocationContext({
      invocationId,
      agent,
      session,
      sessionService: this.sessionService,
      artifactService: this.artifactService,
      memoryService: this.memoryService,
      credentialService: this.credentialService,
      runConfig,
      cancellation: cancel,
      plugins,
      trace: span.scope,
      liveRequestQueue: request.liveRequestQueue,
      liveSessionResumptionHandle: request.liveSessionResumptionHandle,
    });
    const appendNow = synchronousAppend(this.sessionService);
    let finished = false;
    try {
      const earlyAnswer = plugins?.overrides("beforeRunCallback") ? await plugins.runBeforeRunCallback({ invocationContext: context }) : undefined;
      if (earlyAnswer) {
        const event = createEvent({ invocationId, author: "model", content: earlyAnswer });
        await storeEvent(this.sessionService, appendNow, session, event);
        yield event;
      } else {
        const watching = plugins?.overrides("onEventCallback") ? plugins : undefined;
        for await (const produced of runAgentLive(agent, context)) {
          if (!isEventShaped(produced)) throw notAnEvent(produced);
          if (invocationAborted(context)) break;
          const event = watching ? withPluginChanges(produced, await watching.runOnEventCallback({ invocationContext: context, event: produced })) : produced;
          if (!event.partial && !carriesRawMedia(event)) {
            const storing = storeProduced(this.sessionService, appendNow, session, event, span);
            if (storing) await storing;
          }
          yield event;
        }
        if (plugins?.overrides("afterRunCallback")) await plugins.runAfterRunCallback({ invocationContext: context });
      }
      finished = true;
    } catch (error) {
      // As in runAsync: a failure inside ends the run with its error event, and the connection is closed.
      yield await this.#failureEvent(error, { cancel, span, session, invocationId, author: agent.name });
      finished = true;
    } finally {
      if (!finished) cancel.abort(new Error("The run was stopped by its caller."));
      cancel.release();
      span.end();
      countActiveRun(this.appName, -1);
    }
  }

  /** ADK's root span of a run (`invocation`); agents, model calls and tool calls nest under it. */
  #runSpan(session: Session, invocationId: string): RunSpan {
    return traced(rootTraceScope({ captureContent: this.#captureContent }), () => ({
      name: "invocation",
      attributes: { [GenAi.conversationId]: session.id, [GenAi.invocationId]: invocationId, "toolsmith.app.name": this.appName },
    }));
  }

  /**
   * The error event a run that failed inside ends with: what is still running is stopped, the run's span marked,
   * and the event stored when the store can still take it (when the store itself failed, only the caller sees it).
   */
  async #failureEvent(error: unknown, run: { cancel: RunCancellation; span: RunSpan; session: Session; invocationId: string; author: string }): Promise<Event> {
    run.cancel.abort(new Error("The run ended with an error."));
    const failure = runFailure(error);
    run.span.fail(failure.code, failure.message);
    const event = createEvent({ invocationId: run.invocationId, author: run.author, errorCode: failure.code, errorMessage: failure.message });
    if (failure.code !== "SESSION_STORE_FAILED") {
      await this.sessionService.appendEvent({ session: run.session, event }).catch((storeError: unknown) => {
        logger.error(`The run's ${failure.code} error event could not be stored in session "${run.session.id}", so only its caller saw it: ${(storeError as Error)?.message ?? String(storeError)}`);
      });
    }
    return event;
  }

  /**
   * Runs one turn in a session of its own, made for the run and deleted once it ends (or the caller stops
   * reading), as ADK's `runEphemeral` does: a one-off question that needs no history and leaves none.
   */
  async *runEphemeral(request: RunEphemeralRequest): AsyncGenerator<Event, void, undefined> {
    const session = await this.sessionService.createSession({ appName: this.appName, userId: request.userId });
    try {
      yield* this.runAsync({ ...request, sessionId: session.id });
    } finally {
      await this.sessionService.deleteSession({ appName: this.appName, userId: request.userId, sessionId: session.id });
    }
  }

  /** Closes every toolset of every agent in the tree (MCP connections, processes). */
  async close(): Promise<void> {
    const toolsets = new Set<Toolset>();
    for (const agent of allAgents(this.agent)) {
      if (isLlmAgent(agent)) for (const entry of agent.tools) if (isToolset(entry)) toolsets.add(entry);
    }
    await Promise.all([...toolsets].map((toolset) => toolset.close()));
  }

  #ownerOfAnswer(calls: CallIndex, message: Content): Agent | undefined {
    const response = message.parts?.find((part) => part.functionResponse)?.functionResponse;
    const owner = response?.id ? ownerOfCall(calls, response.id) : undefined;
    return owner ? findAgent(this.agent, owner) : undefined;
  }
}

/**
 * The agent a session's next run goes to, as ADK's `determineAgentForResumption` finds it. With a resumable config
 * (`isResumable: true`), when the last event answers a function call, the agent that made the call. Otherwise the
 * latest agent to have answered that the conversation may stay with ({@link isRoutableLlmAgent}), looking back past
 * the user, agents no longer in the tree, and agents it may not stay with (a workflow agent's children, an agent run
 * as a tool); the root when the root answered last, or when no such agent answered. (toolsmith's runner resumes an
 * answered call on its own, checking the answer first, and asks this for a new message.)
 */
export function determineAgentForResumption(session: Pick<Session, "events">, rootAgent: Agent, resumabilityConfig?: ResumabilityConfig): Agent {
  if (resumabilityConfig?.isResumable) {
    const callEvent = findEventByLastFunctionResponseId(session.events);
    const caller = callEvent?.author ? findAgent(rootAgent, callEvent.author) : undefined;
    if (caller) return caller;
  }
  for (let index = session.events.length - 1; index >= 0; index--) {
    const author = session.events[index]!.author;
    if (author === "user" || !author) continue;
    if (author === rootAgent.name) return rootAgent;
    const agent = findAgentBelow(rootAgent, author);
    if (agent && isRoutableLlmAgent(agent)) return agent;
  }
  return rootAgent;
}

/**
 * ADK's `isRoutableLlmAgent`: whether the agent and every agent above it are LLM agents that allow handing back
 * to their parent (`disallowTransferToParent` unset on each, the root included).
 */
export function isRoutableLlmAgent(agent: Agent): boolean {
  return staysWith(agent, true);
}

/**
 * Whether a conversation may stay with the agent: it and every agent above it are LLM agents that allow handing back
 * to their parent. A paused call is resumed in its own agent when this holds with the root's own flag left out (a
 * root has no parent to hand back to), as toolsmith has always resumed it; the next message follows ADK's rule.
 */
function staysWith(agent: Agent, rootFlagCounts: boolean): boolean {
  for (let current: Agent | undefined = agent; current; current = current.parentAgent) {
    if (!isLlmAgent(current)) return false;
    if (current.disallowTransferToParent && (rootFlagCounts || current.parentAgent)) return false;
  }
  return true;
}

/**
 * The event a plugin's `onEventCallback` returned in place of one the agent
 * produced: its content and actions, under the original's id, invocation,
 * time, author and branch (as ADK keeps them).
 */
function withPluginChanges(original: Event, changed: Event | undefined): Event {
  if (!changed) return original;
  return { ...changed, id: original.id, invocationId: original.invocationId, timestamp: original.timestamp, author: changed.author || original.author, branch: changed.branch ?? original.branch };
}

/** The calls the history leaves unanswered, but for those `message` answers. */
function unansweredBesides(calls: CallIndex, message: Content | undefined): LocatedCall[] {
  const answered = new Set(getFunctionResponses(message).map((response) => response.id));
  return [...calls.unanswered()].filter((located) => !answered.has(located.call.id));
}

/** A {@link Runner} over in-memory services, for tests and scripts. */
export class InMemoryRunner extends Runner {
  constructor(options: Pick<RunnerServiceOptions, "plugins" | "resumabilityConfig"> & ({ agent: Agent; appName?: string; app?: undefined } | { app: App; agent?: Agent; appName?: string })) {
    if (new.target === InMemoryRunner) refuseUnhonouredOptions("InMemoryRunner", options, ["agent", "appName", "app", "plugins", "resumabilityConfig"]);
    const { app, agent, appName, plugins, resumabilityConfig } = options;
    super(app ? { app, agent, appName, plugins, resumabilityConfig } : { appName: appName ?? "InMemoryRunner", agent: agent!, plugins, resumabilityConfig });
  }
}

/**
 * Whether the caller of `runAsync` gets an event the session stores. An agent run as a tool works out of
 * sight, as in ADK, unless `streamAgentToolEvents` asks to watch it; what it asks of a person (a
 * confirmation, a credential, a long-running call's result) always reaches the caller, who must answer it.
 */
export function reachesCaller(event: Event, runConfig: ResolvedRunConfig): boolean {
  return runConfig.streamAgentToolEvents || !isInsideAgentTool(event.branch) || (event.longRunningToolIds?.length ?? 0) > 0;
}

/**
 * Refuses a run request the runner cannot read, before anything is loaded or stored: no user or session id (which
 * would be looked up as "undefined"), or a message that is no `Content` (a string, parts that are not a list).
 */
function checkRunRequest(request: unknown): asserts request is RunAsyncRequest {
  refuseNonObjectOptions("runAsync", request, () => 'runner.runAsync({ userId, sessionId, newMessage: { role: "user", parts: [{ text: "hello" }] } })');
  for (const key of ["userId", "sessionId"] as const) {
    const value = request[key];
    if (typeof value !== "string" || value === "") {
      throw new ConfigurationError(
        "UNSUPPORTED_OPTION",
        `runAsync needs ${key}: ${key === "userId" ? "the id of the user the session belongs to" : "the id of a session made with sessionService.createSession"}; it got ${describeGiven(value)}.`,
      );
    }
  }
  const message = request.newMessage as { parts?: unknown } | null | undefined;
  if (message !== undefined && (typeof message !== "object" || message === null || !Array.isArray(message.parts))) {
    throw new ConfigurationError(
      "UNSUPPORTED_OPTION",
      `runAsync's newMessage is a Content, { role: "user", parts: [{ text: "hello" }] }; it got ${typeof message === "string" ? "a string (put it in parts: [{ text }])" : message === null ? "null" : typeof message === "object" ? "an object without a list of parts" : `a ${typeof message}`}.`,
    );
  }
}

/** The session store's failure to take an event: the run ends, and nothing after the event is stored. */
class SessionStoreError extends ToolsmithError {}

/**
 * Stores an event, failing as {@link storeFailure} says: at once through `appendNow` (the in-memory store's
 * {@link synchronousAppend}), returning nothing to wait for; else through the store's `appendEvent`, returning
 * the promise to await.
 */
function storeEvent(service: SessionService, appendNow: ((request: AppendEventRequest) => Event) | undefined, session: Session, event: Event): Promise<void> | undefined {
  if (!appendNow) return appendAwaited(service, session, event);
  try {
    appendNow({ session, event });
  } catch (error) {
    throw storeFailure(error);
  }
  return undefined;
}

/** The span of a run, as {@link traced} gives it. */
type RunSpan = ReturnType<typeof traced>;

/**
 * Stores a complete event an agent produced, as {@link storeEvent} does (a promise only when the store is awaited);
 * then, as ADK, the caller gets it as stored, without the `temp:` keys (the live session's state has them). An error
 * event marks the run's span.
 */
function storeProduced(service: SessionService, appendNow: ((request: AppendEventRequest) => Event) | undefined, session: Session, event: Event, span: RunSpan): Promise<void> | undefined {
  if (event.errorCode) span.fail(event.errorCode, event.errorMessage);
  const storing = storeEvent(service, appendNow, session, event);
  if (storing) return storing.then(() => dropTempKeys(event));
  dropTempKeys(event);
  return undefined;
}

/**
 * The error for something an agent (a custom agent's `runAsyncImpl`, a processor, a callback's event) yielded that
 * is not an event: it would otherwise fail in the store with a message about the store.
 */
function notAnEvent(produced: unknown): ConfigurationError {
  const author = typeof produced === "object" && produced !== null && typeof (produced as { author?: unknown }).author === "string" ? ` (author "${(produced as { author: string }).author}")` : "";
  return new ConfigurationError("INVALID_EVENT", `An agent yielded ${describeNonEvent(produced)}${author}, which is not an event. Make each event with createEvent({ invocationId: context.invocationId, author: this.name, content }), which fills in its id, time and actions.`);
}

function dropTempKeys(event: Event): void {
  if (hasTempKeys(event.actions.stateDelta)) event.actions.stateDelta = withoutTempKeys(event.actions.stateDelta);
}

async function appendAwaited(service: SessionService, session: Session, event: Event): Promise<void> {
  try {
    await service.appendEvent({ session, event });
  } catch (error) {
    throw storeFailure(error);
  }
}

/**
 * Why storing an event failed, as the run ends with it. A store that refuses (a full disk, a lost database)
 * fails with `SESSION_STORE_FAILED` saying what to check; a `ToolsmithError` it throws (a stale session, a
 * refused value) keeps its own code.
 */
function storeFailure(error: unknown): Error {
  if (isToolsmithError(error)) return error;
  return new SessionStoreError(
    "SESSION_STORE_FAILED",
    `The session store could not store an event: ${endSentence(error instanceof Error ? error.message : String(error))} Nothing after it was stored and the run stopped; check the store (disk space, database connection) and run the turn again.`,
    { cause: error },
  );
}

/**
 * What ends a run that failed inside: a `ToolsmithError` keeps its code and message (a plugin, a callback, a
 * toolset, a missing state key); anything else is `RUN_FAILED`, naming the error.
 */
export function runFailure(error: unknown): { code: string; message: string } {
  if (isToolsmithError(error)) return { code: error.code, message: error.message };
  const described = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { code: "RUN_FAILED", message: `The run failed: ${described}. This came from the agent's own code (an instruction provider, a custom agent, a tool's processLlmRequest) or from toolsmith; the session holds everything up to here.` };
}
