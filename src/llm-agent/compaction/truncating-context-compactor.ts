import type { InvocationContext } from "../../agents/invocation-context.js";
import { wholeEventCount } from "./compactor-options.js";
import type { Event } from "../../events/event.js";
import { compactedView } from "./active-history.js";
import { compactionSplit } from "./compaction-split.js";
import type { BaseContextCompactor } from "./token-based-context-compactor.js";

/** Options of {@link TruncatingContextCompactor} (ADK's names). */
export interface TruncatingContextCompactorOptions {
  /** How many of the latest events the model keeps seeing (more when a call and its answer would be parted). */
  threshold: number;
  /** How many of the first events the model keeps seeing too, often the grounding prompt; 0 when left out. */
  preserveLeadingEvents?: number;
}

/**
 * ADK 2's `TruncatingContextCompactor`: once the agent's history is longer than `threshold` events (after
 * `preserveLeadingEvents`), its model sees the first `preserveLeadingEvents` events and the latest `threshold`,
 * and nothing in between. No model is asked and nothing is stored: the session keeps every event, and each model
 * call sees the latest window.
 *
 * Where ADK cuts the invocation's copy of the session at exactly `threshold`, this never parts a function call
 * from its answer (a provider refuses an answer without its call, or a call without one): the window reaches
 * back to the call, and a call still waiting (paused, long-running) stays in view however old.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({
 *   name: "chat",
 *   model: "gemini-2.5-flash",
 *   contextCompactors: [new TruncatingContextCompactor({ threshold: 40, preserveLeadingEvents: 1 })],
 * });
 * ```
 */
export class TruncatingContextCompactor implements BaseContextCompactor {
  readonly threshold: number;
  readonly preserveLeadingEvents: number;

  constructor(options: TruncatingContextCompactorOptions) {
    this.threshold = wholeEventCount("TruncatingContextCompactor", "threshold", options?.threshold);
    this.preserveLeadingEvents = options.preserveLeadingEvents === undefined ? 0 : wholeEventCount("TruncatingContextCompactor", "preserveLeadingEvents", options.preserveLeadingEvents);
  }

  /** Whether the history is longer than the window, as ADK asks: the plugins' compaction hooks then run. */
  shouldCompact(invocationContext: InvocationContext): boolean {
    return this.#history(invocationContext).length > this.threshold + this.preserveLeadingEvents;
  }

  /** Nothing to store: the window is applied to what the model sees ({@link view}). */
  async compact(): Promise<undefined> {
    return undefined;
  }

  /** The first `preserveLeadingEvents` events and the latest `threshold`, with the calls their answers need. */
  view(history: readonly Event[]): readonly Event[] {
    if (history.length <= this.threshold + this.preserveLeadingEvents) return history;
    const split = compactionSplit(history, history.length - this.threshold);
    // The leading events reach on to the answers of the calls among them, wherever those come.
    let leading = Math.min(this.preserveLeadingEvents, split.retainStart);
    const unanswered = new Set<string>();
    for (let index = 0; index < split.retainStart && (index < leading || unanswered.size > 0); index++) {
      for (const part of history[index]!.content?.parts ?? []) {
        if (part.functionCall?.id !== undefined) unanswered.add(part.functionCall.id);
        if (part.functionResponse?.id !== undefined) unanswered.delete(part.functionResponse.id);
      }
      leading = Math.max(leading, index + 1);
    }
    if (leading >= split.retainStart) return history;
    const kept = split.kept.filter((index) => index >= leading).map((index) => history[index]!);
    return [...history.slice(0, leading), ...kept, ...history.slice(split.retainStart)];
  }

  #history(context: InvocationContext): readonly Event[] {
    return compactedView(context.session.events, context.agent.name, context.branch, context.isolationScope);
  }
}
