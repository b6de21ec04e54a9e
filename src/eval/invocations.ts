import type { Agent } from "../agents/agent.js";
import type { Content, FunctionCall, FunctionResponse, Part } from "../content/content.js";
import { getFunctionCalls, getFunctionResponses } from "../content/content.js";
import { isFinalResponse, type Event } from "../events/event.js";
import type { BasePlugin } from "../plugins/base-plugin.js";
import { Runner } from "../runner/runner.js";
import type { EvalCase, Invocation } from "./eval-set.js";

/** What the agent did in one turn of an eval run: an {@link Invocation}, with the tools' results (for judges) and any error the run ended with. */
export interface ActualInvocation extends Invocation {
  toolResponses: FunctionResponse[];
  /** The error event's code and message when the turn ended with one. */
  error?: { code: string; message: string };
}

function textParts(content: Content | undefined): Part[] {
  return (content?.parts ?? []).filter((part) => part.text && !part.thought);
}

/**
 * One turn as ADK reads it: the tool calls, in order, are the trajectory; the
 * last final response with text is the final response; text that other agents
 * than the root wrote on the way are the intermediate responses.
 */
export function invocationFromTurn(userContent: Content, events: readonly Event[], rootAgentName?: string): ActualInvocation {
  const toolUses: FunctionCall[] = [];
  const intermediateResponses: Array<[string, Part[]]> = [];
  const invocation: ActualInvocation = {
    invocationId: events[0]?.invocationId ?? "",
    userContent,
    intermediateData: { toolUses, intermediateResponses },
    toolResponses: [],
    creationTimestamp: (events[0]?.timestamp ?? Date.now()) / 1000,
  };
  let finalAuthor: string | undefined;
  for (const event of events) {
    if (event.partial) continue;
    const calls = getFunctionCalls(event.content);
    toolUses.push(...calls.map(withoutId));
    invocation.toolResponses.push(...getFunctionResponses(event.content));
    if (event.errorCode) invocation.error = { code: event.errorCode, message: event.errorMessage ?? "" };
    const text = textParts(event.content);
    if (text.length === 0) continue;
    if (isFinalResponse(event) && calls.length === 0) {
      // A later final answer makes an earlier one from a sub-agent a step on the way.
      if (invocation.finalResponse && finalAuthor !== rootAgentName) intermediateResponses.push([finalAuthor!, invocation.finalResponse.parts ?? []]);
      invocation.finalResponse = { role: "model", parts: text };
      finalAuthor = event.author;
    } else if (event.author !== rootAgentName) {
      intermediateResponses.push([event.author, text]);
    }
  }
  return invocation;
}

/**
 * The invocations of a session's events: each user message with text starts
 * one (a user event of function responses only answers a paused call, in the
 * same turn).
 */
export function invocationsFromEvents(events: readonly Event[], rootAgentName?: string): ActualInvocation[] {
  const turns: Array<{ user: Content; events: Event[] }> = [];
  for (const event of events) {
    if (event.partial) continue;
    if (event.author === "user" && (textParts(event.content).length > 0 || turns.length === 0)) {
      turns.push({ user: { role: "user", parts: event.content?.parts ?? [] }, events: [] });
    } else {
      turns.at(-1)?.events.push(event);
    }
  }
  return turns.map((turn) => invocationFromTurn(turn.user, turn.events, rootAgentName));
}

/** ADK compares names and arguments only; ids differ on every run. */
function withoutId(call: FunctionCall): FunctionCall {
  return { name: call.name, args: call.args ?? {} };
}

/** Options of {@link runEvalCase}. */
export interface RunEvalCaseOptions {
  agent: Agent;
  evalCase: EvalCase;
  /** Used when the case has no `session_input`. */
  appName?: string;
  /** Plugins the case's runner runs. */
  plugins?: readonly BasePlugin[];
  abortSignal?: AbortSignal;
}

/**
 * Replays an eval case's user messages against the agent in a fresh in-memory
 * session (its `session_input` state, as ADK starts it) and returns what the
 * agent did in each turn. A run never throws for what happens inside it: a turn
 * that ends with an error event carries it in `error`.
 */
export async function runEvalCase(options: RunEvalCaseOptions): Promise<{ invocations: ActualInvocation[]; events: Event[]; sessionId: string; userId: string }> {
  const input = options.evalCase.sessionInput;
  const appName = input?.appName || options.appName || "toolsmith_eval";
  const userId = input?.userId || "test_user_id";
  const runner = new Runner({ appName, agent: options.agent, plugins: options.plugins });
  try {
    const session = await runner.sessionService.createSession({ appName, userId, state: structuredClone(input?.state ?? {}) });
    const invocations: ActualInvocation[] = [];
    const events: Event[] = [];
    for (const turn of options.evalCase.conversation) {
      const turnEvents: Event[] = [];
      const stream = runner.runAsync({ userId, sessionId: session.id, newMessage: { role: "user", parts: turn.userContent.parts ?? [] }, abortSignal: options.abortSignal });
      for await (const event of stream) if (!event.partial) turnEvents.push(event);
      invocations.push(invocationFromTurn(turn.userContent, turnEvents, options.agent.name));
      events.push(...turnEvents);
    }
    return { invocations, events, sessionId: session.id, userId };
  } finally {
    await runner.close();
  }
}
