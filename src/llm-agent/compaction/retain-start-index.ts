import { pauseReasonOf } from "../../pause/paused-call.js";
import type { Event } from "../../events/event.js";

/**
 * Where the retained tail of `events` starts: at `desired` or earlier, so that
 * no function call is summarised while an answer to it is retained, and no
 * call still waiting is summarised at all. 0 when no such point exists (then
 * nothing can be compacted). ADK's `calculateRetainStartIndex` looks at one
 * pair of neighbouring events; this looks at every call.
 *
 * A call is waiting while it has no response, while its latest response is a
 * paused one (a confirmation, a credential, a client's answer), and, for a
 * long-running call, until the client has sent a response to it: the tool's
 * own pending result is not the end of it.
 */
export function retainStartIndex(events: readonly Event[], desired: number): number {
  const last = Math.min(desired, events.length);
  if (last <= 0) return 0;
  const callAt = new Map<string, number>();
  const longRunning = new Set<string>();
  const latest = new Map<string, { index: number; paused: boolean; fromClient: boolean }>();
  events.forEach((event, index) => {
    for (const part of event.content?.parts ?? []) {
      const callId = part.functionCall?.id;
      if (callId !== undefined) callAt.set(callId, index);
      const response = part.functionResponse;
      if (response?.id !== undefined) {
        const previous = latest.get(response.id);
        latest.set(response.id, { index, paused: pauseReasonOf(response.response) !== undefined, fromClient: (previous?.fromClient ?? false) || event.author === "user" });
      }
    }
    for (const id of event.longRunningToolIds ?? []) if (callAt.get(id) === index) longRunning.add(id);
  });
  // Boundaries b (the first retained index) with callIndex < b <= end are refused: counted in a difference array.
  const refused = new Int32Array(events.length + 2);
  for (const [id, callIndex] of callAt) {
    const answer = latest.get(id);
    const waiting = !answer || answer.paused || (longRunning.has(id) && !answer.fromClient);
    const end = waiting ? events.length : answer.index;
    if (end <= callIndex) continue;
    refused[callIndex + 1] = refused[callIndex + 1]! + 1;
    refused[end + 1] = refused[end + 1]! - 1;
  }
  let best = 0;
  let running = 0;
  for (let boundary = 1; boundary <= last; boundary++) {
    running += refused[boundary]!;
    if (running === 0) best = boundary;
  }
  return best;
}
