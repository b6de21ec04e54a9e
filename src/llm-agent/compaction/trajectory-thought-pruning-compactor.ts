import type { InvocationContext } from "../../agents/invocation-context.js";
import { wholeEventCount } from "./compactor-options.js";
import type { Event } from "../../events/event.js";
import { hasThoughts, pruneThoughts } from "../../events/structured-events.js";
import { compactedView } from "./active-history.js";
import type { BaseContextCompactor } from "./token-based-context-compactor.js";

/** Options of {@link TrajectoryThoughtPruningCompactor} (ADK's names). */
export interface TrajectoryThoughtPruningCompactorOptions {
  /** How many of the latest events keep their thoughts. */
  eventRetentionSize: number;
}

/**
 * ADK 2's `TrajectoryThoughtPruningCompactor`: the model's reasoning (`thought` parts) is left out of every event
 * but the latest `eventRetentionSize` in what the model is sent; answers, calls and results stay. No model is
 * asked and nothing is stored: the session keeps the thoughts.
 *
 * ADK replaces the invocation's copies of the older events with pruned ones and yields those copies as new events,
 * which its runner then stores a second time at the end of the session; here the session is left as it was.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({ name: "planner", model: "gemini-2.5-pro", contextCompactors: [new TrajectoryThoughtPruningCompactor({ eventRetentionSize: 4 })] });
 * ```
 */
export class TrajectoryThoughtPruningCompactor implements BaseContextCompactor {
  readonly eventRetentionSize: number;

  constructor(options: TrajectoryThoughtPruningCompactorOptions) {
    this.eventRetentionSize = wholeEventCount("TrajectoryThoughtPruningCompactor", "eventRetentionSize", options?.eventRetentionSize);
  }

  /** Whether an event older than the latest `eventRetentionSize` holds thoughts, as ADK asks: the plugins' compaction hooks then run. */
  shouldCompact(invocationContext: InvocationContext): boolean {
    const history = compactedView(invocationContext.session.events, invocationContext.agent.name, invocationContext.branch, invocationContext.isolationScope);
    const older = history.length - this.eventRetentionSize;
    for (let index = 0; index < older; index++) if (hasThoughts(history[index]!)) return true;
    return false;
  }

  /** Nothing to store: the thoughts are left out of what the model sees ({@link view}). */
  async compact(): Promise<undefined> {
    return undefined;
  }

  /** The history with the thoughts of all but the latest `eventRetentionSize` events left out (copies; the events stay as they are). */
  view(history: readonly Event[]): readonly Event[] {
    const older = history.length - this.eventRetentionSize;
    let pruned: Event[] | undefined;
    for (let index = 0; index < older; index++) {
      if (!hasThoughts(history[index]!)) continue;
      pruned ??= [...history];
      pruned[index] = pruneThoughts(history[index]!);
    }
    return pruned ?? history;
  }
}
