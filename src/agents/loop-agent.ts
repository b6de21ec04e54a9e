import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { Event } from "../events/event.js";
import { forAgent, invocationAborted, runAgentLive, type InvocationContext } from "./invocation-context.js";
import { resumeIndex } from "./sequential-agent.js";
import { isPause, WorkflowAgent, type WorkflowAgentOptions, BASE_AGENT_OPTIONS } from "./workflow-agent.js";
import { markKind } from "../platform/kind.js";
import { describeGiven } from "../errors/unhonoured-option.js";

/** Options of {@link LoopAgent}. */
export interface LoopAgentOptions extends WorkflowAgentOptions {
  /** Stop after this many passes; without it the loop runs until an event escalates. */
  maxIterations?: number;
}

/**
 * Runs its sub-agents in order, again and again, until one of their events
 * escalates (the `exit_loop` tool does that) or `maxIterations` passes are done.
 */
export class LoopAgent extends WorkflowAgent {
  // Known as a LoopAgent by every copy of toolsmith loaded beside this one (platform/kind.ts).
  static {
    markKind(this, "LoopAgent");
  }

  protected static override readonly ownOptions: readonly string[] = [...BASE_AGENT_OPTIONS, "maxIterations"];
  protected static readonly agentKind = "LoopAgent";
  /** `Number.MAX_SAFE_INTEGER` when not given (no bound), as ADK reads it. */
  readonly maxIterations: number;

  constructor(options: LoopAgentOptions) {
    super(options);
    const { maxIterations } = options;
    // ADK takes any number, and a negative or fractional one runs the loop a surprising number of times (none, or rounded up).
    if (maxIterations !== undefined && (typeof maxIterations !== "number" || !Number.isInteger(maxIterations) || maxIterations < 0)) {
      throw new ConfigurationError("UNSUPPORTED_OPTION", `LoopAgent "${options.name}": maxIterations is a whole number of rounds, 0 or more (leave it out for no limit); it got ${describeGiven(maxIterations)}.`);
    }
    this.maxIterations = maxIterations ?? Number.MAX_SAFE_INTEGER;
  }

  protected async *runAsyncImpl(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    let start = resumeIndex(this.subAgents, context);
    for (let iteration = 0; iteration < this.maxIterations; iteration++) {
      for (const child of this.subAgents.slice(start)) {
        let stop = false;
        for await (const event of child.runAsync(forAgent(context, child))) {
          if (!event.partial && (event.actions.escalate || isPause(event))) stop = true;
          yield event;
        }
        if (stop || invocationAborted(context) || context.endInvocation) return;
      }
      start = 0;
    }
  }

  /** Runs the sub-agents live in turn, up to `maxIterations` rounds, until one escalates (as ADK's). */
  protected override async *runLiveImpl(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    for (let iteration = 0; iteration < this.maxIterations; iteration++) {
      for (const child of this.subAgents) {
        for await (const event of runAgentLive(child, context)) {
          yield event;
          if (event.actions.escalate) return;
        }
        if (invocationAborted(context) || context.endInvocation) return;
      }
    }
  }
}
