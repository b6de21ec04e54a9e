import { newId } from "../events/new-id.js";
import type { Agent, InvocationContext, RunConfig } from "./agent.js";

export type { ClientAnswer, InvocationContext, RunConfig } from "./agent.js";

/** What {@link createInvocationContext} needs; everything else has a default. */
export type InvocationContextInit = Pick<InvocationContext, "agent" | "session" | "sessionService"> &
  Partial<Omit<InvocationContext, "runConfig" | "counters" | "endInvocation">> & { runConfig?: RunConfig };

/**
 * The one place invocation contexts are made (by the runner, direct tool
 * calls, the MCP server, tool listings): a fresh id unless given, the run
 * settings' defaults (`streamingMode: "none"`, `maxLlmCalls: 500`), new
 * counters, and an abort signal that never fires unless given.
 */
export function createInvocationContext(init: InvocationContextInit): InvocationContext {
  return {
    ...init,
    invocationId: init.invocationId ?? newId("e-"),
    runConfig: { streamingMode: init.runConfig?.streamingMode ?? "none", maxLlmCalls: init.runConfig?.maxLlmCalls ?? 500 },
    abortSignal: init.abortSignal ?? new AbortController().signal,
    counters: { llmCalls: 0 },
    endInvocation: { value: false },
  };
}

/** The same invocation, with another agent running (and optionally another branch). */
export function forAgent(context: InvocationContext, agent: Agent, branch?: string): InvocationContext {
  return { ...context, agent, branch: branch ?? context.branch };
}
