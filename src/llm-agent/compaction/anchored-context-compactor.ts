import type { InvocationContext } from "../../agents/invocation-context.js";
import { tokenBudget, wholeEventCount } from "./compactor-options.js";
import type { CompactedEvent } from "../../events/compacted-event.js";
import type { Event } from "../../events/event.js";
import { CHARS_PER_TOKEN } from "./estimate-tokens.js";
import { compactionSplit } from "./compaction-split.js";
import { LlmSummarizer, type BaseSummarizer } from "./llm-summarizer.js";
import { shownHistory, summariseBefore, type BaseContextCompactor } from "./token-based-context-compactor.js";

/** Options of {@link AnchoredContextCompactor} (ADK's names). */
export interface AnchoredContextCompactorOptions {
  /** The tokens the agent's history may hold, counted as ADK counts them (see {@link AnchoredContextCompactor}). */
  tokenThreshold: number;
  /** How many of the latest events are kept as they are (more when a call and its answer would be parted). */
  eventRetentionSize: number;
  /** Writes the summaries; an {@link LlmSummarizer} with the agent's own model when absent (ADK requires one). */
  summarizer?: BaseSummarizer;
}

/**
 * ADK 2's `AnchoredContextCompactor`: keeps one running summary, the scratchpad (a record marked `isScratchpad`),
 * and folds the older events into it once the history's tokens pass `tokenThreshold`, keeping the latest
 * `eventRetentionSize` events as they are. The tokens are counted as ADK counts them: for each event of the
 * history since the scratchpad, the prompt tokens its model reported when it has them (the whole request's), else
 * its text's characters over four; so a history with many model answers passes the threshold sooner than its
 * size alone would. For a budget on each request, {@link TokenBasedContextCompactor} predicts the request instead.
 *
 * As with toolsmith's other summarising compactors, the record is stored like any other event and the session
 * keeps every event; a call and its answer are never parted, a call still waiting is never summarised, and the
 * latest event is kept even with `eventRetentionSize: 0` (ADK's would summarise the message being answered).
 */
export class AnchoredContextCompactor implements BaseContextCompactor {
  readonly tokenThreshold: number;
  readonly eventRetentionSize: number;
  readonly #summarizer: BaseSummarizer;

  constructor(options: AnchoredContextCompactorOptions) {
    this.tokenThreshold = tokenBudget("AnchoredContextCompactor", options?.tokenThreshold);
    this.eventRetentionSize = wholeEventCount("AnchoredContextCompactor", "eventRetentionSize", options.eventRetentionSize);
    this.#summarizer = options.summarizer ?? new LlmSummarizer();
  }

  shouldCompact(invocationContext: InvocationContext): boolean {
    const { history, split } = this.#plan(invocationContext);
    if (split.retainStart === 0) return false;
    let tokens = history.active.compaction ? scratchpadTokens(history.active.compaction) : 0;
    for (const event of history.shown) tokens += adkEventTokens(event);
    return tokens > this.tokenThreshold;
  }

  async compact(invocationContext: InvocationContext): Promise<CompactedEvent | undefined> {
    const { history, split } = this.#plan(invocationContext);
    const record = await summariseBefore(this.#summarizer, invocationContext, history, split);
    return record && { ...record, isScratchpad: true };
  }

  #plan(context: InvocationContext) {
    const history = shownHistory(context);
    const shown = history.shown;
    // The latest event is what the model answers now: always kept, as TokenBasedContextCompactor keeps it.
    const kept = Math.max(1, this.eventRetentionSize);
    const split = shown.length > kept ? compactionSplit(shown, shown.length - kept) : { retainStart: 0, kept: [] };
    return { history, split };
  }
}

/** An event's tokens as ADK's `getEventTokens` counts them: its reported prompt tokens, else its text (thoughts aside) over four. */
function adkEventTokens(event: Event): number {
  const reported = event.usageMetadata?.promptTokenCount;
  if (reported !== undefined) return reported;
  let characters = 0;
  for (const part of event.content?.parts ?? []) if (!part.thought && part.text) characters += part.text.length;
  return Math.ceil(characters / CHARS_PER_TOKEN);
}

/** The scratchpad's tokens: its summary over four, as ADK counts its scratchpad's text. */
function scratchpadTokens(record: CompactedEvent): number {
  return Math.ceil(record.compactedContent.length / CHARS_PER_TOKEN);
}
