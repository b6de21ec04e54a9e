import type { Agent } from "./invocation-context.js";

export type { Agent, ClientAnswer, PluginHooks } from "./invocation-context.js";
export type { RunConfig } from "./run-config.js";

/** The agent with this name in the tree under `root` (including `root`), if any. */
export function findAgent(root: Agent, name: string): Agent | undefined {
  return root.name === name ? root : findAgentBelow(root, name);
}

/** The agent with this name under `root` (not `root` itself), if any. */
export function findAgentBelow(root: Agent, name: string): Agent | undefined {
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
