import { invocationAborted } from "../agents/invocation-context.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { BaseNode, isBaseNode, NodeInterrupted, type NodeContext } from "./node.js";

/** Options of a {@link ParallelWorker} (ADK's `ParallelWorkerConfig`). */
export interface ParallelWorkerConfig {
  /** How many items run at once: 8 by default, as in ADK; `Infinity` for all. */
  maxParallelWorkers?: number;
}

/** ADK's default bound on the items a worker runs at once. */
const DEFAULT_MAX_PARALLEL_WORKERS = 8;

/**
 * Runs a node once per item of its input list (ADK's `ParallelWorker`, what `node(x, { parallelWorker: true })`
 * makes): at most `maxParallelWorkers` at once, each on a branch of its own (`inner#2`), at the path
 * `worker.inner@2`; the output is the list of their outputs, in the items' order. A single value is a list of one.
 * The first item that fails fails the worker, and no item starts after it; an item that waits makes the worker wait.
 */
export class ParallelWorker extends BaseNode {
  readonly maxParallelWorkers?: number;
  /** The node run for each item. */
  readonly inner: BaseNode;

  constructor(inner: BaseNode, config: ParallelWorkerConfig = {}) {
    if (!isBaseNode(inner)) {
      throw new ConfigurationError("INVALID_WORKFLOW", "new ParallelWorker(inner) takes a node: make one with node(fn), or write node(fn, { parallelWorker: true }).");
    }
    super({ name: inner.name, description: inner.description });
    const limit = config.maxParallelWorkers;
    if (limit !== undefined && !(limit >= 1)) {
      throw new ConfigurationError("INVALID_WORKFLOW", `Parallel worker "${inner.name}": maxParallelWorkers must be 1 or more (or Infinity), not ${JSON.stringify(limit)}.`);
    }
    this.inner = inner;
    this.maxParallelWorkers = limit;
  }

  protected async *runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<unknown, void, void> {
    const items = Array.isArray(input) ? input : [input];
    const results: unknown[] = new Array(items.length);
    const stopped = () => ctx.abortSignal?.aborted === true || invocationAborted(ctx.invocationContext);
    let next = 0;
    let failure: { error: unknown } | undefined;
    let waiting = false;
    const work = async () => {
      while (!failure && !waiting && !stopped()) {
        const index = next++;
        if (index >= items.length) return;
        try {
          results[index] = (await ctx.runNode(this.inner, items[index], { runId: String(index), useSubBranch: true })).output;
        } catch (error) {
          // A child that waits made this node wait (runNode copied its calls); any other error fails the worker.
          if (error instanceof NodeInterrupted) waiting = true;
          else failure ??= { error };
          return;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.maxParallelWorkers ?? DEFAULT_MAX_PARALLEL_WORKERS, items.length) }, work));
    if (failure) throw failure.error;
    if (waiting) throw new NodeInterrupted();
    if (stopped()) return;
    yield results;
  }
}
