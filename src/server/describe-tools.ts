import { allAgents, type Agent } from "../agents/agent.js";
import { createInvocationContext } from "../agents/invocation-context.js";
import type { LlmAgent } from "../llm-agent/llm-agent.js";
import { ReadonlyContext } from "../agents/readonly-context.js";
import { InMemorySessionService } from "../sessions/in-memory-session-service.js";
import type { Session } from "../sessions/session.js";
import { resolveTools } from "../tools/resolve-tools.js";
import type { JsonSchema, Tool } from "../tools/tool.js";

/** One tool of an app, as the model would see it. */
export interface ToolDescription {
  /** The agent that offers the tool. */
  agent: string;
  name: string;
  description: string;
  /** JSON Schema of the arguments; absent for a tool without parameters. */
  parameters?: JsonSchema;
  isLongRunning: boolean;
  /** False for a tool hidden from the model (one that only changes requests). */
  declared: boolean;
}

/** Whether an agent of the tree drives a model with tools; checked by shape, so agents from another copy of toolsmith count too. */
export function isLlmAgent(agent: Agent): agent is LlmAgent {
  return Array.isArray((agent as LlmAgent).tools) && typeof (agent as LlmAgent).canonicalModel === "function";
}

/**
 * Every tool of every LLM agent in the tree, toolsets resolved against the
 * given session (or an empty one that is not stored).
 */
export async function describeTools(options: { root: Agent; session?: Session }): Promise<ToolDescription[]> {
  const descriptions: ToolDescription[] = [];
  for (const agent of allAgents(options.root)) {
    if (!isLlmAgent(agent)) continue;
    for (const tool of await toolsOf(agent, options.session)) {
      const declaration = tool.declaration();
      descriptions.push({
        agent: agent.name,
        name: tool.name,
        description: declaration?.description ?? tool.description,
        ...(declaration?.parameters ? { parameters: declaration.parameters } : {}),
        isLongRunning: tool.isLongRunning ?? false,
        declared: declaration !== undefined,
      });
    }
  }
  return descriptions;
}

/** The agent's tools, toolsets resolved against the session. */
export async function toolsOf(agent: LlmAgent, session: Session = emptySession(agent.name)): Promise<Tool[]> {
  const context = createInvocationContext({ invocationId: "describe-tools", agent, session, sessionService: new InMemorySessionService() });
  return resolveTools(agent.tools, new ReadonlyContext(context), agent.name);
}

function emptySession(appName: string): Session {
  return { id: "", appName, userId: "", state: {}, events: [], lastUpdateTime: 0 };
}
