import type { Event } from "../events/event.js";
import type { Agent } from "./agent.js";
import { adoptChildren, assertAgentName } from "./agent-tree.js";
import type { InvocationContext } from "./invocation-context.js";

/** Options shared by the workflow agents. */
export interface WorkflowAgentOptions {
  name: string;
  description?: string;
  subAgents: readonly Agent[];
}

/**
 * What sequential, parallel and loop agents share: a name, children in a
 * fixed order, and no model of their own. Each decides only the order in
 * which its children run.
 */
export abstract class WorkflowAgent implements Agent {
  readonly name: string;
  readonly description: string;
  readonly subAgents: readonly Agent[];
  parentAgent?: Agent;

  constructor(options: WorkflowAgentOptions) {
    assertAgentName(options.name);
    this.name = options.name;
    this.description = options.description ?? "";
    this.subAgents = options.subAgents;
    adoptChildren(this, this.subAgents);
  }

  abstract runAsync(context: InvocationContext): AsyncGenerator<Event, void, undefined>;
}

/** Whether an event paused the run (a long-running call, or a request to the client). */
export function isPause(event: Event): boolean {
  return (event.longRunningToolIds?.length ?? 0) > 0;
}
