import { resolveRunConfig, withinModelCallLimit } from "./run-config.js";
import { newId } from "../events/new-id.js";
import { RunCancellation } from "./run-cancellation.js";
import { rootTraceScope, type TraceScope } from "../telemetry/spans.js";
import { ConfigurationError, LlmCallsLimitExceededError } from "../errors/toolsmith-error.js";
import { refuseUnhonouredOptions } from "../errors/unhonoured-option.js";
import type { ArtifactService } from "../artifacts/artifact-service.js";
import type { CredentialService } from "../auth/credential-service.js";
import type { Content } from "../content/content.js";
import type { MemoryService } from "../memory/memory-service.js";
import type { GenerateContentOptions } from "../models/model.js";
import type { Session } from "../sessions/session.js";
import type { SessionService } from "../sessions/session-service.js";
import type { AuthConfig, ToolConfirmation } from "../events/event-actions.js";
import type { Event } from "../events/event.js";
import type { LlmRequest } from "../models/llm-request.js";
import type { LlmResponse } from "../models/llm-response.js";
import type { ResolvedRunConfig, RunConfig } from "./run-config.js";
import type { LiveRequestQueue } from "./live-request-queue.js";
import type { ActiveStreamingTool } from "./active-streaming-tool.js";

export type { RunConfig } from "./run-config.js";

/**
 * An agent: something that, given an invocation, produces events. `LlmAgent`
 * drives a model; workflow agents run their sub-agents in a fixed order.
 */
export interface Agent {
  readonly name: string;
  /** Tells other agents (and models choosing a transfer target) what this agent does. */
  readonly description: string;
  readonly subAgents: readonly Agent[];
  /** Set when the agent is placed under another; an agent has at most one parent. */
  readonly parentAgent?: Agent;
  runAsync(context: InvocationContext): AsyncGenerator<Event, void, undefined>;
  /** Runs the agent live (`Runner.runLive`); an agent without it cannot run live. */
  runLive?(context: InvocationContext): AsyncGenerator<Event, void, undefined>;
}

/**
 * What agents and the LLM loop ask of the runner's plugins (ADK's
 * `PluginManager` implements it). Each hook runs the plugins in order and
 * returns the first value one of them returns; `undefined` lets the agent's
 * own callbacks (and then the agent, model or tool) run. Contexts are the
 * ones the agent's callbacks get, so state changes land on the same event.
 */
export interface PluginHooks {
  /**
   * Whether a plugin overrides `hook` (a plugin's hook left as `BasePlugin`'s answers nothing). The loop asks
   * before building a hook's context and awaiting it: a plugin costs a run only the hooks it overrides.
   */
  overrides(hook: PluginHookName): boolean;
  /** Whether a plugin's `beforeModelCallback` may change the request's contents in place (see `detachContents`). */
  changesRequestContents(): boolean;
  runBeforeAgentCallback(params: { agent: Agent; callbackContext: object }): Promise<Content | undefined>;
  runAfterAgentCallback(params: { agent: Agent; callbackContext: object }): Promise<Content | undefined>;
  runBeforeModelCallback(params: { callbackContext: object; llmRequest: LlmRequest }): Promise<LlmResponse | undefined>;
  runAfterModelCallback(params: { callbackContext: object; llmResponse: LlmResponse }): Promise<LlmResponse | undefined>;
  runOnModelErrorCallback(params: { callbackContext: object; llmRequest: LlmRequest; error: Error }): Promise<LlmResponse | undefined>;
  runBeforeToolCallback(params: { tool: { readonly name: string }; toolArgs: Record<string, unknown>; toolContext: object }): Promise<Record<string, unknown> | undefined>;
  runAfterToolCallback(params: { tool: { readonly name: string }; toolArgs: Record<string, unknown>; toolContext: object; result: Record<string, unknown> }): Promise<Record<string, unknown> | undefined>;
  runOnToolErrorCallback(params: { tool: { readonly name: string }; toolArgs: Record<string, unknown>; toolContext: object; error: Error }): Promise<Record<string, unknown> | undefined>;
  /** The tools to keep for a model call, by name, when a plugin narrows them (ADK 2's `beforeToolSelection`). */
  runBeforeToolSelection(params: { callbackContext: object; tools: Readonly<Record<string, { readonly name: string }>> }): Promise<Readonly<Record<string, unknown>> | undefined>;
  /** Every plugin's hook before an agent's history is compacted, with what triggered it (`ContextCompactionTrigger`). */
  runBeforeContextCompaction(params: { invocationContext: InvocationContext; trigger: string }): Promise<void>;
  /** Every plugin's hook after an agent's history was compacted. */
  runAfterContextCompaction(params: { invocationContext: InvocationContext; trigger: string }): Promise<void>;
  /** Before a workflow node runs: a value returned is the node's output, and the node does not run. */
  runBeforeNodeCallback(params: { node: { readonly name: string }; nodeContext: NodeHookContext; input: unknown }): Promise<unknown>;
  /** After a workflow node ran: a value returned replaces its output. */
  runAfterNodeCallback(params: { node: { readonly name: string }; nodeContext: NodeHookContext; output: unknown }): Promise<unknown>;
}

/** What a plugin's node hooks see of a workflow node's context (the workflow's `NodeContext` is one). */
export interface NodeHookContext {
  /** The node's dotted path: `workflow.node`. */
  readonly nodePath: string;
  readonly runId: string;
  readonly invocationContext: InvocationContext;
  /** The node's output so far, and its route. */
  output: unknown;
}

const answerNothing = async (): Promise<undefined> => undefined;

/** The hooks of a runner without plugins: each answers nothing, so the agent's own callbacks and work go on. */
const NO_PLUGINS: PluginHooks = Object.freeze({
  overrides: () => false,
  changesRequestContents: () => false,
  runBeforeAgentCallback: answerNothing,
  runAfterAgentCallback: answerNothing,
  runBeforeModelCallback: answerNothing,
  runAfterModelCallback: answerNothing,
  runOnModelErrorCallback: answerNothing,
  runBeforeToolCallback: answerNothing,
  runAfterToolCallback: answerNothing,
  runOnToolErrorCallback: answerNothing,
  runBeforeToolSelection: answerNothing,
  runBeforeContextCompaction: answerNothing,
  runAfterContextCompaction: answerNothing,
  runBeforeNodeCallback: answerNothing,
  runAfterNodeCallback: answerNothing,
});

/** The hooks a plugin may override, by `BasePlugin`'s method names. */
export type PluginHookName =
  | "onUserMessageCallback"
  | "beforeRunCallback"
  | "onEventCallback"
  | "afterRunCallback"
  | "beforeAgentCallback"
  | "afterAgentCallback"
  | "beforeModelCallback"
  | "afterModelCallback"
  | "onModelErrorCallback"
  | "beforeToolCallback"
  | "afterToolCallback"
  | "onToolErrorCallback"
  | "beforeToolSelection"
  | "beforeContextCompaction"
  | "afterContextCompaction"
  | "beforeNodeCallback"
  | "afterNodeCallback";

/**
 * The invocation's plugins when one of them overrides `hook`, else `undefined`: the loop then neither builds the
 * hook's context nor awaits it (each awaited hook costs a turn of the event loop, for every model and tool call).
 */
export function pluginsFor(context: InvocationContext, hook: PluginHookName): PluginHooks | undefined {
  const plugins = context.plugins;
  return plugins !== undefined && plugins.overrides(hook) ? plugins : undefined;
}

/** What a client's answer unlocks for one paused call. */
export interface ClientAnswer {
  /** The person's decision on a call that asked for confirmation. */
  confirmation?: ToolConfirmation;
  /** The credential the client sent, and the request as stored (with secrets the client never saw). */
  credential?: { answer: AuthConfig; requested?: AuthConfig };
}

/**
 * Work toolsmith keeps for the length of an invocation, shared by every context of it (each agent's, each copy):
 * the model request's contents built so far, the run's cancellation, the model calls' options and the
 * invocation's `endInvocation` flag. Not for agents' own use.
 */
export interface InvocationMemo {
  contents?: object;
  /** The run's cancellation, whose signal every context of the invocation hands out, made when first read. */
  cancellation?: RunCancellation;
  /** The options of the invocation's model calls, one object each way, whose signal is made when read. */
  modelCallOptions?: GenerateContentOptions;
  streamingCallOptions?: GenerateContentOptions;
  /** The invocation's `endInvocation` flag, which every context of the invocation reads and writes. */
  invocationEnded: boolean;
}

/**
 * What `new InvocationContext(params)` takes (ADK's `InvocationContextParams`): the agent, the session and its
 * store; everything else has a default. A copy of a context spread into it (`{ ...context, agent }`, as ADK's
 * agents make theirs) is the same invocation: the same signal, end flag and model-call count.
 */
export interface InvocationContextParams {
  /** Default: a new id, `e-` and a UUID, as ADK's. */
  invocationId?: string;
  agent: Agent;
  session: Session;
  sessionService: SessionService;
  artifactService?: ArtifactService;
  memoryService?: MemoryService;
  credentialService?: CredentialService;
  userContent?: Content;
  resumeMessage?: Content;
  resumeAnswers?: ReadonlyMap<string, ClientAnswer>;
  /** Checked as `runAsync`'s is; default `streamingMode: "none"`, `maxLlmCalls: 500`. */
  runConfig?: RunConfig;
  /** A signal of the caller's own; by default the invocation's (the run's), made when first read. */
  abortSignal?: AbortSignal;
  /** `true` ends the invocation (every context of it); `false` leaves the invocation's flag as it is. */
  endInvocation?: boolean;
  branch?: string;
  historyRoot?: string;
  /** Default: the invocation's (from `memo`), else a new count. */
  counters?: { llmCalls: number };
  resumeAgent?: Agent;
  plugins?: PluginHooks;
  /** ADK's name for `plugins`. */
  pluginManager?: PluginHooks;
  trace?: TraceScope;
  memo?: InvocationMemo;
  /** The run's cancellation, when the caller made one: its signal becomes the context's `abortSignal`. */
  cancellation?: RunCancellation;
  /** Set for an agent run as a graph workflow's node: what its instruction's workflow placeholders read. */
  workflowInstructionScope?: WorkflowInstructionScope;
  /**
   * The conversation scope of a graph workflow node with `isolationScope` (ADK's): events of another scope are left
   * out of the model's history, and the node's events are marked with this one.
   */
  isolationScope?: string;
  /** How many `NodeTool` calls this context is nested in (ADK's); past 8 a `NodeTool` refuses to run. */
  nodeToolDepth?: number;
  /** A live run's queue of what the program sends the model (`Runner.runLive`). */
  liveRequestQueue?: LiveRequestQueue;
  /** A live run's latest session resumption handle, with which a dropped connection is taken up again. */
  liveSessionResumptionHandle?: string;
  /** A live run's streaming tools by name (ADK's); the live flow makes the record when it starts. */
  activeStreamingTools?: Record<string, ActiveStreamingTool>;
}

/**
 * What an agent node's instruction reads besides state (ADK's): `{input.field}` (any `{name.field}`) a field of
 * the node's input, `<x.field from node>` a field of an earlier node's output in this invocation.
 */
export interface WorkflowInstructionScope {
  input: unknown;
  outputsByNode: Readonly<Record<string, unknown>>;
}

const PARAMS: readonly string[] = [
  "invocationId", "agent", "session", "sessionService", "artifactService", "memoryService", "credentialService", "userContent", "resumeMessage",
  "resumeAnswers", "runConfig", "abortSignal", "endInvocation", "branch", "historyRoot", "counters", "resumeAgent", "plugins", "pluginManager",
  "trace", "memo", "cancellation", "workflowInstructionScope", "isolationScope", "nodeToolDepth", "liveRequestQueue", "liveSessionResumptionHandle",
  "activeStreamingTools",
];
/** ADK's parameters toolsmith lacks, with the value each behaves as when left out. */
const ADK_ONLY_PARAMS: Readonly<Record<string, { behavesAs: unknown; why: string }>> = {
  transcriptionCache: { behavesAs: undefined, why: "a live run stores each finished transcription as an event of its own and keeps no cache of them" },
};

/** Passed by toolsmith's own constructions, whose parameters it wrote itself: they skip the check for unknown ones. */
const trusted = Symbol("toolsmith.trustedParams");

/**
 * Everything one agent needs while it runs within an invocation, as ADK's `InvocationContext`. The runner makes
 * one per run; agents run their sub-agents in copies (`clone`, or `new InvocationContext({ ...context, agent })`,
 * as ADK's agents make theirs), which share the invocation's signal, end flag and model-call count.
 *
 * Every context has the same fields in the same order, and its signal and end flag are accessors of the class:
 * one hidden class for every context keeps the loop's reads of them monomorphic.
 */
export class InvocationContext {
  readonly invocationId: string;
  /** The agent running now. */
  agent: Agent;
  readonly session: Session;
  readonly sessionService: SessionService;
  readonly artifactService?: ArtifactService;
  readonly memoryService?: MemoryService;
  readonly credentialService?: CredentialService;
  readonly userContent?: Content;
  /** The user's message when it answers paused calls (function responses); inner agents resume from it. */
  readonly resumeMessage?: Content;
  /**
   * What that message answered, by the id of the paused call each answer lets
   * go on; read once, by the runner, before the message was stored.
   */
  readonly resumeAnswers?: ReadonlyMap<string, ClientAnswer>;
  readonly runConfig: ResolvedRunConfig;
  /** Dotted agent path isolating this agent's view of history in parallel branches. */
  branch?: string;
  /** Set for an agent run as a tool: it sees only events of this branch and below. */
  readonly historyRoot?: string;
  /** Shared by all agents of the invocation. */
  readonly counters: { llmCalls: number };
  /**
   * When the invocation answers a paused call (a confirmation, a credential, a
   * long-running result): the agent that owns it, so workflow agents continue
   * with the child that holds it instead of starting over.
   */
  readonly resumeAgent?: Agent;
  /** The runner's plugins, run around every agent, model call and tool call. */
  readonly plugins?: PluginHooks;
  /** Where this agent's spans go (OpenTelemetry, and in-process listeners such as the dev UI's trace view). */
  readonly trace: TraceScope;
  /** Work kept for the length of the invocation, shared by its contexts (see {@link InvocationMemo}). Not for agents' own use. */
  readonly memo: InvocationMemo;
  /** Set for an agent run as a graph workflow's node (see {@link WorkflowInstructionScope}). */
  readonly workflowInstructionScope?: WorkflowInstructionScope;
  /** The conversation scope of a workflow node with `isolationScope`: the model sees no event of another scope. */
  readonly isolationScope?: string;
  /** How many `NodeTool` calls this context is nested in. */
  readonly nodeToolDepth: number;
  /** A live run's queue of what the program sends the model; absent outside live runs. */
  readonly liveRequestQueue?: LiveRequestQueue;
  /**
   * A live run's latest session resumption handle: given to `runLive`, or the last one the model sent. A connection
   * that drops is opened again with it, and the server takes the session up where it was.
   */
  liveSessionResumptionHandle?: string;
  /**
   * A live run's streaming tools by name, as ADK's: each tool whose function streams its results (an async
   * generator) while the conversation goes on, with its task and input stream. Shared by the copies of a context.
   */
  activeStreamingTools?: Record<string, ActiveStreamingTool>;

  constructor(params: InvocationContextParams, check?: typeof trusted) {
    if (check !== trusted) refuseUnhonouredOptions("InvocationContext", params, PARAMS, ADK_ONLY_PARAMS);
    const memo = params.memo ?? { contents: undefined, cancellation: params.cancellation ?? (params.abortSignal ? undefined : new RunCancellation()), modelCallOptions: undefined, streamingCallOptions: undefined, invocationEnded: false };
    this.invocationId = params.invocationId ?? newId("e-");
    this.agent = params.agent;
    this.session = params.session;
    this.sessionService = params.sessionService;
    this.artifactService = params.artifactService;
    this.memoryService = params.memoryService;
    this.credentialService = params.credentialService;
    this.userContent = params.userContent;
    this.resumeMessage = params.resumeMessage;
    this.resumeAnswers = params.resumeAnswers;
    this.runConfig = resolveRunConfig(params.runConfig);
    this.branch = params.branch;
    this.historyRoot = params.historyRoot;
    this.counters = params.counters ?? { llmCalls: 0 };
    this.resumeAgent = params.resumeAgent;
    this.plugins = params.plugins ?? params.pluginManager;
    this.trace = params.trace ?? rootTraceScope();
    this.memo = memo;
    this.workflowInstructionScope = params.workflowInstructionScope;
    this.isolationScope = params.isolationScope;
    this.nodeToolDepth = params.nodeToolDepth ?? 0;
    this.liveRequestQueue = params.liveRequestQueue;
    this.liveSessionResumptionHandle = params.liveSessionResumptionHandle;
    this.activeStreamingTools = params.activeStreamingTools;
    if (params.endInvocation === true) memo.invocationEnded = true;
    const signal = params.abortSignal;
    // A signal of the caller's own (not the run's) is this context's alone: an own property, which a copy by
    // spread carries into the next context. Rare, so the usual context keeps the one hidden class.
    if (signal !== undefined && !(memo.cancellation?.hasSignal && memo.cancellation.signal === signal)) {
      Object.defineProperty(this, "abortSignal", { value: signal, enumerable: true, configurable: true });
    }
  }

  /**
   * Aborted when the run is cancelled: by the caller's signal, when the run fails, or when its caller stops
   * reading its events. The run's own signal, made when first read (Node takes microseconds to make one).
   */
  get abortSignal(): AbortSignal {
    return (this.memo.cancellation ??= new RunCancellation()).signal;
  }

  /**
   * Set to `true` to end the invocation after the current step, as in ADK. The flag belongs to the invocation:
   * every context of it reads and writes the same one, so a sub-agent that sets it also stops the workflow agents
   * around it (ADK copies it per agent).
   */
  get endInvocation(): boolean {
    return this.memo.invocationEnded;
  }

  set endInvocation(ended: boolean) {
    this.memo.invocationEnded = ended;
  }

  /**
   * The runner's plugins by ADK's name: the same hooks as {@link plugins}, and hooks that answer nothing when the
   * runner has no plugins, as ADK's context always holds a `PluginManager`. A custom agent that runs the plugins
   * around its own work calls them here without asking first whether there are any.
   */
  get pluginManager(): PluginHooks {
    return this.plugins ?? NO_PLUGINS;
  }

  /** The session's app, as ADK's `appName`. */
  get appName(): string {
    return this.session.appName;
  }

  /** The session's user, as ADK's `userId`. */
  get userId(): string {
    return this.session.userId;
  }

  /**
   * A copy of this context with `overrides` applied, as ADK's `clone`: the same invocation (its signal, end flag
   * and model-call count), unless the overrides say otherwise.
   */
  clone(overrides: Partial<InvocationContextParams> = {}): InvocationContext {
    return new InvocationContext({ ...this, ...overrides });
  }

  /**
   * Counts a model call against `runConfig.maxLlmCalls`, as ADK's `incrementLlmCallCount`: throws a
   * `LlmCallsLimitExceededError` (`LLM_CALLS_LIMIT_EXCEEDED`) past the bound. For an agent that calls a model
   * itself; LLM agents count their own calls.
   */
  incrementLlmCallCount(): void {
    if (!withinModelCallLimit(++this.counters.llmCalls, this.runConfig)) throw new LlmCallsLimitExceededError(this.runConfig.maxLlmCalls);
  }
}

/**
 * The one place toolsmith makes an invocation's first context (the runner, direct tool calls, the MCP server,
 * tool listings): a fresh id unless given, the run settings' defaults (`streamingMode: "none"`,
 * `maxLlmCalls: 500`), new counters, and the run's signal, made when `abortSignal` is first read, unless one
 * is given.
 */
export function createInvocationContext(init: InvocationContextParams): InvocationContext {
  return new InvocationContext(init, trusted);
}

/**
 * The same invocation with some fields changed (the agent, its branch, the trace scope). A context made by hand
 * (a plain object) becomes one of the class, with the fields the class has.
 */
export function deriveInvocationContext(context: InvocationContext, changes: Partial<InvocationContextParams>): InvocationContext {
  // A context made by hand is checked: a field of its own would be lost in the copy without a word.
  return new InvocationContext({ ...context, ...changes }, context instanceof InvocationContext ? trusted : undefined);
}

/**
 * Whether the invocation was cancelled. Asked of the context's {@link RunCancellation} when it made the context's
 * signal (a plain field), else of the signal: Node gives every `AbortSignal` a hidden class of its own, so a read
 * of `signal.aborted` misses V8's caches once a run at each place it is read.
 */
export function invocationAborted(context: InvocationContext): boolean {
  const cancellation = invocationCancellation(context);
  return cancellation ? cancellation.aborted : context.abortSignal.aborted;
}

/**
 * The {@link RunCancellation} whose signal is the context's, when the context keeps it (every context of a run
 * toolsmith made, and copies of them). Found without making a signal no one has read: a context hands out the run's
 * signal unless it holds a signal of its own (an own property), which may be the run's, once made, or the caller's.
 */
export function invocationCancellation(context: InvocationContext): RunCancellation | undefined {
  const cancellation = context.memo?.cancellation;
  if (cancellation === undefined) return undefined;
  if (!Object.hasOwn(context, "abortSignal")) return cancellation;
  return cancellation.hasSignal && cancellation.signal === context.abortSignal ? cancellation : undefined;
}

/** The same invocation, with another agent running (and optionally another branch). */
export function forAgent(context: InvocationContext, agent: Agent, branch?: string): InvocationContext {
  return deriveInvocationContext(context, { agent, branch: branch ?? context.branch });
}

/** The scope new spans of this invocation go under. */
export function traceScopeOf(context: InvocationContext): TraceScope {
  return context.trace ?? rootTraceScope();
}

/** The same invocation, its work traced under another span (an agent's, a tool call's). */
export function withTraceScope(context: InvocationContext, trace: TraceScope): InvocationContext {
  return deriveInvocationContext(context, { trace });
}

/**
 * The agent a context runs, as ADK's `requireAgent`: toolsmith's contexts always have one; a hand-made context
 * without one is refused, naming what is missing.
 */
export function requireAgent(context: InvocationContext): Agent {
  if (!context.agent) throw new ConfigurationError("INVALID_ARGUMENTS", "This InvocationContext has no agent: make contexts with createInvocationContext (or the runner), which sets the agent.");
  return context.agent;
}

/**
 * The agent's live run (its `runLive`), in its own copy of the context; an agent that has none (an `Agent` that is
 * not a `BaseAgent`) is refused with `LIVE_UNSUPPORTED` when the run reaches it.
 */
export function runAgentLive(agent: Agent, context: InvocationContext): AsyncGenerator<Event, void, undefined> {
  if (typeof agent.runLive !== "function") {
    throw new ConfigurationError("LIVE_UNSUPPORTED", `Agent "${agent.name}" cannot run live: it has no runLive. Extend BaseAgent and implement runLiveImpl, or run it with runAsync.`);
  }
  return agent.runLive(forAgent(context, agent));
}
