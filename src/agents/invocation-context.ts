import { newId } from "../events/new-id.js";
import { RunCancellation } from "./run-cancellation.js";
import { rootTraceScope, type TraceScope } from "../telemetry/spans.js";
import type { Agent, InvocationContext, RunConfig } from "./agent.js";

export type { ClientAnswer, InvocationContext, PluginHooks, RunConfig } from "./agent.js";

/** What {@link createInvocationContext} needs; everything else has a default. */
export type InvocationContextInit = Pick<InvocationContext, "agent" | "session" | "sessionService"> &
  Partial<Omit<InvocationContext, "runConfig" | "counters" | "endInvocation" | "memo">> & {
    runConfig?: RunConfig;
    /** The run's cancellation, when the caller made one: its signal becomes the context's `abortSignal`. */
    cancellation?: RunCancellation;
  };

/**
 * The one place invocation contexts are made (by the runner, direct tool
 * calls, the MCP server, tool listings): a fresh id unless given, the run
 * settings' defaults (`streamingMode: "none"`, `maxLlmCalls: 500`), new
 * counters, and an abort signal that never fires unless given.
 */
export function createInvocationContext(init: InvocationContextInit): InvocationContext {
  const cancellation = init.cancellation ?? (init.abortSignal ? undefined : new RunCancellation());
  // Every field written out, always in this order: one object shape for every context, which keeps the loop's
  // property reads monomorphic (a spread of `init` made a shape per caller and cost W1 about 2 µs per run).
  return {
    invocationId: init.invocationId ?? newId("e-"),
    agent: init.agent,
    session: init.session,
    sessionService: init.sessionService,
    artifactService: init.artifactService,
    memoryService: init.memoryService,
    credentialService: init.credentialService,
    userContent: init.userContent,
    resumeMessage: init.resumeMessage,
    resumeAnswers: init.resumeAnswers,
    runConfig: {
      streamingMode: init.runConfig?.streamingMode ?? "none",
      maxLlmCalls: init.runConfig?.maxLlmCalls ?? 500,
      streamAgentToolEvents: init.runConfig?.streamAgentToolEvents ?? false,
    },
    abortSignal: cancellation?.signal ?? init.abortSignal!,
    branch: init.branch,
    historyRoot: init.historyRoot,
    counters: { llmCalls: 0 },
    resumeAgent: init.resumeAgent,
    endInvocation: { value: false },
    plugins: init.plugins,
    trace: init.trace ?? rootTraceScope(),
    memo: { contents: undefined, cancellation },
  };
}

/**
 * Whether the invocation was cancelled. Asked of the context's {@link RunCancellation} when it made the context's
 * signal (a plain field), else of the signal: Node gives every `AbortSignal` a hidden class of its own, so a read
 * of `signal.aborted` misses V8's caches once a run at each place it is read.
 */
export function invocationAborted(context: InvocationContext): boolean {
  const cancellation = invocationCancellation(context);
  return cancellation ? cancellation.aborted : context.abortSignal.aborted;
}

/** The {@link RunCancellation} that made the context's signal, when the context keeps it (contexts made by toolsmith do). */
export function invocationCancellation(context: InvocationContext): RunCancellation | undefined {
  const cancellation = context.memo?.cancellation;
  return cancellation !== undefined && cancellation.signal === context.abortSignal ? cancellation : undefined;
}

/** The same invocation, with another agent running (and optionally another branch). */
export function forAgent(context: InvocationContext, agent: Agent, branch?: string): InvocationContext {
  return { ...context, agent, branch: branch ?? context.branch };
}

/** The scope new spans of this invocation go under. */
export function traceScopeOf(context: InvocationContext): TraceScope {
  return context.trace ?? rootTraceScope();
}

/** The same invocation, its work traced under another span (an agent's, a tool call's). */
export function withTraceScope(context: InvocationContext, trace: TraceScope): InvocationContext {
  return { ...context, trace };
}
