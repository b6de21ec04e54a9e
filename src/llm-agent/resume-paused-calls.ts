import type { ClientAnswer, InvocationContext } from "../agents/invocation-context.js";
import type { FunctionCall, FunctionResponse } from "../content/content.js";
import { CLIENT_FUNCTION_NAMES } from "../pause/client-requests.js";
import { pauseReasonOf } from "../pause/paused-call.js";
import { isVisible } from "./build-contents.js";

/**
 * The calls of this agent that paused for the client and that this
 * invocation's message lets go on: answered confirmations and credentials,
 * and agent-tool calls whose inner agent may now continue. The answers were
 * read once by the runner ({@link InvocationContext.resumeAnswers}); this is
 * one pass over the history, which finds each call's latest response (a call
 * resumed earlier in this invocation is no longer paused).
 */
export function pausedCallsToResume(context: InvocationContext, agentName: string): { calls: FunctionCall[]; answers: ReadonlyMap<string, ClientAnswer> } {
  const answers = context.resumeAnswers ?? new Map<string, ClientAnswer>();
  if (!context.resumeMessage) return { calls: [], answers };
  const latest = new Map<string, FunctionResponse>();
  const own: FunctionCall[] = [];
  for (const event of context.session.events) {
    const mine = event.author === agentName && isVisible(event, context);
    for (const part of event.content?.parts ?? []) {
      if (part.functionResponse?.id) latest.set(part.functionResponse.id, part.functionResponse);
      const call = part.functionCall;
      if (mine && call?.id && !CLIENT_FUNCTION_NAMES.has(call.name ?? "")) own.push(call);
    }
  }
  const calls = own.filter((call) => {
    const reason = pauseReasonOf(latest.get(call.id!)?.response);
    return reason !== undefined && (answers.has(call.id!) || reason === "client");
  });
  return { calls, answers };
}
