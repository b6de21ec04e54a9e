import { createEvent, type Event } from "../events/event.js";
import type { FunctionCall } from "../content/content.js";
import { toolErrorResult } from "../tools/tool-result.js";
import type { LocatedCall } from "./call-index.js";
import { CLIENT_FUNCTION_NAMES } from "./client-requests.js";

/**
 * Events that answer the function calls of the session left without a
 * response (`unanswered`, as `unansweredCalls` finds them: a run killed
 * mid-way), one event per agent and branch, each call
 * answered with an error saying it was interrupted. Providers reject a history
 * with unanswered calls, so without this a session could never be used again.
 * The runner stores them before the next user message, so each call is still
 * followed by its answer.
 */
export function repairInterruptedCalls(unanswered: Iterable<LocatedCall>, invocationId: string): Event[] {
  const groups = new Map<string, { author: string; branch?: string; calls: FunctionCall[] }>();
  for (const { call, event } of unanswered) {
    if (event.author === "user" || CLIENT_FUNCTION_NAMES.has(call.name ?? "")) continue;
    const key = `${event.author}\u0000${event.branch ?? ""}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { author: event.author, branch: event.branch, calls: [] }));
    group.calls.push(call);
  }
  return [...groups.values()].map((group) =>
    createEvent({
      invocationId,
      author: group.author,
      branch: group.branch,
      content: {
        role: "user",
        parts: group.calls.map((call) => ({
          functionResponse: {
            id: call.id,
            name: call.name,
            response: toolErrorResult(
              `The call to "${call.name}" was interrupted before it finished (the previous run stopped), so its result is unknown. Call it again if it is still needed.`,
            ),
          },
        })),
      },
    }),
  );
}
