import { createEvent, type Event, type EventInit } from "./event.js";

/**
 * The record of one compaction, ADK's `CompactedEvent`: a summary of the
 * older part of an agent's history, which that agent's model sees in place of
 * the events it covers. The session keeps those events too; compaction
 * changes what the model is sent, never what is stored.
 *
 * Unlike ADK's, it carries no `content`: the summary is in
 * `compactedContent` only, so an agent that does not compact, and a client
 * that prints contents, never take it for something said.
 */
export interface CompactedEvent extends Event {
  /** Marks the event as a compaction (ADK's field). */
  readonly isCompacted: true;
  /** When the first event the summary covers was stored (milliseconds since the epoch). */
  startTime: number;
  /** When the last event the summary covers was stored. */
  endTime: number;
  /** The summary, as text. */
  compactedContent: string;
  /** ADK's flag for the running summary `AnchoredContextCompactor` keeps. */
  isScratchpad?: boolean;
  /**
   * toolsmith: the id of the last event the summary covers. The agent's view goes on with the events stored
   * after it; an id, since several events can share one millisecond and ADK's `endTime` alone cannot tell
   * which of them the summary covers.
   */
  compactedThroughEventId: string;
  /** toolsmith: how many events the summary covers in all, earlier summaries' included. */
  compactedEventCount: number;
  /**
   * toolsmith: events from before `compactedThroughEventId` that the model still sees, ahead of those after it:
   * calls still waiting (paused, or long-running until the client answers) and the events answering them.
   * Copies, so the view is built without reading back through the history.
   */
  keptEvents?: Event[];
}

/** Whether an event records a compaction (ADK's type guard). */
export function isCompactedEvent(event: Event): event is CompactedEvent {
  return (event as Partial<CompactedEvent>).isCompacted === true;
}

/**
 * Whether an event is a compaction record marked as a scratchpad, the running summary `AnchoredContextCompactor`
 * keeps (ADK's type guard).
 */
export function isScratchpadEvent(event: Event): event is CompactedEvent & { isScratchpad: true } {
  return isCompactedEvent(event) && event.isScratchpad === true;
}

/** The fields of a compaction record; the rest get an event's defaults. */
export type CompactedEventInit = EventInit & Pick<CompactedEvent, "startTime" | "endTime" | "compactedContent" | "compactedThroughEventId" | "compactedEventCount">;

/** A compaction record with a fresh id and the current time. */
export function createCompactedEvent(init: CompactedEventInit): CompactedEvent {
  return { ...createEvent(init), isCompacted: true, startTime: init.startTime, endTime: init.endTime, compactedContent: init.compactedContent, compactedThroughEventId: init.compactedThroughEventId, compactedEventCount: init.compactedEventCount };
}
