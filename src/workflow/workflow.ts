import type { Agent, InvocationContext } from "../agents/invocation-context.js";
import { invocationAborted } from "../agents/invocation-context.js";
import { ConfigurationError, ToolsmithError } from "../errors/toolsmith-error.js";
import type { Event, RouteValue } from "../events/event.js";
import { AgentNode, isAgent } from "./agent-node.js";
import { buildNode, type NodeLike } from "./build-node.js";
import { createGraphFromEdgeItems, type EdgeItem, type Graph } from "./graph.js";
import { alreadyReported, BaseNode, childPath, NODE_OPTIONS, ReportedNodeFailure, START, type BaseNodeConfig, type NodeContext } from "./node.js";
import { linkedAbort } from "./linked-abort.js";
import { workflowResume, type ResumedRun } from "./resume.js";
import { commonPrefixOf, nodeErrorEvent, runNodeAsInvocation } from "./run-node.js";

/** A workflow driven by code: it runs nodes with `ctx.runNode` and returns the workflow's output (ADK's `DynamicEntry`). */
export type DynamicEntry = (ctx: NodeContext, input: unknown) => unknown;

/** Options of a {@link Workflow} (ADK's `WorkflowConfig`): a graph of `edges`, or a `dynamicEntry`, never both. */
export type WorkflowConfig = BaseNodeConfig & {
  /** How many of the graph's nodes may run at once; unlimited by default. */
  maxConcurrency?: number;
} & ({ edges: EdgeItem[]; dynamicEntry?: never } | { dynamicEntry: DynamicEntry; edges?: never });

const WORKFLOW_OPTIONS = [...NODE_OPTIONS, "edges", "dynamicEntry", "maxConcurrency"] as const;
const WORKFLOW_BRAND = Symbol.for("toolsmith.workflow.workflow");

/** What a run of a node left, as the loop reads it. */
type Settled = { name: string; child: NodeContext | ResumedRun; error?: undefined } | { name: string; child?: undefined; error: unknown };

/** A trigger waiting to start a node: its input and branch. */
interface Trigger {
  input: unknown;
  useSubBranch: boolean;
  branch?: string;
}

/**
 * ADK 2's graph workflow: nodes joined by edges, run from `START`; a node runs when an edge into it fires, several
 * at once when a node fans out, a `JoinNode` once all before it finished. Its output is that of the node no edge
 * leaves. It is a node (nest it in another workflow) and an agent: give it to a `Runner` as its `agent`, or to a
 * `SequentialAgent`. The user's message is its input.
 *
 * @example
 * ```ts
 * const workflow = new Workflow({ name: "triage", edges: [["START", classify, { question: answer, [DEFAULT_ROUTE]: note }]] });
 * const runner = new InMemoryRunner({ agent: workflow, appName: "app" });
 * ```
 */
export class Workflow extends BaseNode implements Agent {
  readonly [WORKFLOW_BRAND] = true;
  readonly graph?: Graph;
  readonly dynamicEntry?: DynamicEntry;
  readonly maxConcurrency?: number;
  /** A workflow's nodes are not agents of the tree: transfers do not reach them. */
  readonly subAgents: readonly Agent[] = [];
  /** Set when the workflow is placed under an agent. */
  parentAgent?: Agent;

  constructor(config: WorkflowConfig) {
    // As ADK's: a nested workflow that waited runs again when resumed (its own nodes are taken as they ended).
    super({ ...config, rerunOnResume: config.rerunOnResume ?? true }, WORKFLOW_OPTIONS);
    const hasEdges = Array.isArray(config.edges) && config.edges.length > 0;
    if (hasEdges && config.dynamicEntry) throw new ConfigurationError("INVALID_WORKFLOW", `Workflow "${this.name}": edges and dynamicEntry cannot go together. Give one.`);
    if (!hasEdges && typeof config.dynamicEntry !== "function") throw new ConfigurationError("INVALID_WORKFLOW", `Workflow "${this.name}" needs edges (a graph) or a dynamicEntry (a function). Give one.`);
    if (config.maxConcurrency !== undefined && (!Number.isInteger(config.maxConcurrency) || config.maxConcurrency < 1)) {
      throw new ConfigurationError("INVALID_WORKFLOW", `Workflow "${this.name}": maxConcurrency must be a positive integer, not ${JSON.stringify(config.maxConcurrency)}.`);
    }
    this.maxConcurrency = config.maxConcurrency;
    this.dynamicEntry = config.dynamicEntry;
    if (hasEdges) this.graph = createGraphFromEdgeItems(config.edges!);
  }

  /** Runs the workflow as an agent: the whole invocation, its output as the last event. */
  async *runAsync(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    // The run before this one stopped to ask the person: this one picks it up with the answers.
    const resume = workflowResume(context);
    if (!resume && context.resumeMessage) {
      throw new ToolsmithError("WORKFLOW_RESUME_UNSUPPORTED", `Workflow "${this.name}" was sent the result of a call its last run did not stop for. A workflow waits only for what it asks the person (an input request, a confirmation, a credential); a long-running tool's later result is not awaited. Send a new message to run the workflow again.`);
    }
    yield* runNodeAsInvocation(this, context, this.name, resume);
  }

  protected async *runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<unknown, void, void> {
    if (this.dynamicEntry) {
      const output = await this.dynamicEntry(ctx, input);
      if (output !== undefined && ctx.interruptIds.length === 0) ctx.output = output;
      return;
    }
    await new GraphRun(this, this.graph!, ctx).run(input);
  }
}

/** One run of a workflow's graph: ADK's loop of triggers, pending nodes and completions. */
class GraphRun {
  readonly #triggers = new Map<string, Trigger[]>();
  readonly #pending = new Map<string, Promise<Settled>>();
  readonly #completed = new Set<string>();
  readonly #outputs = new Map<string, unknown>();
  readonly #branches = new Map<string, string>();
  readonly #runCounts = new Map<string, number>();
  #abort = new AbortController();

  constructor(
    readonly workflow: Workflow,
    readonly graph: Graph,
    readonly ctx: NodeContext,
  ) {}

  async run(input: unknown): Promise<void> {
    const abort = linkedAbort(this.ctx.abortSignal);
    this.#abort = abort.controller;
    try {
      await this.#run(input);
    } finally {
      abort.dispose();
    }
  }

  async #run(input: unknown): Promise<void> {
    const starts = this.graph.getNextPendingNodes(START.name, null);
    for (const name of starts) this.#push(name, { input, useSubBranch: starts.length > 1 });
    for (;;) {
      if (!invocationAborted(this.ctx.invocationContext)) this.#startReady();
      if (this.#pending.size === 0) break;
      const settled = await Promise.race(this.#pending.values());
      this.#pending.delete(settled.name);
      if (settled.child) this.#complete(settled.name, settled.child);
      else await this.#fail(settled.name, settled.error);
    }
    if (invocationAborted(this.ctx.invocationContext)) return;
    if (this.ctx.interruptIds.length > 0) return;
    const outputs = [...this.graph.terminalNodeNames].filter((name) => this.#outputs.has(name));
    if (outputs.length > 1) {
      throw new ToolsmithError("WORKFLOW_OUTPUT_AMBIGUOUS", `Workflow "${this.workflow.name}": ${outputs.length} terminal nodes produced output (${outputs.join(", ")}), and a workflow has one output. Join them with a JoinNode, or let only one of them answer.`);
    }
    if (outputs.length === 1) this.ctx.output = this.#outputs.get(outputs[0]!);
  }

  /** Starts every node a trigger waits for, unless it runs already or the workflow runs its most nodes at once. */
  #startReady(): void {
    for (const name of [...this.#triggers.keys()]) {
      if (this.#pending.has(name)) continue;
      const limit = this.workflow.maxConcurrency;
      if (limit !== undefined && this.#pending.size >= limit) break;
      const queue = this.#triggers.get(name)!;
      const trigger = queue.shift()!;
      if (queue.length === 0) this.#triggers.delete(name);
      const runCount = (this.#runCounts.get(name) ?? 0) + 1;
      this.#runCounts.set(name, runCount);
      const runId = String(runCount);
      const node = this.graph.node(name);
      // A run that resumes takes what a node already did (or was answered) instead of running it again.
      const resumed = this.ctx.resume?.take(childPath(this.ctx.nodePath, name), node.rerunOnResume);
      if (resumed && resumed !== "rerun") {
        this.#pending.set(name, Promise.resolve({ name, child: resumed }));
        continue;
      }
      const running = this.ctx.engine.run(this.ctx, node, trigger.input, { runId, useSubBranch: trigger.useSubBranch, overrideBranch: trigger.branch, abortSignal: this.#abort.signal, resuming: resumed === "rerun" });
      this.#pending.set(name, running.then((child) => ({ name, child }), (error: unknown) => ({ name, error: error ?? new Error("A node failed with no error.") })));
    }
  }

  /** A node finished: waiting when it waits on calls or gives nothing with `waitForOutput`, else its next nodes trigger. */
  #complete(name: string, child: NodeContext | ResumedRun): void {
    if (child.interruptIds.length > 0) {
      for (const id of child.interruptIds) if (!this.ctx.interruptIds.includes(id)) this.ctx.interruptIds.push(id);
      return;
    }
    const node = this.graph.node(name);
    // Waiting (as in ADK) is being neither completed nor triggered again until an edge fires into it.
    if (node.waitForOutput && child.output === undefined && child.route === undefined) return;
    this.#completed.add(name);
    if (child.output !== undefined) this.#outputs.set(name, child.output);
    this.#branches.set(name, child.branch ?? "");
    this.#triggerAfter(name, child.output, child.route, child.branch);
  }

  #triggerAfter(name: string, output: unknown, route: RouteValue | RouteValue[] | undefined, branch: string | undefined): void {
    const next = this.graph.getNextPendingNodes(name, route);
    for (const target of next) {
      if (!this.graph.node(target).requiresAllPredecessors) {
        this.#push(target, { input: output, useSubBranch: next.length > 1, branch });
        continue;
      }
      const before = this.graph.predecessorsOf(target);
      if (!before.every((predecessor) => this.#completed.has(predecessor))) continue;
      const outputs: Record<string, unknown> = {};
      for (const predecessor of before) outputs[predecessor] = this.#outputs.get(predecessor);
      this.#push(target, { input: outputs, useSubBranch: false, branch: commonPrefixOf(before.map((predecessor) => this.#branches.get(predecessor) ?? "")) || undefined });
    }
  }

  /**
   * A node failed: its error event goes out (unless it sent one itself), the nodes still running are told to stop
   * (their `ctx.abortSignal`) and finish (their events are stored: nothing is lost), and the failure goes up so
   * every workflow above stops too.
   */
  async #fail(name: string, error: unknown): Promise<never> {
    if (!alreadyReported(error)) await this.ctx.emit(nodeErrorEvent(this.ctx, name, error));
    this.#abort.abort(new Error(`Node "${name}" failed.`));
    await Promise.allSettled(this.#pending.values());
    this.#pending.clear();
    throw alreadyReported(error) ? error : new ReportedNodeFailure(`Node "${name}" failed.`);
  }

  #push(name: string, trigger: Trigger): void {
    const queue = this.#triggers.get(name);
    if (queue) queue.push(trigger);
    else this.#triggers.set(name, [trigger]);
  }
}

/** The agents a workflow's graph runs as nodes, nested workflows' included (a `dynamicEntry`'s are known only as it runs). */
export function agentsOfWorkflow(workflow: Workflow): Agent[] {
  const agents: Agent[] = [];
  for (const node of workflow.graph?.nodes ?? []) {
    if (node instanceof AgentNode) agents.push(node.agent);
    else if (isWorkflow(node)) agents.push(...agentsOfWorkflow(node));
  }
  return agents;
}

/** Whether a value is a {@link Workflow} (branded, so one of another copy of toolsmith counts). */
export function isWorkflow(value: unknown): value is Workflow {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[WORKFLOW_BRAND] === true;
}

/**
 * What a runner runs: an agent or a workflow as it is; any other node, function or agent-like value as the one
 * node of a workflow named after it (ADK's `asRunnableRoot`).
 */
export function asRunnableRoot(root: NodeLike): Agent {
  // A workflow is an agent; a tool has a runAsync too, but no sub-agents: it becomes a one-node workflow, as in ADK.
  if (isAgent(root)) return root;
  if (root === "START") throw new ConfigurationError("INVALID_WORKFLOW", "START cannot be a root: give an agent, a workflow, a node or a function.");
  const built = buildNode(root);
  return new Workflow({ name: built.name, description: built.description, edges: [["START", built]] });
}

/** Whether a value is a root a runner runs as it is: an agent or a workflow (ADK's `isRunnableRoot`). */
export function isRunnableRoot(value: unknown): value is Agent {
  return isAgent(value);
}
