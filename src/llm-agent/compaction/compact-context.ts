import { invocationAborted, pluginsFor, type InvocationContext } from "../../agents/invocation-context.js";
import { isToolsmithError } from "../../errors/toolsmith-error.js";
import { createEvent, type Event } from "../../events/event.js";
import type { LlmAgentSettings } from "../llm-agent-settings.js";
import { ContextCompactionTrigger } from "../../plugins/base-plugin.js";
import { PluginError } from "../../plugins/plugin-manager.js";
import type { BaseContextCompactor } from "./token-based-context-compactor.js";

/**
 * The loop's step before a model call, for an agent with `contextCompactors`
 * (ADK's `ContextCompactorRequestProcessor`): the first compactor that asks
 * to compact does, and its record is yielded, for the runner to store before
 * the request is built. A compactor or summariser that fails ends the turn
 * with a `COMPACTION_FAILED` error event instead of throwing; the history
 * stays whole, and the next turn tries again. Returns whether the turn ended.
 *
 * An agent with `includeContents: "none"` sends only the current turn, so it
 * is not compacted.
 */
export async function* compactContext(agent: LlmAgentSettings, context: InvocationContext, compactors: readonly BaseContextCompactor[]): AsyncGenerator<Event, boolean, undefined> {
  if (agent.includeContents === "none") return false;
  for (const compactor of compactors) {
    let record: Event | undefined;
    try {
      if (!(await compactor.shouldCompact(context))) continue;
      // As ADK's: the plugins hear of the compaction before and after it (a plugin that fails ends the run with PLUGIN_FAILED).
      const trigger = compactor.trigger ?? ContextCompactionTrigger.Auto;
      await pluginsFor(context, "beforeContextCompaction")?.runBeforeContextCompaction({ invocationContext: context, trigger });
      record = await compactor.compact(context);
      await pluginsFor(context, "afterContextCompaction")?.runAfterContextCompaction({ invocationContext: context, trigger });
    } catch (error) {
      if (error instanceof PluginError) throw error;
      if (invocationAborted(context)) return true;
      const cause = isToolsmithError(error) ? `${error.code}: ${error.message}` : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      yield createEvent({
        invocationId: context.invocationId,
        author: agent.name,
        branch: context.branch,
        errorCode: "COMPACTION_FAILED",
        errorMessage: `Agent "${agent.name}" could not summarise its older history before calling its model (${cause}). Nothing was removed: the session keeps every event. Run the turn again, or give the compactor a summarizer with a model that answers.`,
      });
      return true;
    }
    if (record) yield record;
    return false;
  }
  return false;
}
