import type { ServerEvent } from "./api.js";

/** A call the run paused on that the user has not answered yet. */
export interface PendingCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/**
 * Calls still waiting: requests for the client and long-running calls with no answer from the user yet. A call whose
 * agent or node run as a tool waits on questions of its own (asked on the call's branch, `…@<call id>`) is not
 * offered: the person answers those questions, and the call goes on with the answers.
 */
export function pendingCalls(events: readonly ServerEvent[]): PendingCall[] {
  const answered = new Set<string>();
  const askingInside = new Set<string>();
  for (const event of events) {
    if (event.longRunningToolIds?.length && event.branch?.includes("@")) {
      for (const segment of event.branch.split(".")) if (segment.includes("@")) askingInside.add(segment.slice(segment.lastIndexOf("@") + 1));
    }
    if (event.author !== "user") continue;
    for (const part of event.content?.parts ?? []) if (part.functionResponse?.id) answered.add(part.functionResponse.id);
  }
  const pending: PendingCall[] = [];
  for (const event of events) {
    const waiting = new Set(event.longRunningToolIds ?? []);
    for (const part of event.content?.parts ?? []) {
      const call = part.functionCall;
      if (!call?.id || !waiting.has(call.id) || answered.has(call.id)) continue;
      // Branches name a call by its id with anything but letters, digits, `_` and `-` replaced.
      if (askingInside.has(call.id.replace(/[^A-Za-z0-9_-]/g, "_"))) continue;
      pending.push({ id: call.id, name: call.name, args: call.args ?? {} });
    }
  }
  return pending;
}
