import type { InvocationContext } from "../agents/invocation-context.js";
import { createEvent, type Event } from "../events/event.js";
import type { FunctionCall } from "../events/content.js";
import { toolErrorResult } from "../tools/tool-result.js";
import { CLIENT_FUNCTION_NAMES, isVisible, type HistoryScope } from "./build-contents.js";

/**
 * Function calls by `agentName` that never got a response, such as those of a
 * run killed mid-way. Providers reject a history like that, so the session
 * could never be used again.
 */
export function findInterruptedCalls(allEvents: readonly Event[], agentName: string, scope: HistoryScope): FunctionCall[] {
  const events = allEvents.filter((event) => isVisible(event, scope));
  const answered = new Set<string>();
  for (const event of events) for (const part of event.content?.parts ?? []) if (part.functionResponse?.id) answered.add(part.functionResponse.id);
  const pending: FunctionCall[] = [];
  for (const event of events) {
    if (event.author !== agentName) continue;
    for (const part of event.content?.parts ?? []) {
      const call = part.functionCall;
      if (call?.id && !answered.has(call.id) && !CLIENT_FUNCTION_NAMES.has(call.name)) pending.push(call);
    }
  }
  return pending;
}

/** An event answering each interrupted call with an error the model can read, or nothing when none are. */
export function repairInterruptedCalls(context: InvocationContext, agentName: string): Event | undefined {
  const interrupted = findInterruptedCalls(context.session.events, agentName, context);
  if (interrupted.length === 0) return undefined;
  return createEvent({
    invocationId: context.invocationId,
    author: agentName,
    branch: context.branch,
    content: {
      role: "user",
      parts: interrupted.map((call) => ({
        functionResponse: {
          id: call.id,
          name: call.name,
          response: toolErrorResult(
            `The call to "${call.name}" was interrupted before it finished (the previous run stopped), so its result is unknown. Call it again if it is still needed.`,
          ),
        },
      })),
    },
  });
}
