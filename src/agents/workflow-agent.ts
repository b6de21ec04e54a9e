import type { Agent } from "./agent.js";
import { BaseAgent, type BaseAgentConfig } from "./base-agent.js";
import { refuseNonObjectOptions, refuseUnhonouredOptions } from "../errors/unhonoured-option.js";

export { isPause } from "./base-agent.js";

/** Options shared by the workflow agents. */
export interface WorkflowAgentOptions extends BaseAgentConfig {
  subAgents: readonly Agent[];
}

/**
 * What sequential, parallel and loop agents share: a name, children in a
 * fixed order, and no model of their own. Each decides only the order in
 * which its children run.
 */
export abstract class WorkflowAgent extends BaseAgent {
  /** The options one of toolsmith's own workflow agents takes; a subclass of yours may take more, and is not checked. */
  protected static readonly ownOptions?: readonly string[];

  constructor(options: WorkflowAgentOptions) {
    refuseNonObjectOptions(new.target.name, options, () => `new ${new.target.name}({ name: "steps", subAgents: [first, second] })`);
    const ownClass = new.target as unknown as { ownOptions?: readonly string[]; agentKind?: string };
    if (Object.hasOwn(ownClass, "ownOptions")) refuseUnhonouredOptions(`${ownClass.agentKind ?? "Agent"} "${options.name}"`, options, ownClass.ownOptions!);
    super(options);
  }
}

/** What every agent takes (ADK's `BaseAgentConfig`). */
export const BASE_AGENT_OPTIONS = ["name", "description", "subAgents", "beforeAgentCallback", "afterAgentCallback", "parentAgent"] as const;
