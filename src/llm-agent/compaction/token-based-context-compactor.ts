import type { InvocationContext } from "../../agents/invocation-context.js";
import type { ContextCompactionTrigger } from "../../plugins/base-plugin.js";
import { tokenBudget, wholeEventCount } from "./compactor-options.js";
import type { CompactedEvent } from "../../events/compacted-event.js";
import type { Event } from "../../events/event.js";
import { getFunctionCalls, getFunctionResponses } from "../../content/content.js";
import type { Model } from "../../models/model.js";
import { isVisible } from "../build-contents.js";
import { activeHistory, summaryText, type ActiveHistory } from "./active-history.js";
import { estimateContentTokens, estimateEventTokens } from "./estimate-tokens.js";
import { LlmSummarizer, type BaseSummarizer } from "./llm-summarizer.js";
import { compactionSplit, type CompactionSplit } from "./compaction-split.js";

/**
 * Compacts an agent's history before a model call (ADK's
 * `BaseContextCompactor`). Unlike ADK's, `compact` returns the record instead
 * of pushing it into the session: the agent yields it and the runner stores
 * it like any other event.
 */
export interface BaseContextCompactor {
  /** Whether the history should be compacted before the coming model call. */
  shouldCompact(invocationContext: InvocationContext): boolean | Promise<boolean>;
  /** The record of a compaction of the history, or `undefined` when there is nothing to compact. */
  compact(invocationContext: InvocationContext): Promise<CompactedEvent | undefined>;
  /** What the plugins' compaction hooks are told started it, as ADK's; `ContextCompactionTrigger.Auto` when left out. */
  readonly trigger?: ContextCompactionTrigger;
  /**
   * toolsmith: what the model sees of the agent's history at this call, changed without storing anything (how
   * {@link TruncatingContextCompactor} and {@link TrajectoryThoughtPruningCompactor} work, where ADK's change the
   * invocation's copy of the session in place). Given the history as the agent's summaries leave it, it returns
   * it or a changed copy, never changing an event. Called before every model call, in the order the compactors
   * are given, whether or not this compactor compacted.
   */
  view?(history: readonly Event[], invocationContext: InvocationContext): readonly Event[];
}

/** Options of {@link TokenBasedContextCompactor} (ADK's names). */
export interface TokenBasedContextCompactorOptions {
  /**
   * The token budget of a request. Before each model call the coming request's size is predicted; above this,
   * the older history is summarised first.
   */
  tokenThreshold: number;
  /**
   * How many of the latest events are kept as they are (more when a call and its answer would be parted, and
   * at least one: what the model answers now). Choose few enough that they and a summary fit well within
   * `tokenThreshold`.
   */
  eventRetentionSize: number;
  /** Writes the summaries; an {@link LlmSummarizer} with the agent's own model when absent. */
  summarizer?: BaseSummarizer;
}

/** The history an agent would send next, and where a compaction would split it (worked out when first asked). */
interface CompactionPlan {
  active: ActiveHistory;
  /** The active events the agent sees, in order. */
  shown: Event[];
  readonly split: CompactionSplit;
  predictedTokens: number;
}

/**
 * ADK's `TokenBasedContextCompactor`: when the coming request would pass
 * `tokenThreshold`, summarises the agent's older events (with the previous
 * summary) into one record and keeps the latest `eventRetentionSize` as they
 * are. Calls are never parted from their answers, and calls still waiting
 * (paused, long-running) are never summarised: they stay in view, however old.
 *
 * The request's size is predicted from what the model reported: the prompt
 * tokens of the agent's latest model call since the last compaction, its
 * answer's tokens, and an estimate of what came after (characters over four,
 * scaled by how the model's counts grew against the estimate between its
 * last two calls). Before the model has reported anything, the estimate of
 * the contents alone is used, which leaves out the instruction and tool
 * declarations. ADK compares the last reported count, so it compacts only
 * after a request passed the threshold; this compacts before.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({
 *   name: "researcher",
 *   model: "gemini-2.5-flash",
 *   contextCompactors: [new TokenBasedContextCompactor({ tokenThreshold: 200_000, eventRetentionSize: 20 })],
 * });
 * ```
 */
export class TokenBasedContextCompactor implements BaseContextCompactor {
  readonly tokenThreshold: number;
  readonly eventRetentionSize: number;
  readonly #summarizer: BaseSummarizer;

  constructor(options: TokenBasedContextCompactorOptions) {
    this.tokenThreshold = tokenBudget("TokenBasedContextCompactor", options?.tokenThreshold);
    this.eventRetentionSize = wholeEventCount("TokenBasedContextCompactor", "eventRetentionSize", options.eventRetentionSize);
    this.#summarizer = options.summarizer ?? new LlmSummarizer();
  }

  shouldCompact(invocationContext: InvocationContext): boolean {
    const plan = this.#plan(invocationContext);
    // The split is worked out only for a request over the budget: most model calls stop at the prediction.
    return plan.predictedTokens > this.tokenThreshold && summarisable(plan.shown, plan.split).length > 0;
  }

  async compact(invocationContext: InvocationContext): Promise<CompactedEvent | undefined> {
    const plan = this.#plan(invocationContext);
    return summariseBefore(this.#summarizer, invocationContext, plan, plan.split);
  }

  #plan(context: InvocationContext): CompactionPlan {
    const agentName = context.agent.name;
    const { active, shown, shownBeforeRecord } = shownHistory(context);
    // The latest event is what the model answers now (the user's message, or results of its calls): always kept.
    const kept = Math.max(1, this.eventRetentionSize);
    let split: CompactionSplit | undefined;
    const summaryTokens = active.compaction ? estimateContentTokens({ parts: [{ text: summaryText(active.compaction) }] }) : 0;
    return {
      active,
      shown,
      get split() {
        return (split ??= shown.length > kept ? compactionSplit(shown, shown.length - kept) : { retainStart: 0, kept: [] });
      },
      predictedTokens: predictRequestTokens(shown, agentName, summaryTokens, shownBeforeRecord),
    };
  }
}

/** The agent's active history, and the events of it its model is shown, in order. */
export function shownHistory(context: InvocationContext): { active: ActiveHistory; shown: Event[]; shownBeforeRecord: number } {
  const active = activeHistory(context.session.events, context.agent.name, context.branch, context.isolationScope);
  const shown: Event[] = [];
  let shownBeforeRecord = 0;
  active.events.forEach((event, index) => {
    if (!event.content?.parts?.length || event.partial || event.errorCode || !isVisible(event, context)) return;
    shown.push(event);
    if (index < active.storedBeforeRecord) shownBeforeRecord++;
  });
  return { active, shown, shownBeforeRecord };
}

/** The events a compaction at `split` summarises: those before the retained tail, less the waiting calls it keeps. */
function summarisable(shown: readonly Event[], split: CompactionSplit): Event[] {
  const kept = new Set(split.kept);
  return shown.slice(0, split.retainStart).filter((_, index) => !kept.has(index));
}

/**
 * The record of a compaction of the shown history at `split`: the summariser's summary of the events before the
 * retained tail (after the agent's previous summary, and before `guidance`, an instruction to the summariser),
 * covering up to the tail, with the waiting calls it keeps copied in. `undefined` when nothing is summarisable.
 */
export async function summariseBefore(summarizer: BaseSummarizer, context: InvocationContext, history: { active: ActiveHistory; shown: readonly Event[] }, split: CompactionSplit, guidance?: Event): Promise<CompactedEvent | undefined> {
  const summarised = summarisable(history.shown, split);
  if (summarised.length === 0) return undefined;
  const events = [...(history.active.compaction ? [history.active.compaction] : []), ...summarised, ...(guidance ? [guidance] : [])];
  const record = await summarizer.summarize(events, { model: await agentModel(context), abortSignal: context.abortSignal });
  // The summary reaches up to the retained tail; the waiting calls before it stay in view, copied into the record.
  const through = history.shown[split.retainStart - 1]!;
  const keptEvents = split.kept.map((index) => history.shown[index]!);
  return {
    ...record,
    invocationId: context.invocationId,
    author: context.agent.name,
    branch: context.branch,
    timestamp: Date.now(),
    endTime: through.timestamp,
    compactedThroughEventId: through.id,
    // The guidance is read, not covered.
    compactedEventCount: record.compactedEventCount - (guidance ? 1 : 0),
    ...(keptEvents.length > 0 ? { keptEvents } : {}),
  };
}

/** The agent's own model, which a summariser without one uses. */
async function agentModel(context: InvocationContext): Promise<Model | undefined> {
  const agent = context.agent as { canonicalModel?: () => Promise<Model> };
  return typeof agent.canonicalModel === "function" ? agent.canonicalModel() : undefined;
}

/** The largest factor by which the model's counts may outgrow the estimate; beyond it a jump is taken for noise. */
const MAX_SCALE = 4;

/**
 * The predicted size of the agent's next request over `shown` (after a summary of `summaryTokens`): see
 * {@link TokenBasedContextCompactor}. Counts of events before `firstReportable` (the tail a compaction kept)
 * are of requests that still held what the summary covers: their totals are not used, but how they grew from
 * one call to the next still gives the scale.
 */
export function predictRequestTokens(shown: readonly Event[], agentName: string, summaryTokens: number, firstReportable = 0): number {
  const reported: number[] = [];
  for (let index = shown.length - 1; index >= 0 && reported.length < 3; index--) {
    const event = shown[index]!;
    if (event.author === agentName && event.usageMetadata?.promptTokenCount !== undefined && !answeredRearranged(shown, index)) reported.push(index);
  }
  const latest = reported[0] !== undefined && reported[0] >= firstReportable ? reported[0] : -1;
  if (latest < 0) {
    let estimated = summaryTokens;
    for (const event of shown) estimated += estimateEventTokens(event);
    return estimated;
  }
  const scale = growthScale(shown, reported, firstReportable);
  let after = 0;
  for (let index = latest + 1; index < shown.length; index++) after += estimateEventTokens(shown[index]!);
  const usage = shown[latest]!.usageMetadata!;
  const answer = Math.max(usage.candidatesTokenCount ?? 0, scale * estimateEventTokens(shown[latest]!));
  return Math.ceil(usage.promptTokenCount! + answer + scale * after);
}

/**
 * Whether the model event at `index` answered a request whose history was rearranged: one that ended with a
 * long-running call's result, which the request puts right after its call and without what came between
 * (ADK's reading, see `buildContents`). Its count is of that shorter request, not of the history.
 */
function answeredRearranged(shown: readonly Event[], index: number): boolean {
  const answered = getFunctionResponses(shown[index - 1]?.content);
  if (answered.length === 0) return false;
  const calls = new Set(getFunctionCalls(shown[index - 2]?.content).map((call) => call.id));
  return !answered.some((response) => calls.has(response.id));
}

/**
 * How many tokens the model counted per estimated token, from two consecutive calls it reported on either
 * side of a compaction (not across it): the growth of its count over the estimate of what was added between
 * them. 1 when unknown, and never below (the estimate is then kept, erring on the large side).
 */
function growthScale(shown: readonly Event[], reported: readonly number[], firstReportable: number): number {
  for (let pair = 0; pair + 1 < reported.length; pair++) {
    const later = reported[pair]!;
    const earlier = reported[pair + 1]!;
    if (later >= firstReportable !== earlier >= firstReportable) continue;
    let estimatedGrowth = 0;
    for (let index = earlier; index < later; index++) estimatedGrowth += estimateEventTokens(shown[index]!);
    const grown = shown[later]!.usageMetadata!.promptTokenCount! - shown[earlier]!.usageMetadata!.promptTokenCount!;
    return estimatedGrowth > 0 && grown > 0 ? Math.min(MAX_SCALE, Math.max(1, grown / estimatedGrowth)) : 1;
  }
  return 1;
}
