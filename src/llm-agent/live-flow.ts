import { findAgent } from "../agents/agent.js";
import { rootOf } from "../agents/agent-tree.js";
import { deriveInvocationContext, invocationAborted, invocationCancellation, runAgentLive, type InvocationContext } from "../agents/invocation-context.js";
import { onSignalAbort } from "../agents/run-cancellation.js";
import { stopStreamingTools, type ActiveStreamingTool } from "../agents/active-streaming-tool.js";
import type { Blob } from "../content/content.js";
import type { LiveRequest, LiveRequestQueue } from "../agents/live-request-queue.js";
import { LIVE_RUN_CONFIG_KEYS, type ResolvedRunConfig } from "../agents/run-config.js";
import { SequentialAgent } from "../agents/sequential-agent.js";
import { mergeRuns } from "../agents/parallel-agent.js";
import { getFunctionCalls, getFunctionResponses, getText } from "../content/content.js";
import { ConfigurationError, isToolsmithError, ToolsmithError } from "../errors/toolsmith-error.js";
import { giveCallsIds } from "../events/client-function-call-id.js";
import { createEventActions, hasKeys } from "../events/event-actions.js";
import { createEvent, eventFromResponse, isFinalResponse, type Event } from "../events/event.js";
import { newEventId } from "../events/new-id.js";
import { logger } from "../logging/logger.js";
import { appendInstructions } from "../models/llm-request.js";
import type { LlmRequest } from "../models/llm-request.js";
import type { LlmResponse } from "../models/llm-response.js";
import { LiveConnectionClosedError, type BaseLlmConnection, type LiveConnectConfig } from "../models/live-connection.js";
import type { Model } from "../models/model.js";
import { FunctionTool } from "../tools/function-tool.js";
import type { Tool } from "../tools/tool.js";
import { buildLlmRequest, processedRequest } from "./build-llm-request.js";
import { EventChannel, emittedBy } from "./event-channel.js";
import { runProcessors } from "./llm-processors.js";
import { executeFunctionCalls } from "./execute-function-calls.js";
import { holdStreamsUntil } from "./streaming-tools.js";
import { LiveAudioRecorder } from "./live-audio-recorder.js";
import type { LlmAgentSettings } from "./llm-agent-settings.js";
import { isOfKind } from "../platform/kind.js";

/** How many times in a row a dropped live connection is opened again with the session's handle (ADK's number). */
export const MAX_LIVE_RECONNECT_ATTEMPTS = 5;

/** The tool an LLM agent under a `SequentialAgent` calls in a live run when its part is done (ADK's name). */
export const TASK_COMPLETED_TOOL_NAME = "task_completed";

/** The instruction that goes with {@link TASK_COMPLETED_TOOL_NAME}, ADK's words. */
const TASK_COMPLETED_INSTRUCTION = `If you finished the user's request according to its description, call the ${TASK_COMPLETED_TOOL_NAME} function to exit so the next agents can take over. When calling this function, do not generate any text other than the function call.`;

const taskCompletedTool = new FunctionTool({
  name: TASK_COMPLETED_TOOL_NAME,
  description: "Signals that the model has successfully completed the user's question or task.",
  execute: () => "Task completion signaled.",
});

/** WebSocket close codes worth reconnecting for: the connection was lost (1006), the server failed (1011) or restarts (1012). */
const RECOVERABLE_CLOSE_CODES = new Set([1006, 1011, 1012]);

/** Thrown inside the flow when the server says it will close the connection: the flow reconnects with its handle. */
class ReconnectRequested extends Error {}

/** How one connection's receiving ended. */
type Ending = { kind: "closed" } | { kind: "stopped" } | { kind: "taskCompleted" } | { kind: "transfer"; to: string };

/**
 * An LLM agent's live run (ADK's live flow): the request is built as for a model call (history, instruction, tools),
 * the model connected with the run's live settings, the history sent, and then two things happen at once until the
 * program closes the queue: what the program puts in the context's `liveRequestQueue` goes to the model, and what
 * the model sends comes back as events (text in pieces and whole, audio, transcriptions, `turnComplete`,
 * `interrupted`). The model's function calls are run as in `runAsync` (callbacks, confirmation, credentials) and
 * their responses sent back. A connection that drops, or that the server says it will close (`goAway`), is opened
 * again with the latest session resumption handle, up to {@link MAX_LIVE_RECONNECT_ATTEMPTS} times in a row; a
 * transfer closes this agent's connection and runs the target live.
 */
export async function* runLlmAgentLive(agent: LlmAgentSettings, context: InvocationContext): AsyncGenerator<Event, void, undefined> {
  const queue = context.liveRequestQueue;
  if (!queue) throw new ConfigurationError("LIVE_UNSUPPORTED", `Agent "${agent.name}" was run live without a LiveRequestQueue: run it through runner.runLive({ userId, sessionId, liveRequestQueue }).`);
  const model = await agent.canonicalModel();
  if (typeof model.connect !== "function") {
    throw new ConfigurationError("LIVE_UNSUPPORTED", `Model "${model.name}" cannot run live: it has no connect(). Give agent "${agent.name}" a model that connects live (Gemini's live models), or run it with runAsync.`);
  }
  // As in ADK's live flow, the request processors run once, before the connection opens.
  const built = agent.requestProcessors?.length ? yield* processedRequest(agent, context, model, agent.requestProcessors) : buildLlmRequest(agent, context, model);
  if (!built) return;
  const prepared = built instanceof Promise ? await built : built;
  const { request, actions } = prepared;
  // What tools wrote to the state while the request was prepared is stored, as a model call's event carries it.
  if (hasKeys(actions.stateDelta) || hasKeys(actions.artifactDelta)) yield createEvent({ invocationId: context.invocationId, author: agent.name, branch: context.branch, actions });
  const toolsByName = isOfKind(agent.parentAgent, SequentialAgent, "SequentialAgent") ? withTaskCompleted(request, prepared.toolsByName) : prepared.toolsByName;
  request.liveConnectConfig = liveConnectConfigOf(context.runConfig);
  // Made before any tool runs, so the tools' copies of the context share it; its streams end with this agent's run.
  context.activeStreamingTools ??= {};
  const recorder = context.runConfig.saveLiveBlob ? new LiveAudioRecorder(context) : undefined;
  if (recorder && !context.artifactService) {
    throw new ConfigurationError("INVALID_RUN_CONFIG", "runConfig.saveLiveBlob keeps the live audio as artifacts of the session, and this run has no artifact service: give the Runner an artifactService (InMemoryRunner has one), or leave saveLiveBlob out.");
  }
  try {
    yield* connectAndConverse(agent, context, model, request as LlmRequest & { liveConnectConfig: LiveConnectConfig }, queue, toolsByName, recorder);
    // What the last turn left unsaved (the run ended before the model completed it).
    if (recorder) yield* await recorder.save(["input", "output"]);
  } finally {
    await stopStreamingTools(context.activeStreamingTools);
  }
}

/** The agent's conversation: connected, reconnected with the session's handle, and handed on at a transfer. */
async function* connectAndConverse(agent: LlmAgentSettings, context: InvocationContext, model: Model, request: LlmRequest & { liveConnectConfig: LiveConnectConfig }, queue: LiveRequestQueue, toolsByName: ReadonlyMap<string, Tool>, recorder: LiveAudioRecorder | undefined): AsyncGenerator<Event, void, undefined> {
  let failedAttempts = 0;
  for (;;) {
    if (invocationAborted(context)) return;
    const handle = context.liveSessionResumptionHandle;
    if (handle) request.liveConnectConfig.sessionResumption = { ...request.liveConnectConfig.sessionResumption, handle, transparent: true };
    let connection: BaseLlmConnection;
    try {
      connection = await model.connect!(request);
    } catch (error) {
      if (handle === undefined || !isRecoverable(error) || failedAttempts >= MAX_LIVE_RECONNECT_ATTEMPTS) throw connectionFailed(model, error, failedAttempts);
      failedAttempts++;
      logger.info(`Live connect failed (attempt ${failedAttempts}); trying again with the session's resumption handle: ${(error as Error)?.message}`);
      continue;
    }
    const session = new LiveSession(connection, queue, context, recorder);
    let ending = { kind: "closed" } as Ending;
    try {
      // A handle means the server holds the conversation: it is not sent again.
      if (request.contents.length > 0 && !handle) await connection.sendHistory(request.contents);
      const sending = session.startSending();
      const receiving = async function* (): AsyncGenerator<Event, void, undefined> {
        try {
          ending = yield* receiveEvents(agent, context, session, request, toolsByName);
        } finally {
          // The sender stops with the receiving, so the user's messages end too.
          await session.end();
        }
      };
      // What the model sends and what the program typed, each event yielded (and so stored) as it comes.
      yield* mergeRuns([receiving(), session.typed.drain(sending)]);
    } catch (error) {
      await session.end();
      if (!(context.liveSessionResumptionHandle && isRecoverable(error))) throw error;
      // Counted in a row: a connection that worked for a while starts the count again (ADK counts over the whole run,
      // so a long conversation failed at its sixth goAway).
      if (session.received) failedAttempts = 0;
      if (failedAttempts >= MAX_LIVE_RECONNECT_ATTEMPTS) throw connectionFailed(model, error, failedAttempts);
      failedAttempts++;
      logger.info(`The live connection closed; opening it again with the session's resumption handle: ${(error as Error)?.message}`);
      continue;
    } finally {
      // Also when the caller stops reading: the connection and the sending never outlive the run.
      await session.end();
    }
    if (session.sendFailure) throw session.sendFailure;
    if (ending.kind !== "transfer") return;
    const target = findAgent(rootOf(agent), ending.to);
    if (!target) throw new ConfigurationError("UNKNOWN_AGENT", `Agent "${agent.name}" transferred to "${ending.to}", which is not in the agent tree. Transfer to one of its agents.`);
    // This agent's streaming tools stop: their results were for it. The target opens a connection and keeps streams of
    // its own (this one's handle names this agent's server session).
    await stopStreamingTools(context.activeStreamingTools);
    if (recorder) yield* await recorder.save(["input", "output"]);
    yield* runAgentLive(target, deriveInvocationContext(context, { agent: target, liveSessionResumptionHandle: undefined, activeStreamingTools: undefined }));
    return;
  }
}

/**
 * What the model sends on one connection, as events, with the function calls run and answered, until the
 * connection closes, the run is cancelled, a `task_completed` call ends the agent's part, or a transfer.
 */
async function* receiveEvents(agent: LlmAgentSettings, context: InvocationContext, session: LiveSession, request: LlmRequest, toolsByName: ReadonlyMap<string, Tool>): AsyncGenerator<Event, Ending, undefined> {
  for await (const response of session.connection.receive()) {
    if (invocationAborted(context) || session.stopped) return { kind: "stopped" };
    session.received = true;
    const newHandle = response.liveSessionResumptionUpdate?.newHandle;
    if (newHandle) context.liveSessionResumptionHandle = newHandle;
    if (response.goAway) throw new ReconnectRequested(`The live server is closing the connection (goAway, ${response.goAway.timeLeft ?? "soon"}).`);
    // The response processors change each response before it becomes an event, as in ADK's live flow.
    // Their events are yielded as they come: each stored before the processor goes on.
    const processors = agent.responseProcessors;
    if (processors?.length && !(yield* emittedBy((emit) => runProcessors(processors, "responseProcessors", context, response, emit)))) return { kind: "stopped" };
    const event = liveEvent(agent, context, response, toolsByName);
    if (!event) continue;
    if (session.recorder) yield* await recordedAudio(session.recorder, event);
    yield event;
    const calls = event.partial ? [] : getFunctionCalls(event.content);
    if (calls.length === 0) continue;
    // Streaming tools the calls start send their results only once the calls' responses were sent.
    let release = noop;
    holdStreamsUntil(context.activeStreamingTools!, new Promise<void>((resolve) => (release = resolve)));
    try {
      const result = yield* emittedBy((emit) => executeFunctionCalls(agent, context, calls, toolsByName, { emit }));
      if (!result) return { kind: "stopped" };
      yield result.responseEvent;
      if (result.clientRequest) yield result.clientRequest;
      await session.connection.sendContent(result.responseEvent.content!);
      if (getFunctionResponses(result.responseEvent.content).some((answered) => answered.name === TASK_COMPLETED_TOOL_NAME)) return { kind: "taskCompleted" };
      const transferTo = result.responseEvent.actions.transferToAgent;
      if (transferTo) return { kind: "transfer", to: transferTo };
    } finally {
      release();
    }
  }
  return { kind: "closed" };
}

/**
 * The event a live response becomes, as ADK's live flow makes it, or `undefined` for a response that carries
 * nothing to show: a transcription of the user is authored `user`; a resumption handle and a transcription are
 * events of their own; anything else is the response as an event, its calls given ids and long-running calls
 * marked. The agent's `outputKey` takes its final text.
 */
export function liveEvent(agent: LlmAgentSettings, context: InvocationContext, response: LlmResponse, toolsByName: ReadonlyMap<string, Tool>): Event | undefined {
  const shows = response.content || response.errorCode || response.interrupted || response.turnComplete || response.inputTranscription || response.outputTranscription || response.usageMetadata || response.liveSessionResumptionUpdate;
  if (!shows) return undefined;
  const init = { id: newEventId(), invocationId: context.invocationId, author: response.inputTranscription || response.content?.role === "user" ? "user" : agent.name, branch: context.branch, actions: createEventActions() };
  if (response.liveSessionResumptionUpdate) return eventFromResponse({ liveSessionResumptionUpdate: response.liveSessionResumptionUpdate }, init);
  if (response.inputTranscription) return eventFromResponse({ inputTranscription: response.inputTranscription, partial: response.partial }, init);
  if (response.outputTranscription) return eventFromResponse({ outputTranscription: response.outputTranscription, partial: response.partial }, init);
  const event = eventFromResponse(response, init);
  const calls = getFunctionCalls(event.content);
  if (calls.length > 0) {
    giveCallsIds(calls);
    const longRunning = calls.filter((call) => call.name !== undefined && toolsByName.get(call.name)?.isLongRunning).map((call) => call.id!);
    event.longRunningToolIds = longRunning;
  }
  if (agent.outputKey && event.author === agent.name && isFinalResponse(event)) {
    const text = getText(event.content);
    if (text) event.actions.stateDelta[agent.outputKey] = text;
  }
  return event;
}

/** The live connection's settings from the run's: ADK's live keys, copied when set. */
export function liveConnectConfigOf(runConfig: ResolvedRunConfig): LiveConnectConfig {
  const config: LiveConnectConfig = {};
  for (const key of LIVE_RUN_CONFIG_KEYS) if (runConfig[key] !== undefined) (config as Record<string, unknown>)[key] = runConfig[key];
  return config;
}

/** The request and tools of an agent under a sequence, with `task_completed` offered and explained. */
function withTaskCompleted(request: LlmRequest, toolsByName: ReadonlyMap<string, Tool>): ReadonlyMap<string, Tool> {
  if (toolsByName.has(TASK_COMPLETED_TOOL_NAME)) return toolsByName;
  request.functionDeclarations.push(taskCompletedTool.declaration());
  appendInstructions(request, [TASK_COMPLETED_INSTRUCTION]);
  return new Map([...toolsByName, [TASK_COMPLETED_TOOL_NAME, taskCompletedTool]]);
}

/**
 * Whether a failure of a live connection is worth opening it again for, as ADK judges: the server asked to
 * reconnect, the socket closed abnormally (1006), the server failed or restarts (1011, 1012), or the connection
 * was reset.
 */
export function isRecoverable(error: unknown): boolean {
  if (error instanceof ReconnectRequested) return true;
  if (error instanceof LiveConnectionClosedError) return RECOVERABLE_CLOSE_CODES.has(error.closeCode);
  if (!(error instanceof Error)) return false;
  if (RECOVERABLE_CLOSE_CODES.has((error as { code?: unknown }).code as number)) return true;
  return /ConnectionClosed|connection closed|ECONNRESET|socket hang up/i.test(error.message);
}

function connectionFailed(model: Model, error: unknown, attempts: number): ToolsmithError {
  if (isToolsmithError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  const tried = attempts > 0 ? ` after ${attempts} attempt${attempts === 1 ? "" : "s"} to take the session up again` : "";
  return new ToolsmithError("LIVE_CONNECTION_FAILED", `The live connection to model "${model.name}" failed${tried}: ${reason}. Check the model name (a live model), the network and the key, then run again.`, { cause: error });
}

/**
 * One live connection with the task that sends it what the program queues. Reads of the queue are released when
 * the connection ends, so a dropped connection's sender cannot take a request meant for the next one.
 */
class LiveSession {
  readonly connection: BaseLlmConnection;
  readonly #queue: LiveRequestQueue;
  readonly #stop = new AbortController();
  #sending: Promise<void> | undefined;
  #ended: Promise<void> | undefined;
  /** Stops following the run's abort; nothing until it is followed (an abort already happened ends the session at once). */
  #unfollow: () => void = noop;
  /** Why sending failed, when it did: the run ends with it. */
  sendFailure: unknown;
  /** Whether the model sent anything on this connection (it worked, whatever happens to it next). */
  received = false;
  /** The user's messages the program queued, as events, each passed on (and stored) before it is sent. */
  readonly typed = new EventChannel();
  readonly #context: InvocationContext;
  /** Keeps the conversation's audio when the run saves it (`saveLiveBlob`). */
  readonly recorder: LiveAudioRecorder | undefined;

  constructor(connection: BaseLlmConnection, queue: LiveRequestQueue, context: InvocationContext, recorder: LiveAudioRecorder | undefined) {
    this.connection = connection;
    this.#queue = queue;
    this.#context = context;
    this.recorder = recorder;
    // Followed as the loop follows a run's abort: through its cancellation, else the signal's shared listener.
    const end = () => void this.end();
    const cancellation = invocationCancellation(context);
    this.#unfollow = (cancellation ? cancellation.onAbort(end) : onSignalAbort(context.abortSignal, end)) ?? noop;
  }

  /** Whether the connection was ended (by the run, a failure to send, or the program closing the queue). */
  get stopped(): boolean {
    return this.#stop.signal.aborted;
  }

  /** Starts sending what the program queues; the promise settles when sending stops. */
  startSending(): Promise<void> {
    this.#sending = this.#send().catch((error: unknown) => {
      this.sendFailure = error;
      void this.end();
    });
    return this.#sending;
  }

  async #send(): Promise<void> {
    while (!this.stopped) {
      let request: LiveRequest;
      try {
        request = await this.#queue.get(this.#stop.signal);
      } catch (error) {
        if (this.stopped) return;
        throw error;
      }
      // What the user typed is stored before the model hears it (ADK TypeScript stores none of it), so the
      // history holds the whole conversation: for a later runAsync, or an agent a transfer hands it to.
      if (request.content && !request.content.parts?.some((part) => part.functionResponse)) {
        await this.typed.emit(createEvent({ invocationId: this.#context.invocationId, author: "user", branch: this.#context.branch, content: { ...request.content, role: request.content.role ?? "user" } }));
        if (this.stopped) return;
      }
      // Recorded before the model hears it, so the turn it ends saves it (ADK caches it first too).
      if (request.blob && this.recorder) for (const saved of await this.recorder.record("input", request.blob)) await this.typed.emit(saved);
      try {
        await dispatch(this.connection, request);
      } catch (error) {
        if (this.stopped) return;
        throw error;
      }
      // Streaming tools that read the user's audio and video get a copy of each piece (ADK's input streams).
      if (request.blob) copyToInputStreams(this.#context.activeStreamingTools, request.blob);
      if (request.close) return;
    }
  }

  /** Stops sending and closes the connection (its `receive` then ends); once, however often it is asked. */
  end(): Promise<void> {
    return (this.#ended ??= (async () => {
      this.#stop.abort();
      this.#unfollow();
      await this.connection.close().catch((error: unknown) => logger.warn(`Closing the live connection failed: ${(error as Error)?.message ?? String(error)}`));
      await this.#sending;
    })());
  }
}

function noop(): void {}

/**
 * What saving the conversation's audio makes of a live event, as ADK Python's `save_live_blob` does: the model's
 * audio in it is recorded; when the user interrupted the model its recording is saved, and when the turn completed
 * both sides' are. The events of what was saved, which come before the event itself (ADK's replace it).
 */
async function recordedAudio(recorder: LiveAudioRecorder, event: Event): Promise<Event[]> {
  const saved: Event[] = [];
  for (const part of event.content?.parts ?? []) if (part.inlineData) saved.push(...(await recorder.record("output", part.inlineData)));
  if (event.turnComplete) saved.push(...(await recorder.save(["input", "output"])));
  else if (event.interrupted) saved.push(...(await recorder.save(["output"])));
  return saved;
}

/** Queues `blob` on the input stream of each streaming tool that made one and still runs. */
function copyToInputStreams(registry: Record<string, ActiveStreamingTool> | undefined, blob: Blob): void {
  if (!registry) return;
  for (const active of Object.values(registry)) if (active.stream && !active.stream.isClosed) active.stream.sendRealtime(blob);
}

/** Sends one queued request the way its kind goes: closing, activity marks, realtime media, or a whole turn. */
async function dispatch(connection: BaseLlmConnection, request: LiveRequest): Promise<void> {
  if (request.close) return connection.close();
  if (request.activityStart) return connection.sendActivityStart?.();
  if (request.activityEnd) return connection.sendActivityEnd?.();
  if (request.blob) return connection.sendRealtime(request.blob);
  if (request.content) return connection.sendContent(request.content);
}
