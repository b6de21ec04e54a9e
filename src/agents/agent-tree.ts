import { ConfigurationError } from "../errors/toolsmith-error.js";
import { allAgents, type Agent } from "./agent.js";

const AGENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Throws unless the name is an identifier other than `user` (which names the human in events). */
export function assertAgentName(name: string): void {
  if (!AGENT_NAME.test(name) || name === "user") {
    throw new ConfigurationError(
      "INVALID_AGENT_NAME",
      `Agent name ${JSON.stringify(name)} is not valid. Use an identifier (letters, digits and "_", not starting with a digit), other than "user".`,
    );
  }
}

/** Places each child under `parent`, refusing a child that already has another parent. */
export function adoptChildren(parent: Agent, children: readonly Agent[]): void {
  for (const child of children) {
    const placed = child as { parentAgent?: Agent };
    if (placed.parentAgent && placed.parentAgent !== parent) {
      throw new ConfigurationError(
        "AGENT_HAS_PARENT",
        `Agent "${child.name}" is already a sub-agent of "${placed.parentAgent.name}" and cannot also be placed under "${parent.name}". Create a separate agent instance.`,
      );
    }
    placed.parentAgent = parent;
  }
}

/** Throws when two agents in the tree share a name: transfers and resumption find agents by name. */
export function assertUniqueAgentNames(root: Agent): void {
  const seen = new Set<string>();
  for (const agent of allAgents(root)) {
    if (seen.has(agent.name)) {
      throw new ConfigurationError("DUPLICATE_AGENT_NAME", `Two agents in the tree under "${root.name}" are named "${agent.name}". Give each agent a unique name.`);
    }
    seen.add(agent.name);
  }
}

/** The top of the tree the agent belongs to. */
export function rootOf(agent: Agent): Agent {
  let root = agent;
  while (root.parentAgent) root = root.parentAgent;
  return root;
}

/** Whether `agent` is `ancestor` or lies under it. */
export function isWithin(agent: Agent, ancestor: Agent): boolean {
  for (let current: Agent | undefined = agent; current; current = current.parentAgent) if (current === ancestor) return true;
  return false;
}
