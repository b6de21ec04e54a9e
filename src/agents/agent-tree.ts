import { ConfigurationError } from "../errors/toolsmith-error.js";
import { describeGiven } from "../errors/unhonoured-option.js";
import { allAgents, type Agent } from "./agent.js";

const AGENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Throws unless the name is an identifier other than `user` (which names the human in events). */
export function assertAgentName(name: unknown): asserts name is string {
  if (name === undefined || name === "") {
    throw new ConfigurationError("INVALID_AGENT_NAME", 'An agent needs a name: an identifier (letters, digits and "_", not starting with a digit) other than "user", as in { name: "helper" }.');
  }
  if (typeof name !== "string" || !AGENT_NAME.test(name) || name === "user") {
    throw new ConfigurationError(
      "INVALID_AGENT_NAME",
      `Agent name ${JSON.stringify(name)} is not valid. Use an identifier (letters, digits and "_", not starting with a digit), other than "user".`,
    );
  }
}

/** Whether a value can stand in a tree of agents: a name and a `runAsync` (an agent of this or another copy of toolsmith, or of a program's own). */
export function isAgentLike(value: unknown): value is Agent {
  const candidate = value as Partial<Agent> | null;
  return typeof candidate === "object" && candidate !== null && typeof candidate.name === "string" && typeof candidate.runAsync === "function";
}

/** How a value that is no agent reads in a message: `a function (helper)`, `an object that is no agent`, or as {@link describeGiven} has it. */
function describeNonAgent(value: unknown): string {
  if (typeof value === "function") return `a function (${(value as { name?: string }).name || "anonymous"})`;
  return typeof value === "object" && value !== null && !Array.isArray(value) ? "an object that is no agent" : describeGiven(value);
}

/** Refuses `subAgents` that is not a list of agents, naming the entry that is not one. */
export function assertSubAgents(owner: string, subAgents: unknown): asserts subAgents is readonly Agent[] {
  if (!Array.isArray(subAgents)) {
    throw new ConfigurationError("UNSUPPORTED_OPTION", `Agent "${owner}": subAgents is a list of agents ([helper, reviewer]); it got ${describeNonAgent(subAgents)}.`);
  }
  subAgents.forEach((child: unknown, index) => {
    if (!isAgentLike(child)) {
      throw new ConfigurationError("UNSUPPORTED_OPTION", `Agent "${owner}": subAgents[${index}] is ${describeNonAgent(child)}; give an agent made with new LlmAgent({ … }) (or another agent class).`);
    }
  });
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
