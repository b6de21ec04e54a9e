import { pauseReasonOf } from "../../pause/paused-call.js";
import type { Event } from "../../events/event.js";

/** Where a compaction splits the history: what is summarised, and what the model keeps seeing. */
export interface CompactionSplit {
  /** The first event of the retained tail; 0 when nothing can be summarised. */
  retainStart: number;
  /**
   * Indices before `retainStart` that stay in view: calls still waiting and the events answering them (with
   * any call or answer sharing an event with those), in order.
   */
  kept: number[];
}

/**
 * Where to split `events` for a compaction: the retained tail starts at
 * `desired` or earlier, so that no function call is summarised while an
 * answer to it is kept. A call still waiting is never summarised: its event,
 * and the events answering it so far, stay in view ahead of the tail (and so
 * does whatever shares an event with them), however old, so a long-running
 * job or a pause for a person does not hold the whole history back. ADK's
 * `calculateRetainStartIndex` looks at one pair of neighbouring events; this
 * looks at every call.
 *
 * A call is waiting while it has no response, while its latest response is a
 * paused one (a confirmation, a credential, a client's answer), and, for a
 * long-running call, until the client has sent a response to it: the tool's
 * own pending result is not the end of it.
 */
export function compactionSplit(events: readonly Event[], desired: number): CompactionSplit {
  const last = Math.min(desired, events.length);
  if (last <= 0) return { retainStart: 0, kept: [] };
  const callAt = new Map<string, number>();
  const longRunning = new Set<string>();
  const answers = new Map<string, { indices: number[]; paused: boolean; fromClient: boolean }>();
  events.forEach((event, index) => {
    for (const part of event.content?.parts ?? []) {
      const callId = part.functionCall?.id;
      if (callId !== undefined) callAt.set(callId, index);
      const response = part.functionResponse;
      if (response?.id === undefined) continue;
      const answer = answers.get(response.id) ?? { indices: [], paused: false, fromClient: false };
      answer.indices.push(index);
      answer.paused = pauseReasonOf(response.response) !== undefined;
      answer.fromClient ||= event.author === "user";
      answers.set(response.id, answer);
    }
    for (const id of event.longRunningToolIds ?? []) if (callAt.get(id) === index) longRunning.add(id);
  });
  const pinned = pinnedEvents(events, callAt, answers, (id) => {
    const answer = answers.get(id);
    return !answer || answer.paused || (longRunning.has(id) && !answer.fromClient);
  });
  // Boundaries b (the first retained index) with callIndex < b <= lastAnswer are refused: counted in a difference array.
  const refused = new Int32Array(events.length + 2);
  for (const [id, callIndex] of callAt) {
    if (pinned.has(callIndex)) continue;
    const end = Math.max(...(answers.get(id)?.indices ?? [callIndex]));
    if (end <= callIndex) continue;
    refused[callIndex + 1] = refused[callIndex + 1]! + 1;
    refused[end + 1] = refused[end + 1]! - 1;
  }
  let retainStart = 0;
  let running = 0;
  for (let boundary = 1; boundary <= last; boundary++) {
    running += refused[boundary]!;
    if (running === 0) retainStart = boundary;
  }
  return { retainStart, kept: [...pinned].filter((index) => index < retainStart).sort((a, b) => a - b) };
}

/**
 * The events that hold a waiting call or an answer to one, closed over sharing: an event pinned for one call
 * pins the events of every other call or answer it holds, since an event is kept or summarised whole.
 */
function pinnedEvents(events: readonly Event[], callAt: ReadonlyMap<string, number>, answers: ReadonlyMap<string, { indices: number[] }>, waiting: (id: string) => boolean): Set<number> {
  const pinned = new Set<number>();
  const queue: string[] = [...callAt.keys()].filter(waiting);
  const seen = new Set<string>(queue);
  while (queue.length > 0) {
    const id = queue.pop()!;
    for (const index of [callAt.get(id)!, ...(answers.get(id)?.indices ?? [])]) {
      if (pinned.has(index)) continue;
      pinned.add(index);
      for (const part of events[index]!.content?.parts ?? []) {
        const other = part.functionCall?.id ?? part.functionResponse?.id;
        if (other !== undefined && callAt.has(other) && !seen.has(other)) {
          seen.add(other);
          queue.push(other);
        }
      }
    }
  }
  return pinned;
}
