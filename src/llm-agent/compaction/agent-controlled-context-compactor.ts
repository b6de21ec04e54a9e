import type { InvocationContext } from "../../agents/invocation-context.js";
import { getFunctionCalls } from "../../content/content.js";
import type { CompactedEvent } from "../../events/compacted-event.js";
import { createEvent, type Event } from "../../events/event.js";
import { ContextCompactionTrigger } from "../../plugins/base-plugin.js";
import { CONSOLIDATE_CONTEXT_DETAIL_STATE_KEY, CONSOLIDATE_CONTEXT_STATE_KEY, CONSOLIDATE_CONTEXT_TOOL_NAME } from "../../tools/consolidate-context-tool.js";
import { compactionSplit } from "./compaction-split.js";
import { LlmSummarizer, type BaseSummarizer } from "./llm-summarizer.js";
import { shownHistory, summariseBefore, type BaseContextCompactor } from "./token-based-context-compactor.js";

/** Options of {@link AgentControlledContextCompactor} (ADK's names). */
export interface AgentControlledContextCompactorOptions {
  /** Writes the summaries; an {@link LlmSummarizer} with the agent's own model when absent (ADK requires one). */
  summarizer?: BaseSummarizer;
}

/**
 * ADK 2's `AgentControlledContextCompactor`: compacts when the model asks, through `ConsolidateContextTool`
 * (`consolidate_context`). Before the agent's next model call, the history before the model's latest
 * `consolidate_context` call is summarised (guided by the call's `detail`, when given) into a stored record,
 * which the model then sees in place of what it covers; the call, its answer and what follows stay as they are.
 * The plugins' compaction hooks are told `ContextCompactionTrigger.AgentControlled`.
 *
 * As with {@link TokenBasedContextCompactor}, the record is stored like any other event and the session keeps
 * every event; calls still waiting (paused, long-running) are never summarised. A summariser that fails ends the
 * turn with a `COMPACTION_FAILED` error event, the history whole, where ADK writes to the console and goes on.
 * Either way the request is spent: the model asks again when it wants another consolidation.
 */
export class AgentControlledContextCompactor implements BaseContextCompactor {
  readonly trigger = ContextCompactionTrigger.AgentControlled;
  readonly #summarizer: BaseSummarizer;

  constructor(options: AgentControlledContextCompactorOptions = {}) {
    this.#summarizer = options.summarizer ?? new LlmSummarizer();
  }

  /** Whether the model asked for a consolidation in this invocation (`temp:consolidate_context`). */
  shouldCompact(invocationContext: InvocationContext): boolean {
    return invocationContext.session.state[CONSOLIDATE_CONTEXT_STATE_KEY] === true;
  }

  async compact(invocationContext: InvocationContext): Promise<CompactedEvent | undefined> {
    const state = invocationContext.session.state;
    const detail = state[CONSOLIDATE_CONTEXT_DETAIL_STATE_KEY];
    // The request is spent whatever comes of it; `temp:` keys are never stored, so the invocation's own copy is cleared.
    delete state[CONSOLIDATE_CONTEXT_STATE_KEY];
    delete state[CONSOLIDATE_CONTEXT_DETAIL_STATE_KEY];
    const history = shownHistory(invocationContext);
    const request = latestConsolidateCall(history.shown);
    if (request <= 0) return undefined;
    const guidance = detail === undefined || detail === "" ? undefined : guidanceEvent(String(detail), history.shown[request - 1]!.timestamp);
    return summariseBefore(this.#summarizer, invocationContext, history, compactionSplit(history.shown, request), guidance);
  }
}

/** Where the model's latest `consolidate_context` call is in the shown history; -1 when it made none. */
function latestConsolidateCall(shown: readonly Event[]): number {
  for (let index = shown.length - 1; index >= 0; index--) {
    if (getFunctionCalls(shown[index]!.content).some((call) => call.name === CONSOLIDATE_CONTEXT_TOOL_NAME)) return index;
  }
  return -1;
}

/** What the summariser reads after the events, as ADK words it: the model's own note on what to focus on. */
function guidanceEvent(detail: string, timestamp: number): Event {
  return createEvent({ invocationId: "", author: "system", timestamp, content: { role: "user", parts: [{ text: `CRITICAL INSTRUCTION FOR SUMMARY: Please summarize the history. Focus especially on: ${detail}` }] } });
}
