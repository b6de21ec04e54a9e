import type { Event } from "../events/event.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { isWithin } from "./agent-tree.js";
import { forAgent, type InvocationContext } from "./invocation-context.js";
import { WorkflowAgent, BASE_AGENT_OPTIONS } from "./workflow-agent.js";
import { markKind } from "../platform/kind.js";

/**
 * Runs its sub-agents concurrently, each in its own branch (`parallel.child`)
 * so none sees the others' turns. Their events are interleaved as they come;
 * each branch waits until its event is stored before going on, and every
 * state change of every branch is kept.
 */
export class ParallelAgent extends WorkflowAgent {
  // Known as a ParallelAgent by every copy of toolsmith loaded beside this one (platform/kind.ts).
  static {
    markKind(this, "ParallelAgent");
  }

  protected static override readonly ownOptions: readonly string[] = [...BASE_AGENT_OPTIONS];
  protected static readonly agentKind = "ParallelAgent";
  protected async *runAsyncImpl(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    const target = context.resumeAgent;
    const children = target && this.subAgents.some((child) => isWithin(target, child)) ? this.subAgents.filter((child) => isWithin(target, child)) : this.subAgents;
    const prefix = context.branch ? `${context.branch}.` : "";
    yield* mergeRuns(children.map((child) => child.runAsync(forAgent(context, child, `${prefix}${this.name}.${child.name}`))));
  }

  /** Not in live runs, as in ADK: one live connection cannot be shared by branches that speak at once. */
  protected override async *runLiveImpl(_context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    throw new ConfigurationError("LIVE_UNSUPPORTED", `ParallelAgent "${this.name}" cannot run live (nor can ADK's): its branches would share one live connection. Run it with runAsync, or use a SequentialAgent.`);
  }
}

/**
 * Interleaves several event streams, taking the next event from a stream only
 * after its previous one was consumed (and so stored by the runner).
 */
export async function* mergeRuns(runs: readonly AsyncGenerator<Event, void, undefined>[]): AsyncGenerator<Event, void, undefined> {
  const pending = new Map<number, Promise<{ index: number; result: IteratorResult<Event, void> }>>();
  const pull = (index: number) => pending.set(index, runs[index]!.next().then((result) => ({ index, result })));
  runs.forEach((_, index) => pull(index));
  try {
    while (pending.size > 0) {
      const { index, result } = await Promise.race(pending.values());
      if (result.done) {
        pending.delete(index);
        continue;
      }
      yield result.value;
      pull(index);
    }
  } finally {
    await Promise.all(runs.map((run) => run.return(undefined)));
  }
}
