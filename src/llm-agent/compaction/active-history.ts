import { CLIENT_FUNCTION_NAMES } from "../../pause/client-requests.js";
import type { Part } from "../../content/content.js";
import { isCompactedEvent, type CompactedEvent } from "../../events/compacted-event.js";
import type { Event } from "../../events/event.js";

/** An agent's history as its compaction left it: the latest summary, and the events stored after what it covers. */
export interface ActiveHistory {
  /** The agent's latest compaction in its branch; absent when it never compacted there. */
  compaction?: CompactedEvent;
  /** The events the record kept, then those after the last one it covers, records left out; the whole history without a summary. */
  events: readonly Event[];
  /**
   * How many of `events` were stored before the compaction record (the tail it kept). Their models' token
   * counts are of requests that still held what the summary now covers.
   */
  storedBeforeRecord: number;
}

/**
 * The agent's active history: from its latest compaction in this branch (the
 * newest record whose covered events are stored), the events it kept (calls
 * still waiting) and the events after those it covers. A
 * compaction is an agent's own: another agent, or the same agent in another
 * branch or isolation scope (a workflow node's), sees the history its own way. Scans back only to that record.
 */
export function activeHistory(events: readonly Event[], agentName: string, branch: string | undefined, isolationScope?: string): ActiveHistory {
  for (let index = events.length - 1; index >= 0; index--) {
    const record = events[index]!;
    if (!isCompactedEvent(record) || record.author !== agentName || record.branch !== branch || record.isolationScope !== isolationScope) continue;
    for (let covered = index - 1; covered >= 0; covered--) {
      if (events[covered]!.id !== record.compactedThroughEventId) continue;
      const kept = [...(record.keptEvents ?? []), ...withoutRecords(events.slice(covered + 1, index))];
      return { compaction: record, events: [...kept, ...withoutRecords(events.slice(index + 1))], storedBeforeRecord: kept.length };
    }
    // A record naming no stored event (a store edited by hand) is passed over: an older one, or the whole history, is used.
  }
  return { events, storedBeforeRecord: 0 };
}

function withoutRecords(events: Event[]): Event[] {
  return events.some(isCompactedEvent) ? events.filter((event) => !isCompactedEvent(event)) : events;
}

/** The text the model reads in place of the events a summary covers (ADK's wording). */
export function summaryText(compaction: CompactedEvent): string {
  return `[Previous Context Summary]:\n${compaction.compactedContent}`;
}

/**
 * What an agent with compactors sends its model instead of the whole history:
 * its latest summary as a user message, then the events after it, as ADK's
 * content processor builds them. Without a summary, the history unchanged.
 */
export function compactedView(events: readonly Event[], agentName: string, branch: string | undefined, isolationScope?: string): readonly Event[] {
  const active = activeHistory(events, agentName, branch, isolationScope);
  const compaction = active.compaction;
  if (!compaction) return events;
  const summary: Event = {
    id: compaction.id,
    invocationId: compaction.invocationId,
    author: "user",
    branch: compaction.branch,
    timestamp: compaction.timestamp,
    actions: compaction.actions,
    content: { role: "user", parts: [{ text: summaryText(compaction) }] },
  };
  return [summary, ...withStrayResponsesRetold(active.events)];
}

/**
 * The events with each function response whose call the summary covers told
 * as text, since a provider refuses a response without its call. Compaction
 * never cuts a call from its answer; this is for a long-running call's update
 * that arrives after the call was summarised.
 */
function withStrayResponsesRetold(events: readonly Event[]): readonly Event[] {
  const calls = new Set<string>();
  let retold: Event[] | undefined;
  events.forEach((event, index) => {
    const parts = event.content?.parts;
    if (!parts) return;
    let changed: Part[] | undefined;
    parts.forEach((part, partIndex) => {
      if (part.functionCall?.id) calls.add(part.functionCall.id);
      const response = part.functionResponse;
      if (!response?.id || calls.has(response.id) || CLIENT_FUNCTION_NAMES.has(response.name ?? "")) return;
      changed ??= [...parts];
      changed[partIndex] = { text: `Update for the earlier call to ${response.name} (id ${response.id}), which the summary covers: ${JSON.stringify(response.response)}` };
    });
    if (!changed) return;
    retold ??= [...events];
    retold[index] = { ...event, content: { ...event.content, parts: changed } };
  });
  return retold ?? events;
}
