import type { Agent } from "./agent.js";
import { BaseAgent, type BaseAgentConfig } from "./base-agent.js";

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
  constructor(options: WorkflowAgentOptions) {
    super(options);
  }
}
