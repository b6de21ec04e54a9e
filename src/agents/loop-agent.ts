import type { Event } from "../events/event.js";
import { forAgent, invocationAborted, runAgentLive, type InvocationContext } from "./invocation-context.js";
import { resumeIndex } from "./sequential-agent.js";
import { isPause, WorkflowAgent, type WorkflowAgentOptions, BASE_AGENT_OPTIONS } from "./workflow-agent.js";
import { markKind } from "../platform/kind.js";

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
    this.maxIterations = options.maxIterations ?? Number.MAX_SAFE_INTEGER;
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
