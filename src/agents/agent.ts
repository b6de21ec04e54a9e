import type { Event } from "../events/event.js";
import type { InvocationContext } from "./invocation-context.js";

/**
 * An agent: something that, given an invocation, produces events. `LlmAgent`
 * drives a model; workflow agents run their sub-agents in a fixed order.
 */
export interface Agent {
  readonly name: string;
  /** Tells other agents (and models choosing a transfer target) what this agent does. */
  readonly description: string;
  readonly subAgents: readonly Agent[];
  /** Set when the agent is placed under another; an agent has at most one parent. */
  readonly parentAgent?: Agent;
  runAsync(context: InvocationContext): AsyncGenerator<Event, void, undefined>;
}

/** The agent with this name in the tree under `root` (including `root`), if any. */
export function findAgent(root: Agent, name: string): Agent | undefined {
  if (root.name === name) return root;
  for (const child of root.subAgents) {
    const found = findAgent(child, name);
    if (found) return found;
  }
  return undefined;
}

/** Every agent in the tree under `root`, root first. */
export function allAgents(root: Agent): Agent[] {
  return [root, ...root.subAgents.flatMap(allAgents)];
}
