import type { InvocationContext } from "../agents/invocation-context.js";
import type { FunctionCall, FunctionResponse } from "../events/content.js";
import { CLIENT_FUNCTION_NAMES, isVisible } from "./build-contents.js";
import { pauseReasonOf, readClientAnswers, type ClientAnswer } from "./client-requests.js";

/**
 * The calls of this agent that paused for the client and that this
 * invocation's message lets go on: answered confirmations and credentials,
 * and agent-tool calls whose inner agent may now continue.
 */
export function pausedCallsToResume(context: InvocationContext, agentName: string): { calls: FunctionCall[]; answers: Map<string, ClientAnswer> } {
  const none = { calls: [], answers: new Map<string, ClientAnswer>() };
  if (!context.resumeMessage) return none;
  const events = context.session.events;
  // The message is already stored: read the answers against the history before it.
  const answers = readClientAnswersBefore(events, context);
  const latest = new Map<string, FunctionResponse>();
  for (const event of events) for (const part of event.content?.parts ?? []) if (part.functionResponse?.id) latest.set(part.functionResponse.id, part.functionResponse);

  const calls: FunctionCall[] = [];
  for (const event of events) {
    if (event.author !== agentName || !isVisible(event, context)) continue;
    for (const part of event.content?.parts ?? []) {
      const call = part.functionCall;
      if (!call?.id || CLIENT_FUNCTION_NAMES.has(call.name)) continue;
      const reason = pauseReasonOf(latest.get(call.id)?.response);
      if (reason === undefined) continue;
      if (answers.has(call.id) || reason === "client") calls.push(call);
    }
  }
  return { calls, answers };
}

function readClientAnswersBefore(events: InvocationContext["session"]["events"], context: InvocationContext): Map<string, ClientAnswer> {
  let end = events.length;
  while (end > 0 && !(events[end - 1]!.author === "user" && events[end - 1]!.invocationId === context.invocationId)) end--;
  return end > 0 ? readClientAnswers(events.slice(0, end - 1), context.resumeMessage) : new Map();
}
