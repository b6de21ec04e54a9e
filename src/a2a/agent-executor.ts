import type { Message, Part as A2APart, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from "@a2a-js/sdk";
import type { AgentExecutor, ExecutionEventBus, RequestContext } from "@a2a-js/sdk/server";
import type { RunConfig } from "../agents/run-config.js";
import type { Content, Part } from "../content/content.js";
import { createEventActions } from "../events/event-actions.js";
import type { Event } from "../events/event.js";
import { newId } from "../events/new-id.js";
import { isToolsmithError } from "../errors/toolsmith-error.js";
import { refuseUnhonouredOptions } from "../errors/unhonoured-option.js";
import { logger } from "../logging/logger.js";
import { REQUEST_CONFIRMATION } from "../pause/client-requests.js";
import { pauseReasonOf } from "../pause/paused-call.js";
import { getPendingUserInputRequests, getUserInputRequests } from "../pause/user-input-requests.js";
import { Runner, type RunnerOptions } from "../runner/runner.js";
import { isRunner } from "../runner/runner-kind.js";
import type { Session } from "../sessions/session.js";
import { A2A_METADATA_KEYS, actionsMetadata, eventMetadata, sessionMetadata } from "./metadata.js";
import { toA2AParts, toGenAIParts } from "./parts.js";
import { artifactUpdate, canceledUpdate, completedUpdate, failedUpdate, inputRequiredUpdate, stateOf, submittedTask, workingUpdate } from "./task-events.js";

/** A runner, the options to make one, or a function giving either (called once per request, as in ADK). */
export type RunnerOrRunnerConfig = Runner | RunnerOptions | (() => Runner | RunnerOptions) | (() => Promise<Runner | RunnerOptions>);

/** What the executor's callbacks see of a request: its session and the user's message, as ADK's `ExecutorContext`. */
export interface ExecutorContext {
  userId: string;
  sessionId: string;
  appName: string;
  readonlyState: Record<string, unknown>;
  events: Event[];
  userContent: Content;
  requestContext: RequestContext;
}

/** Runs before the agent, given the request; throwing fails the task with the message. */
export type BeforeExecuteCallback = (requestContext: RequestContext) => Promise<void>;
/** Runs after each event became an A2A artifact update, before it is sent. */
export type AfterEventCallback = (context: ExecutorContext, event: Event, a2aEvent?: TaskArtifactUpdateEvent) => Promise<void>;
/** Runs once with the task's final status (completed, failed or waiting for input), before it is sent. */
export type AfterExecuteCallback = (context: ExecutorContext, finalEvent: TaskStatusUpdateEvent, error?: Error) => Promise<void>;

/** The executor's run settings: a run's `RunConfig` and ADK's switch for confirmations answered by a peer. */
export type A2ARunConfig = RunConfig & {
  /**
   * Let a peer answer a tool confirmation (`adk_request_confirmation`) over A2A, for a peer that relays a real
   * person's decision. Default `false`: a confirmation asks a person to take responsibility for an action, and a
   * peer cannot stand in for them, so such an answer is refused and the task keeps waiting.
   */
  allowRemoteToolConfirmation?: boolean;
};

/** Options of {@link A2AAgentExecutor}, as ADK's `AgentExecutorConfig`. */
export interface AgentExecutorConfig {
  runner: RunnerOrRunnerConfig;
  runConfig?: A2ARunConfig;
  beforeExecuteCallback?: BeforeExecuteCallback;
  afterEventCallback?: AfterEventCallback;
  afterExecuteCallback?: AfterExecuteCallback;
}

/**
 * Serves a toolsmith agent to A2A clients: `@a2a-js/sdk`'s `AgentExecutor`, as ADK's `A2AAgentExecutor`. Each A2A
 * context is a session (`A2A_USER_<contextId>` / `<contextId>`) of the runner's app; each request runs the agent on
 * the client's message and publishes the task (submitted, working), each event with content as an artifact update
 * (streamed text as chunks of one artifact), and the final status: completed, failed (the first error event's
 * message, or the run's), or input-required with the calls the run waits on (long-running tools, `adk_request_input`,
 * credentials). The client answers with function responses in the same task; an answer that leaves a waiting call
 * unanswered gets the input-required status again, naming the call, and nothing runs.
 */
export class A2AAgentExecutor implements AgentExecutor {
  readonly #config: AgentExecutorConfig;
  /** The artifact an author's streamed text is going into, until its complete event closes it. */
  readonly #partialArtifacts = new Map<string, string>();
  /** The runs going on in this process, by task id: cancelling a task aborts its run. */
  readonly #running = new Map<string, AbortController>();

  constructor(config: AgentExecutorConfig) {
    refuseUnhonouredOptions("A2AAgentExecutor", config, ["runner", "runConfig", "beforeExecuteCallback", "afterEventCallback", "afterExecuteCallback"]);
    this.#config = config;
  }

  async execute(requestContext: RequestContext, eventBus: ExecutionEventBus): Promise<void> {
    const a2aMessage = requestContext.userMessage;
    if (!a2aMessage) throw new Error("The A2A request has no message to run the agent on.");
    const { taskId } = requestContext;
    // Registered before anything is awaited, so a cancel that comes at once finds the run.
    const cancellation = new AbortController();
    this.#running.set(taskId, cancellation);
    try {
      await this.#execute(requestContext, eventBus, a2aMessage, cancellation.signal);
    } finally {
      if (this.#running.get(taskId) === cancellation) this.#running.delete(taskId);
    }
  }

  async #execute(requestContext: RequestContext, eventBus: ExecutionEventBus, a2aMessage: Message, cancelled: AbortSignal): Promise<void> {
    const { taskId, contextId } = requestContext;
    const userId = `A2A_USER_${contextId}`;
    const sessionId = contextId;
    const runner = await runnerOf(this.#config.runner);
    let context: ExecutorContext | undefined;
    // A new task is announced before anything can fail, so that a failure (a message that is not A2A, a callback
    // that throws) reaches the client as this task's failed status, not as the SDK's "no task context found".
    let announced = requestContext.task !== undefined;
    const announce = () => {
      if (!announced) eventBus.publish(submittedTask({ taskId, contextId, message: a2aMessage }));
      announced = true;
    };
    try {
      const userContent: Content = { role: a2aMessage.role === "user" ? "user" : "model", parts: toGenAIParts(a2aMessage.parts) };
      const session = await sessionOf(runner, userId, sessionId);
      context = { userId, sessionId, appName: session.appName, readonlyState: session.state, events: session.events, userContent, requestContext };
      await this.#config.beforeExecuteCallback?.(requestContext);
      const { allowRemoteToolConfirmation = false, ...runConfig } = this.#config.runConfig ?? {};
      const refused = refusedAnswer(requestContext.task, session.events, userContent, allowRemoteToolConfirmation);
      if (refused) {
        await this.#publishFinal(context, eventBus, inputRequiredUpdate({ taskId: requestContext.task?.id ?? taskId, contextId: requestContext.task?.contextId ?? contextId, parts: refused }));
        return;
      }
      announce();
      eventBus.publish(workingUpdate({ taskId, contextId }));
      const events: Event[] = [];
      for await (const event of runner.runAsync({ userId, sessionId, newMessage: userContent, runConfig, abortSignal: cancelled })) {
        events.push(event);
        const update = this.#artifactOf(event, context);
        if (!update) continue;
        await this.#config.afterEventCallback?.(context, event, update);
        eventBus.publish(update);
      }
      if (cancelled.aborted) {
        await this.#publishFinal(context, eventBus, canceledUpdate({ taskId, contextId, metadata: sessionMetadata({ appName: runner.appName, userId, sessionId }), message: CANCELED_MESSAGE }));
        return;
      }
      await this.#publishFinal(context, eventBus, finalStatus(events, context));
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      const metadata = { ...sessionMetadata({ appName: runner.appName, userId, sessionId }), ...(isToolsmithError(error) ? { [A2A_METADATA_KEYS.errorCode]: error.code } : {}) };
      announce();
      await this.#publishFinal(context, eventBus, failedUpdate({ taskId, contextId, message: `Agent run failed: ${error.message}`, metadata }), error);
    }
  }

  /**
   * Cancels a running task (ADK 2.0 refuses to): its run is aborted (the model call and running tools are told to
   * stop, and nothing more is stored), and the task ends `canceled`. The SDK calls this only while the task runs; a
   * run that ended meanwhile keeps its final status, and the SDK tells the client the task cannot be cancelled.
   */
  async cancelTask(taskId: string): Promise<void> {
    this.#running.get(taskId)?.abort(new Error(`A2A task ${taskId} was cancelled by its client.`));
  }

  /**
   * An event with content as an artifact update: streamed chunks of one author go into one artifact. The paused
   * placeholder toolsmith stores for a call that waits (`{status: "paused"}`) is bookkeeping, not a result, and is
   * not sent: ADK's server has no such event, and a peer would read it as the call's answer.
   */
  #artifactOf(event: Event, context: ExecutorContext): TaskArtifactUpdateEvent | undefined {
    const parts = toA2AParts(event.content?.parts?.filter((part) => !isPausedPlaceholder(part)), event.longRunningToolIds);
    if (parts.length === 0) return undefined;
    const artifactId = this.#partialArtifacts.get(event.author) ?? newId();
    if (event.partial) this.#partialArtifacts.set(event.author, artifactId);
    else this.#partialArtifacts.delete(event.author);
    const { taskId, contextId } = context.requestContext;
    return artifactUpdate({ taskId, contextId, artifactId, parts, metadata: eventMetadata(event, context), append: event.partial, lastChunk: !event.partial });
  }

  async #publishFinal(context: ExecutorContext | undefined, eventBus: ExecutionEventBus, event: TaskStatusUpdateEvent, error?: Error): Promise<void> {
    try {
      if (context) await this.#config.afterExecuteCallback?.(context, event, error);
    } catch (callbackError) {
      logger.error(`A2A afterExecuteCallback failed; the task's final status is sent as it was: ${(callbackError as Error).message}`);
    }
    eventBus.publish(event);
  }
}

async function runnerOf(runner: RunnerOrRunnerConfig): Promise<Runner> {
  if (typeof runner === "function") return runnerOf(await runner());
  return isRunner(runner) ? runner : new Runner(runner);
}

async function sessionOf(runner: Runner, userId: string, sessionId: string): Promise<Session> {
  const found = await runner.sessionService.getSession({ appName: runner.appName, userId, sessionId });
  return found ?? runner.sessionService.createSession({ appName: runner.appName, userId, sessionId });
}

/**
 * The task's final status from the run's events, as ADK makes it: failed at the first error event, else waiting
 * for input when the run paused on calls, else completed; an escalation or transfer in the run is reported in its
 * metadata.
 */
function finalStatus(events: readonly Event[], context: ExecutorContext): TaskStatusUpdateEvent {
  const { taskId, contextId } = context.requestContext;
  const actions = createEventActions();
  for (const event of events) {
    if (event.errorCode || event.errorMessage) {
      return failedUpdate({ taskId, contextId, message: event.errorMessage || event.errorCode!, metadata: { ...eventMetadata(event, context), ...actionsMetadata(actions) } });
    }
    if (event.actions?.escalate) actions.escalate = true;
    if (event.actions?.transferToAgent) actions.transferToAgent = event.actions.transferToAgent;
  }
  const waiting = waitingParts(events);
  if (waiting.parts.length > 0) {
    return inputRequiredUpdate({ taskId, contextId, parts: toA2AParts(waiting.parts, waiting.ids), metadata: { ...sessionMetadata(context), ...actionsMetadata(actions) } });
  }
  return completedUpdate({ taskId, contextId, metadata: { ...sessionMetadata(context), ...actionsMetadata(actions) } });
}

/**
 * The long-running calls the run paused on, each once, as ADK gathers them: a part counts once per call id, so a
 * call's immediate response (a pending status) is not sent again after the call.
 */
function waitingParts(events: readonly Event[]): { parts: Part[]; ids: string[] } {
  const parts: Part[] = [];
  const ids = new Set<string>();
  for (const event of events) {
    const longRunning = event.longRunningToolIds ?? [];
    for (const part of event.content?.parts ?? []) {
      const callId = part.functionCall?.id;
      const responseId = part.functionResponse?.id;
      const id = callId && longRunning.includes(callId) ? callId : responseId && longRunning.includes(responseId) ? responseId : undefined;
      if (!id || ids.has(id) || isPausedPlaceholder(part)) continue;
      parts.push(part);
      ids.add(id);
    }
  }
  return { parts, ids: [...ids] };
}

/**
 * The parts of an input-required status for a message that cannot be run: one that leaves a call the task waits on
 * unanswered (as ADK: the waiting calls, then `No input provided for function call id …`), or one that answers a
 * confirmation when peers may not (toolsmith's: the waiting calls, then why). Undefined when the message may run.
 */
function refusedAnswer(task: Task | undefined, events: readonly Event[], message: Content, allowRemoteToolConfirmation: boolean): A2APart[] | undefined {
  const pending = pendingCalls(task, events);
  const answered = new Set((message.parts ?? []).map((part) => part.functionResponse?.id).filter((id): id is string => Boolean(id)));
  const missing = [...pending.keys()].find((id) => !answered.has(id));
  if (missing) return [...toA2AParts([...pending.values()]), validationText(`No input provided for function call id ${missing}`)];
  if (allowRemoteToolConfirmation) return undefined;
  const confirmation = [...pending.entries()].find(([id, part]) => answered.has(id) && part.functionCall?.name === REQUEST_CONFIRMATION);
  if (!confirmation) return undefined;
  return [
    ...toA2AParts([...pending.values()]),
    validationText(
      `The confirmation ${confirmation[0]} cannot be answered over A2A: it asks a person to take responsibility for an action, and a peer cannot stand in for them. Ask the person through the agent's own client, or set runConfig.allowRemoteToolConfirmation on the A2AAgentExecutor if the peer relays a real person's decision.`,
    ),
  ];
}

/** What a cancelled task's status says: the run stopped, and a call it had started may have done part of its work. */
const CANCELED_MESSAGE = "The task was cancelled: its run was stopped, and a tool call it had started may have done part of its work.";

/** Whether a part is the response toolsmith holds for a call that waits (see `pause/paused-call.ts`). */
const isPausedPlaceholder = (part: Part): boolean => part.functionResponse !== undefined && pauseReasonOf(part.functionResponse.response) !== undefined;

const validationText = (text: string): A2APart => ({ kind: "text", text, metadata: { validation_error: true } });

/** The calls the task waits on: those its input-required status names, and the session's unanswered requests. */
function pendingCalls(task: Task | undefined, events: readonly Event[]): Map<string, Part> {
  const pending = new Map<string, Part>();
  if (task && stateOf(task) === "input-required" && task.status.message) {
    for (const part of toGenAIParts(task.status.message.parts)) if (part.functionCall?.id) pending.set(part.functionCall.id, part);
  }
  const waiting = new Set(getPendingUserInputRequests(events).map((request) => request.interruptId));
  for (const event of events) {
    for (const part of event.content?.parts ?? []) {
      if (!part.functionCall) continue;
      const [request] = getUserInputRequests({ ...event, content: { role: "model", parts: [part] } });
      if (request && waiting.has(request.interruptId)) pending.set(request.interruptId, part);
    }
  }
  // A call answered in the session is no longer waited on; toolsmith's paused placeholder is not an answer.
  for (const event of events) {
    for (const part of event.content?.parts ?? []) {
      if (part.functionResponse?.id && !isPausedPlaceholder(part)) pending.delete(part.functionResponse.id);
    }
  }
  return pending;
}
