import type { Agent } from "../agents/agent.js";
import type { LlmAgentSettings } from "./llm-agent-settings.js";
import { FunctionTool } from "../tools/function-tool.js";
import type { Tool } from "../tools/tool.js";

/** The name of the tool an agent calls to hand the conversation to another agent. */
export const TRANSFER_TOOL_NAME = "transfer_to_agent";

/**
 * The agents `agent` may hand over to: its sub-agents, its parent (unless
 * `disallowTransferToParent`) and its peers (unless `disallowTransferToPeers`;
 * peers only under an LLM agent, since a workflow agent decides its own order).
 */
export function transferTargets(agent: LlmAgentSettings): Agent[] {
  const targets: Agent[] = [...agent.subAgents];
  const parent = agent.parentAgent;
  if (parent && isLlmAgentLike(parent)) {
    if (!agent.disallowTransferToParent) targets.push(parent);
    if (!agent.disallowTransferToPeers) targets.push(...parent.subAgents.filter((peer) => peer !== agent));
  }
  return targets;
}

function isLlmAgentLike(agent: Agent): boolean {
  return "canonicalModel" in agent;
}

const cache = new WeakMap<LlmAgentSettings, { tool: Tool; instruction: string } | null>();

/**
 * The `transfer_to_agent` tool for this agent (its argument an enum of the
 * allowed targets, so a wrong name comes back to the model as a fixable error)
 * and the instruction that lists the targets; `undefined` when there are none.
 */
export function transferToolFor(agent: LlmAgentSettings): { tool: Tool; instruction: string } | undefined {
  let entry = cache.get(agent);
  if (entry === undefined) {
    const targets = transferTargets(agent);
    entry =
      targets.length === 0
        ? null
        : {
            tool: new FunctionTool({
              name: TRANSFER_TOOL_NAME,
              description: "Transfers the conversation to another agent that is better suited to answer. Call it alone, with no other tool call.",
              parameters: {
                type: "object",
                properties: { agent_name: { type: "string", enum: targets.map((target) => target.name), description: "The agent to hand over to." } },
                required: ["agent_name"],
              },
              execute: ({ agent_name }, context) => {
                context.actions.transferToAgent = agent_name as string;
                return { status: "success", transferred_to: agent_name };
              },
            }),
            instruction: [
              "Other agents can take over when they fit the user's request better:",
              ...targets.map((target) => `- ${target.name}: ${target.description || "(no description)"}`),
              `To hand over, call ${TRANSFER_TOOL_NAME} with the agent's name. If you can answer yourself, answer.`,
            ].join("\n"),
          };
    cache.set(agent, entry);
  }
  return entry ?? undefined;
}
