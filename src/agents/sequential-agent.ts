import type { Event } from "../events/event.js";
import type { Agent } from "./agent.js";
import { forAgent, runAgentLive, invocationAborted, type InvocationContext } from "./invocation-context.js";
import { isWithin } from "./agent-tree.js";
import { isPause, WorkflowAgent, BASE_AGENT_OPTIONS } from "./workflow-agent.js";
import { markKind } from "../platform/kind.js";

/**
 * Runs its sub-agents one after another over the same conversation, so each
 * sees what the previous ones said and wrote to state. Stops early when one
 * pauses for the client; when the run resumes, it continues with that one.
 *
 * @example
 * ```ts
 * const pipeline = new SequentialAgent({ name: "pipeline", subAgents: [writer, reviewer] });
 * ```
 */
export class SequentialAgent extends WorkflowAgent {
  // Known as a SequentialAgent by every copy of toolsmith loaded beside this one (platform/kind.ts).
  static {
    markKind(this, "SequentialAgent");
  }

  protected static override readonly ownOptions: readonly string[] = [...BASE_AGENT_OPTIONS];
  protected static readonly agentKind = "SequentialAgent";
  protected async *runAsyncImpl(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    const resumeAt = resumeIndex(this.subAgents, context);
    for (const child of this.subAgents.slice(resumeAt)) {
      let paused = false;
      for await (const event of child.runAsync(forAgent(context, child))) {
        if (!event.partial && isPause(event)) paused = true;
        yield event;
      }
      if (paused || invocationAborted(context) || context.endInvocation) return;
    }
  }

  /**
   * Runs the sub-agents live, one after another, as ADK's: each LLM sub-agent is given a `task_completed` tool
   * (and told to call it when its part is done), and the next sub-agent takes over once it does. Unlike ADK's,
   * the sub-agents themselves are not changed: the tool exists only while they run live under this agent.
   */
  protected override async *runLiveImpl(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    for (const child of this.subAgents) {
      yield* runAgentLive(child, context);
      if (invocationAborted(context) || context.endInvocation) return;
    }
  }
}

/** Index of the child holding the agent being resumed, or 0. */
export function resumeIndex(children: readonly Agent[], context: InvocationContext): number {
  const target = context.resumeAgent;
  if (!target) return 0;
  const index = children.findIndex((child) => isWithin(target, child));
  return index < 0 ? 0 : index;
}
