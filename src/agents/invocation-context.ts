import { resolveRunConfig } from "./run-config.js";
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
 * counters, and an abort signal that never fires unless given. A context with
 * a cancellation of its own makes its signal when `abortSignal` is first read.
 */
export function createInvocationContext(init: InvocationContextInit): InvocationContext {
  const cancellation = init.cancellation ?? (init.abortSignal ? undefined : new RunCancellation());
  const fields = contextFields({
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
    runConfig: resolveRunConfig(init.runConfig),
    branch: init.branch,
    historyRoot: init.historyRoot,
    counters: { llmCalls: 0 },
    resumeAgent: init.resumeAgent,
    plugins: init.plugins,
    trace: init.trace ?? rootTraceScope(),
    memo: { contents: undefined, cancellation, modelCallOptions: undefined, streamingCallOptions: undefined, invocationEnded: false },
  });
  if (cancellation) return withRunSignal(fields);
  (fields as { abortSignal?: AbortSignal }).abortSignal = init.abortSignal;
  return withSharedEnd(fields);
}

/** An invocation context's fields but its signal and its end flag, which are accessors. */
type ContextFields = Omit<InvocationContext, "abortSignal" | "endInvocation">;

/**
 * A context's fields but its signal and end flag, each written out, always in this order: one object shape for
 * every context, which keeps the loop's property reads monomorphic (a spread of `init` made a shape per caller and
 * cost W1 about 2 µs per run). The signal is left out so that copying a context does not make a lazy one.
 */
function contextFields(from: ContextFields): ContextFields {
  return {
    invocationId: from.invocationId,
    agent: from.agent,
    session: from.session,
    sessionService: from.sessionService,
    artifactService: from.artifactService,
    memoryService: from.memoryService,
    credentialService: from.credentialService,
    userContent: from.userContent,
    resumeMessage: from.resumeMessage,
    resumeAnswers: from.resumeAnswers,
    runConfig: from.runConfig,
    branch: from.branch,
    historyRoot: from.historyRoot,
    counters: from.counters,
    resumeAgent: from.resumeAgent,
    plugins: from.plugins,
    trace: from.trace,
    memo: from.memo,
  };
}

/**
 * The same invocation with some fields changed (the agent, its branch, the trace scope). While the run's signal is
 * not made, the copy keeps it lazy: then no copy by spread exists (a spread reads the signal), so the context is
 * one toolsmith made, with exactly these fields. Any other context (copied or built by hand, perhaps with fields
 * of its own) is copied by spread, as it is.
 */
export function deriveInvocationContext(context: InvocationContext, changes: Partial<ContextFields>): InvocationContext {
  const cancellation = invocationCancellation(context);
  if (!cancellation || cancellation.hasSignal) {
    const copy = { ...context, ...changes };
    // The spread took the end flag's value; the copy is of the same invocation, so it shares the flag again.
    return copy.memo?.invocationEnded === undefined ? copy : withSharedEnd(copy);
  }
  return withRunSignal(Object.assign(contextFields(context), changes));
}

/**
 * The getter of a context's lazy `abortSignal`: the signal of the run's cancellation (kept in `memo`), made at the
 * first read. One function shared by every context keeps them all on one hidden class. A context already holds its
 * cancellation in `memo`, so it needs no link of its own, as `withLazySignal`'s holders do (a second
 * `defineProperty` per context).
 */
function runSignal(this: InvocationContext): AbortSignal {
  return this.memo!.cancellation!.signal;
}

/**
 * The accessors of a context's `endInvocation`: the invocation's one flag, kept in `memo`, so that a sub-agent's
 * context and its parent's (copies, as ADK's are) end together. Shared functions, as for the signal.
 */
function invocationEnded(this: InvocationContext): boolean {
  return this.memo!.invocationEnded!;
}
function endInvocation(this: InvocationContext, ended: boolean): void {
  this.memo!.invocationEnded = ended;
}

const endInvocationProperty: PropertyDescriptor = { get: invocationEnded, set: endInvocation, enumerable: true, configurable: true };
const lazyContextProperties: PropertyDescriptorMap = {
  abortSignal: { get: runSignal, enumerable: true, configurable: true },
  endInvocation: endInvocationProperty,
};

/** The context whose `abortSignal` is the run's, made when first read. A copy by spread reads it, and holds the signal. */
function withRunSignal(fields: ContextFields): InvocationContext {
  return Object.defineProperties(fields, lazyContextProperties) as InvocationContext;
}

/** The context whose `endInvocation` is its invocation's (kept in `memo`). */
function withSharedEnd(fields: Omit<ContextFields, "endInvocation">): InvocationContext {
  return Object.defineProperty(fields, "endInvocation", endInvocationProperty) as InvocationContext;
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

/**
 * The {@link RunCancellation} whose signal is the context's, when the context keeps it (contexts made by toolsmith
 * do, and copies of them by spread). Found without making a signal no one has read: until it is made, the context
 * can only hold it unread (a copy by spread reads it, and `memo` is not for agents to copy by hand).
 */
export function invocationCancellation(context: InvocationContext): RunCancellation | undefined {
  const cancellation = context.memo?.cancellation;
  if (cancellation === undefined) return undefined;
  return !cancellation.hasSignal || cancellation.signal === context.abortSignal ? cancellation : undefined;
}

/** The same invocation, with another agent running (and optionally another branch). */
export function forAgent(context: InvocationContext, agent: Agent, branch?: string): InvocationContext {
  return deriveInvocationContext(context, { agent, branch: branch ?? context.branch });
}

/** The scope new spans of this invocation go under. */
export function traceScopeOf(context: InvocationContext): TraceScope {
  return context.trace ?? rootTraceScope();
}

/** The same invocation, its work traced under another span (an agent's, a tool call's). */
export function withTraceScope(context: InvocationContext, trace: TraceScope): InvocationContext {
  return deriveInvocationContext(context, { trace });
}
