import { branchSafeId, toolCallIdsIn } from "../agents/branch.js";
import type { ClientAnswer, InvocationContext } from "../agents/invocation-context.js";
import type { FunctionCall, FunctionResponse } from "../content/content.js";
import { CLIENT_FUNCTION_NAMES } from "../pause/client-requests.js";
import { pauseReasonOf } from "../pause/paused-call.js";
import { isVisible } from "./build-contents.js";

/**
 * The calls of this agent that paused for the client and that this
 * invocation's message lets go on: answered confirmations and credentials,
 * and calls of agents or nodes run as tools whose work may now continue (not
 * a long-running tool's call, whose result only the client gives). The answers were
 * read once by the runner ({@link InvocationContext.resumeAnswers}); this is
 * one pass over the history, which finds each call's latest response (a call
 * resumed earlier in this invocation is no longer paused).
 */
export function pausedCallsToResume(context: InvocationContext, agentName: string): { calls: FunctionCall[]; answers: ReadonlyMap<string, ClientAnswer> } {
  const answers = context.resumeAnswers ?? new Map<string, ClientAnswer>();
  if (!context.resumeMessage) return { calls: [], answers };
  const latest = new Map<string, FunctionResponse>();
  const own: FunctionCall[] = [];
  // The calls that ran an agent or a node, by the branch-safe ids their work's branches name (`…@<id>`).
  const ranInside = new Set<string>();
  for (const event of context.session.events) {
    for (const id of toolCallIdsIn(event.branch)) ranInside.add(id);
    const mine = event.author === agentName && isVisible(event, context);
    for (const part of event.content?.parts ?? []) {
      if (part.functionResponse?.id) latest.set(part.functionResponse.id, part.functionResponse);
      const call = part.functionCall;
      if (mine && call?.id && !CLIENT_FUNCTION_NAMES.has(call.name ?? "")) own.push(call);
    }
  }
  const calls = own.filter((call) => {
    const reason = pauseReasonOf(latest.get(call.id!)?.response);
    if (reason === undefined) return false;
    if (answers.has(call.id!)) return true;
    // An agent or node run as a tool that waits for the person goes on (it finds its own answers, or waits again).
    // A long-running tool's result comes from the client: running it again would do its work twice.
    return reason === "client" && ranInside.has(branchSafeId(call.id!));
  });
  return { calls, answers };
}
