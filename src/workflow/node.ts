import type { Content } from "../content/content.js";
import type { InvocationContext } from "../agents/invocation-context.js";
import { ConfigurationError, isToolsmithError, ToolsmithError } from "../errors/toolsmith-error.js";
import { refuseUnhonouredOptions } from "../errors/unhonoured-option.js";
import { createEvent, type Event, type RouteValue } from "../events/event.js";
import { createEventActions, type EventActions } from "../events/event-actions.js";
import { State } from "../sessions/state.js";
import { isRequestInput, requestInputEvents } from "./request-input.js";
import { prepareRetryConfig, type PreparedRetryConfig, type RetryConfig } from "./retry.js";
import type { WorkflowResume } from "./resume.js";
import type { Session } from "../sessions/session.js";

import type { NodeSchema } from "./node-schema.js";
import { SchemaCheckedState } from "./state-schema.js";
export type { NodeSchema } from "./node-schema.js";

/** What every node takes (ADK's `BaseNodeConfig`). */
export interface BaseNodeConfig {
  /** The node's name: unique in its workflow, the last segment of its path, and the author of its events. */
  name: string;
  description?: string;
  /** With `true`, a node that ends with neither output nor route is left waiting: nothing after it runs. */
  waitForOutput?: boolean;
  /** Checked before the node runs (genai `Content` passes unchecked, as in ADK). */
  inputSchema?: NodeSchema;
  /** Checked on every output the node produces. */
  outputSchema?: NodeSchema;
  /**
   * Whether a node that waited runs again when the run resumes on the answer (with `ctx.resumeInputs`), rather
   * than taking the answer as its output. `false` by default; agents and workflows run again.
   */
  rerunOnResume?: boolean;
  /** When the node runs again after it failed (see {@link RetryConfig}); not at all by default. */
  retryConfig?: RetryConfig;
  /** Seconds an attempt may take: past them it fails with `NODE_TIMEOUT` (and `ctx.abortSignal` aborts). */
  timeout?: number;
  /**
   * The state keys the node (and the nodes it runs, unless they have their own) may write, and their types: a zod
   * object. A write of another key, or a value of another type, fails the node with `STATE_SCHEMA_MISMATCH`
   * (ADK's `StateSchemaError`); keys with a prefix (`app:`, `user:`, `temp:`) are not checked.
   */
  stateSchema?: NodeSchema;
  /**
   * The conversation scope of the node's events (ADK's): each event the node (and the nodes it runs) produces is
   * marked with it, and an agent running in the node sees no event of another scope in its history, nor do agents
   * outside the scope see the node's events (unmarked events, such as the user's messages, are seen by all). `true`
   * gives each run of the node its own scope, `<node path>@<run id>`. Inherited from the parent node when left out.
   */
  isolationScope?: string | true;
}

/** The options of {@link BaseNodeConfig} toolsmith honours. */
export const NODE_OPTIONS = ["name", "description", "waitForOutput", "inputSchema", "outputSchema", "stateSchema", "rerunOnResume", "retryConfig", "timeout", "isolationScope"] as const;

const NODE_BRAND = Symbol.for("toolsmith.workflow.node");

/** Options of {@link NodeContext.runNode} (ADK's `RunNodeOptions`). */
export interface RunNodeOptions {
  /** The name the child runs under (its path's last segment); its own name by default. */
  nodeName?: string;
  /** The child's run id; numbered per name by default. */
  runId?: string;
  /** The child's output and route become this node's. */
  useAsOutput?: boolean;
  /** The child runs on a branch of its own (`name#runId`), apart from its siblings. */
  useSubBranch?: boolean;
}

/** What a node run left: its output, its route and the interrupts it waits on (ADK's `NodeResult`). */
export interface NodeResult {
  output: unknown;
  route?: RouteValue | RouteValue[];
  branch?: string;
  interruptIds: string[];
}

/** How a context runs a child: set by the workflow engine, so this file needs none of it. */
export interface NodeEngine {
  build(nodeLike: unknown): BaseNode;
  run(parent: NodeContext, node: BaseNode, input: unknown, options: ChildRunOptions): Promise<NodeContext>;
}

/** {@link RunNodeOptions} with what the engine adds: the child's branch, path and cancellation. */
export interface ChildRunOptions extends RunNodeOptions {
  overrideBranch?: string;
  /** The child's path, when not the parent's with the child's name (`runNode` numbers its children's runs). */
  overrideNodePath?: string;
  /** Aborted when the child should stop (a sibling failed); the parent's by default. */
  abortSignal?: AbortSignal;
  /** The child runs again after it waited and was answered (see {@link NodeContext.resuming}). */
  resuming?: boolean;
}

/** What a {@link NodeContext} is made from; the engine makes them. */
export interface NodeContextInit {
  invocationContext: InvocationContext;
  nodePath: string;
  runId: string;
  /** Passes an event on to the runner; resolves once it was stored. */
  emit: (event: Event) => Promise<void>;
  engine: NodeEngine;
  abortSignal?: AbortSignal;
  /** The paused run this run picks up, shared by every context of the run. */
  resume?: WorkflowResume;
  /** Whether the node runs again after it waited and was answered. */
  resuming?: boolean;
  /** The state schema its writes are checked against: the node's own, else its parent's. */
  stateSchema?: NodeSchema;
  /** The conversation scope its events are marked with: the node's own, else its parent's. */
  isolationScope?: string;
}

/**
 * What a node sees while it runs (ADK's `NodeContext`): the invocation, the session's state with this node's
 * changes, and what the node sets: its `output` and `route`. `runNode` runs a child node.
 */
export class NodeContext {
  readonly invocationContext: InvocationContext;
  /** The dotted path of the node; `""` for the root of a run. */
  readonly nodePath: string;
  readonly runId: string;
  /** The changes this node records; the node's events carry them. */
  readonly actions: EventActions;
  /** The node's output, set by the events it yields (or by hand). */
  output: unknown = undefined;
  /** The route(s) the node takes: edges with a matching route run next. */
  route: RouteValue | RouteValue[] | undefined = undefined;
  /** Ids of the questions the node waits on: its `RequestInput`s, or an agent node's calls waiting for the person. */
  interruptIds: string[] = [];
  /** Paths of the ancestors this node's output is also the output of. */
  outputForAncestors: readonly string[] = [];
  /** Whether this node handed its output to a child run with `useAsOutput`. */
  outputDelegated = false;
  /** An error the node reported with an error event rather than by throwing. */
  reportedError: { errorCode?: string; errorMessage?: string } | undefined = undefined;
  /** The attempt running, from 1 (a node with `retryConfig` runs again after it failed). */
  attemptCount = 1;
  /**
   * Aborted when the node should stop: the run was cancelled, a node running beside it in its workflow failed, or
   * its attempt ran past its `timeout`. A node doing slow work passes it on (to `fetch`, say) or checks it (ADK's
   * `NodeContext.abortSignal`).
   */
  abortSignal: AbortSignal | undefined;
  /** The person's answers to the questions the paused run asked, by interrupt id (ADK's `resumeInputs`). */
  readonly resumeInputs: Readonly<Record<string, unknown>>;
  /** Whether this node runs again after it waited and was answered (an agent node then adds no new user turn). */
  readonly resuming: boolean;
  /** The paused run this run picks up: how each node resumes. */
  readonly resume: WorkflowResume | undefined;
  /** The schema this node's state writes are checked against (ADK's `NodeContext.stateSchema`). */
  readonly stateSchema: NodeSchema | undefined;
  /** The conversation scope this node's events are marked with (ADK's `NodeContext.isolationScope`), if any. */
  readonly isolationScope: string | undefined;
  readonly #emit: (event: Event) => Promise<void>;
  readonly #engine: NodeEngine;
  readonly #state: State;
  readonly #runCounters = new Map<string, number>();
  readonly #childRuns = new Map<string, Promise<NodeContext | NodeResult>>();

  /** Made by the workflow engine; a node gets its context, it does not make one. */
  constructor(init: NodeContextInit) {
    this.invocationContext = init.invocationContext;
    this.nodePath = init.nodePath;
    this.runId = init.runId;
    this.#emit = init.emit;
    this.#engine = init.engine;
    this.abortSignal = init.abortSignal;
    this.resume = init.resume;
    this.resuming = init.resuming ?? false;
    this.resumeInputs = init.resume ? Object.fromEntries(init.resume.answers) : {};
    this.actions = createEventActions();
    this.stateSchema = init.stateSchema;
    this.isolationScope = init.isolationScope;
    this.#state = init.stateSchema ? new SchemaCheckedState(init.invocationContext.session.state, this.actions.stateDelta, init.stateSchema) : new State(init.invocationContext.session.state, this.actions.stateDelta);
  }

  /** The session's state with this node's unsaved changes; writes are recorded in `actions.stateDelta`. */
  get state(): State {
    return this.#state;
  }

  get branch(): string | undefined {
    return this.invocationContext.branch;
  }

  get invocationId(): string {
    return this.invocationContext.invocationId;
  }

  get session(): Session {
    return this.invocationContext.session;
  }

  /** The invocation an agent run as a node runs in. */
  getInvocationContext(): InvocationContext {
    return this.invocationContext;
  }

  /**
   * Sends an event out of the workflow. Unlike ADK's (which returns nothing), it resolves once the runner stored
   * the event, so a node that awaits it knows later nodes see its state.
   */
  emit(event: Event): Promise<void> {
    return this.#emit(event);
  }

  /** How this context's children send their events (the engine's). */
  get emitter(): (event: Event) => Promise<void> {
    return this.#emit;
  }

  /** The engine that runs this context's children. */
  get engine(): NodeEngine {
    return this.#engine;
  }

  /**
   * Runs a child node (anything an edge takes: a node, a function, an agent) with `input`; its events stream out
   * with this node's, and the child's context is returned with its `output` and `route`. Each run is numbered per
   * name, in its path as in ADK (`parent.child@2`); a run asked for again under the same `runId` is not run
   * twice: the first run's context is returned.
   */
  runNode(nodeLike: unknown, input?: unknown, options: RunNodeOptions = {}): Promise<NodeContext | NodeResult> {
    const node = this.#engine.build(nodeLike);
    const nodeName = options.nodeName ?? node.name;
    let runId = options.runId;
    if (runId === undefined) {
      const next = (this.#runCounters.get(nodeName) ?? 0) + 1;
      this.#runCounters.set(nodeName, next);
      runId = String(next);
    }
    const nodePath = childPath(this.nodePath, `${nodeName}@${runId}`);
    let run = this.#childRuns.get(nodePath);
    if (!run) {
      // A run that resumes takes what a child already did (or was answered) instead of running it again.
      const resumed = this.resume?.take(nodePath, node.rerunOnResume);
      run = resumed && resumed !== "rerun" ? Promise.resolve(resumed) : this.#engine.run(this, node, input, { ...options, nodeName, runId, overrideNodePath: nodePath, resuming: resumed === "rerun" });
      this.#childRuns.set(nodePath, run);
    }
    return this.#unlessWaiting(run, nodePath, nodeName);
  }

  /**
   * A child that waits on calls makes this node wait too (as ADK's): its ids become this node's, and the node's
   * code stops here (it would go on without the answer), through {@link NodeInterrupted}, which the engine reads
   * as the node waiting.
   */
  async #unlessWaiting(run: Promise<NodeContext | NodeResult>, nodePath: string, nodeName: string): Promise<NodeContext | NodeResult> {
    let child: NodeContext | NodeResult;
    try {
      child = await run;
    } catch (error) {
      // The caller may catch it; if it does not, its workflow reports the child, by its path.
      throw error instanceof NodeInterrupted || error instanceof NodeRunFailure || alreadyReported(error) ? error : new NodeRunFailure(nodePath, nodeName, error);
    }
    if (child.interruptIds.length === 0) return child;
    for (const id of child.interruptIds) if (!this.interruptIds.includes(id)) this.interruptIds.push(id);
    throw new NodeInterrupted();
  }
}

/**
 * A step of a workflow (ADK's `BaseNode`): it takes an input and yields what it produces. A yielded event goes out
 * as it is; any other value is the node's output, sent as an event whose content shows it. Subclass it and write
 * `runImpl`, or wrap a function with `node()` / `FunctionNode`.
 */
export abstract class BaseNode<TInput = unknown, TOutput = unknown> {
  readonly [NODE_BRAND] = true;
  declare readonly name: string;
  declare readonly description: string;
  declare readonly waitForOutput: boolean;
  declare readonly inputSchema?: NodeSchema;
  declare readonly outputSchema?: NodeSchema;
  declare readonly stateSchema?: NodeSchema;
  declare readonly rerunOnResume: boolean;
  declare readonly retryConfig?: RetryConfig;
  /** `retryConfig` checked, its exception classes read as names. */
  declare readonly preparedRetryConfig?: PreparedRetryConfig;
  declare readonly timeout?: number;
  declare readonly isolationScope?: string | true;

  constructor(config: BaseNodeConfig, ownOptions: readonly string[] = NODE_OPTIONS) {
    Object.assign(this, nodeSettings(config, ownOptions));
  }

  /** Whether the node waits for every node before it (a join). */
  get requiresAllPredecessors(): boolean {
    return false;
  }

  /** The node's work: yield events, or values that are its output. */
  protected abstract runImpl(ctx: NodeContext, input: TInput): AsyncGenerator<unknown, void, void>;

  /** Runs the node: the input checked, each yielded item made an event. The engine (and `runNode`) call this. */
  async *run(ctx: NodeContext, input: TInput): AsyncGenerator<Event, void, void> {
    const checked = this.validateInput(input);
    for await (const item of this.runImpl(ctx, checked)) {
      if (isRequestInput(item)) {
        // A question to the person: the node waits on it, and its answer is what the node gives when resumed.
        yield* requestInputEvents(item, this.name, ctx.invocationId, ctx.branch);
        continue;
      }
      const event = this.toEvent(ctx, item);
      if (event) yield event;
    }
  }

  /** The input checked against `inputSchema` (a `Content` passes, as in ADK). */
  protected validateInput(input: TInput): TInput {
    if (isContentValue(input)) return input;
    return checkWithSchema(this.name, "input", this.inputSchema, input) as TInput;
  }

  /** An output checked against `outputSchema`. */
  protected validateOutput(output: unknown): unknown {
    if (isContentValue(output)) return output;
    return checkWithSchema(this.name, "output", this.outputSchema, output);
  }

  /** One yielded item as an event: an event as it is, `null`/`undefined` as none, a value as an output event. */
  protected toEvent(ctx: NodeContext, data: unknown): Event | null {
    if (data === null || data === undefined) return null;
    if (isEventValue(data)) {
      if (data.output !== undefined) data.output = this.validateOutput(data.output);
      return data;
    }
    const output = this.validateOutput(data as TOutput);
    return createEvent({ author: this.name, invocationId: ctx.invocationId, branch: ctx.branch, content: toContent(output), output });
  }
}

/** ADK's `WorkflowNode`: a node whose work is `runNodeImpl`. */
export abstract class WorkflowNode<TInput = unknown, TOutput = unknown> extends BaseNode<TInput, TOutput> {
  protected abstract runNodeImpl(ctx: NodeContext, input: TInput): AsyncGenerator<unknown, void, void>;

  protected runImpl(ctx: NodeContext, input: TInput): AsyncGenerator<unknown, void, void> {
    return this.runNodeImpl(ctx, input);
  }
}

class StartNode extends BaseNode {
  // eslint-disable-next-line require-yield
  protected async *runImpl(): AsyncGenerator<unknown, void, void> {
    throw new ConfigurationError("INVALID_WORKFLOW", "START is where a workflow's edges begin; it never runs. Use it as the first element of an edge.");
  }
}

/** Where a workflow's edges begin (ADK's `START`; the string `"START"` in an edge means it too). */
export const START: BaseNode = new StartNode({ name: "__START__" });

/** The path of a child named `name` under a node at `parentPath` (the root's path is `""`). */
export function childPath(parentPath: string, name: string): string {
  return parentPath ? `${parentPath}.${name}` : name;
}

/** Whether a value is a node (branded, so a node of another copy of toolsmith counts). */
export function isBaseNode(value: unknown): value is BaseNode {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[NODE_BRAND] === true;
}

/** Whether a value is a genai `Content` (an object with `parts`). */
export function isContentValue(value: unknown): value is Content {
  return typeof value === "object" && value !== null && Array.isArray((value as Content).parts);
}

/** Whether a value is an event: what `createEvent` makes. */
function isEventValue(value: unknown): value is Event {
  if (typeof value !== "object" || value === null) return false;
  const event = value as Partial<Event>;
  return typeof event.id === "string" && typeof event.invocationId === "string" && typeof event.author === "string" && typeof event.actions === "object" && typeof event.timestamp === "number";
}

/** A node's output as the content of its event: text as text, `Content` as it is, anything else as JSON text. */
export function toContent(value: unknown): Content | undefined {
  if (value === null || value === undefined) return undefined;
  if (isContentValue(value)) return value;
  return { role: "model", parts: [{ text: valueToText(value) }] };
}

/** A value as text: a string as it is, anything else as JSON (or `String` when it is not JSON). */
function valueToText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Thrown out of a node's code when a child it ran waits on calls: the node waits with it (ADK's `NodeInterruptedError`). */
export class NodeInterrupted extends Error {
  constructor() {
    super("A node this node ran waits on calls; the node waits with it.");
  }
}

/**
 * A node's failure already sent out as an error event: the workflows above it stop without sending another (ADK's
 * claimed error report).
 */
export class ReportedNodeFailure extends ToolsmithError {
  constructor(message: string) {
    super("NODE_FAILED", message);
  }
}

/**
 * ADK's `NodeReportedError`: an attempt of a node that reported an error with an error event (an event with
 * `errorCode`) instead of throwing, and produced nothing else (no output, route or wait), fails with it. A node's
 * `retryConfig` retries it like any error (`exceptions: ["NodeReportedError"]` names it); when it is not retried, the
 * node's own error event is the workflow's report and the run ends there, as every node failure ends it.
 */
export class NodeReportedError extends Error {
  /** The code the node's error event carried (`UNKNOWN_ERROR` when it had none). */
  readonly code: string;
  /** The node that reported the error. */
  readonly nodeName: string;

  constructor(options: { nodeName: string; errorCode?: string; errorMessage?: string }) {
    const code = options.errorCode ?? "UNKNOWN_ERROR";
    const detail = options.errorMessage ?? code;
    super(`Node '${options.nodeName}' failed: ${code === "UNKNOWN_ERROR" ? detail : `${code}: ${detail}`}`);
    this.name = "NodeReportedError";
    this.code = code;
    this.nodeName = options.nodeName;
  }
}

/** Whether an error is a {@link NodeReportedError}, by its name (so one from another copy of the package counts), as ADK checks it. */
export function isNodeReportedError(error: unknown): error is NodeReportedError {
  return error instanceof Error && error.name === "NodeReportedError";
}

/** Whether a node's failure already went out as an error event, so the workflows above stop without sending another. */
export function alreadyReported(error: unknown): boolean {
  return error instanceof ReportedNodeFailure || isNodeReportedError(error);
}

/**
 * A node's failure, naming the node by its path: what `ctx.runNode` throws when the child failed (ADK's
 * `DynamicNodeFailError`), and what a workflow reports as the node's error event. Its code is the cause's when
 * that is a toolsmith error, else `NODE_FAILED`.
 */
export class NodeRunFailure extends ToolsmithError {
  constructor(
    readonly nodePath: string,
    readonly nodeName: string,
    failure: unknown,
  ) {
    const described = isToolsmithError(failure) ? failure.message : `${failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure)} The workflow stopped there; the session holds every event up to it.`;
    // A toolsmith error that already names the node (its output or schema) is said once.
    const named = isToolsmithError(failure) && failure.message.startsWith(`Node "${nodePath}"`);
    super(isToolsmithError(failure) ? failure.code : "NODE_FAILED", named ? failure.message : `Node "${nodePath}" failed: ${described}`, { cause: failure });
  }
}

/** A node's input or output that does not match its schema (ADK's `NodeSchemaValidationError`). */
export class NodeSchemaValidationError extends ToolsmithError {
  constructor(
    readonly nodeName: string,
    readonly direction: "input" | "output",
    problem: string,
  ) {
    super("NODE_SCHEMA_MISMATCH", `Node "${nodeName}" got ${direction === "input" ? "an input" : "an output"} that does not match its ${direction}Schema: ${problem}. Fix the node ${direction === "input" ? "before it" : "itself"}, or loosen the schema.`);
  }
}

/** What a node keeps of its config, checked: a name, and only options toolsmith honours. */
export interface NodeSettings {
  name: string;
  rerunOnResume: boolean;
  retryConfig: RetryConfig | undefined;
  preparedRetryConfig: PreparedRetryConfig | undefined;
  timeout: number | undefined;
  description: string;
  waitForOutput: boolean;
  inputSchema: NodeSchema | undefined;
  outputSchema: NodeSchema | undefined;
  stateSchema: NodeSchema | undefined;
  isolationScope: string | true | undefined;
}

/** A node's config checked (a name, no option toolsmith would pass over) and made its settings. */
export function nodeSettings(config: BaseNodeConfig, ownOptions: readonly string[] = NODE_OPTIONS): NodeSettings {
  if (!config || typeof config.name !== "string" || config.name.trim().length === 0) {
    throw new ConfigurationError("INVALID_WORKFLOW", `A node's name must be a non-empty string, not ${JSON.stringify(config?.name)}. Give the node a name.`);
  }
  const name = config.name.trim();
  if (name.includes("@")) {
    throw new ConfigurationError("INVALID_WORKFLOW", `Node "${name}": a node's name cannot hold "@", which marks the branch of an agent run as a tool (its events would not reach the caller). Rename the node.`);
  }
  // Every node option ADK has is honoured; any other is refused by name.
  refuseUnhonouredOptions(`Node "${name}"`, config, ownOptions);
  if (config.timeout !== undefined && !(typeof config.timeout === "number" && config.timeout > 0)) {
    throw new ConfigurationError("INVALID_WORKFLOW", `Node "${name}": timeout is in seconds and must be more than 0, not ${JSON.stringify(config.timeout)}.`);
  }
  const scope = config.isolationScope;
  if (scope !== undefined && scope !== true && (typeof scope !== "string" || scope.length === 0)) {
    throw new ConfigurationError("INVALID_WORKFLOW", `Node "${name}": isolationScope must be a non-empty string, or true for a scope per run, not ${JSON.stringify(scope)}.`);
  }
  return {
    name,
    rerunOnResume: config.rerunOnResume ?? false,
    retryConfig: config.retryConfig,
    preparedRetryConfig: config.retryConfig ? prepareRetryConfig(config.retryConfig) : undefined,
    timeout: config.timeout,
    description: config.description ?? "",
    waitForOutput: config.waitForOutput ?? false,
    inputSchema: checkedSchema(name, "inputSchema", config.inputSchema),
    outputSchema: checkedSchema(name, "outputSchema", config.outputSchema),
    stateSchema: checkedSchema(name, "stateSchema", config.stateSchema),
    isolationScope: scope,
  };
}

/** Whether an error is a {@link NodeSchemaValidationError}. */
export function isNodeSchemaValidationError(error: unknown): error is NodeSchemaValidationError {
  return error instanceof NodeSchemaValidationError;
}

function checkedSchema(nodeName: string, option: string, schema: unknown): NodeSchema | undefined {
  if (schema === undefined) return undefined;
  if (typeof (schema as NodeSchema)?.safeParse !== "function") {
    throw new ConfigurationError("INVALID_WORKFLOW", `Node "${nodeName}": ${option} must be a zod schema (ADK checks nothing for a genai Schema, so toolsmith does not take one). Write it with zod.`);
  }
  return schema as NodeSchema;
}

function checkWithSchema(nodeName: string, direction: "input" | "output", schema: NodeSchema | undefined, value: unknown): unknown {
  if (!schema) return value;
  const checked = schema.safeParse(value);
  if (!checked.success) throw new NodeSchemaValidationError(nodeName, direction, checked.error.message);
  return checked.data;
}
