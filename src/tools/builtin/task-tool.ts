import { LlmAgent } from "../../llm-agent/llm-agent.js";
import { ConfigurationError } from "../../errors/toolsmith-error.js";
import type { Model } from "../../models/model.js";
import { AgentTool } from "../agent-tool.js";
import { FunctionTool } from "../function-tool.js";
import type { Tool, ToolUnion } from "../tool.js";
import type { ToolContext } from "../tool-context.js";
import { errorResult } from "./tool-status.js";

/** A sub-agent the main agent can hand a task to. */
export interface SubAgentSpec {
  /** What the model passes as `subagent_type`, such as `"researcher"`. */
  name: string;
  /** When to use it; shown to the model in the `task` tool's description. */
  description: string;
  /** Its instruction. */
  systemPrompt: string;
  /** Its tools; default the filesystem and todo tools (and `execute` when configured). */
  tools?: readonly ToolUnion[];
  /** Default the main agent's model. */
  model?: Model | string;
}

/** Options of {@link createTaskTool}. */
export interface TaskToolOptions {
  subagents: readonly SubAgentSpec[];
  /** The model of sub-agents that name none. */
  model: Model | string;
  /** Tools of sub-agents that name none. */
  defaultTools: readonly ToolUnion[];
  /** Tools of the general-purpose sub-agent (the main agent's, usually); default `defaultTools`. */
  generalPurposeTools?: readonly ToolUnion[];
  /** How deep sub-agents may nest (a sub-agent calling `task` is depth 2); default 2. */
  maxDepth?: number;
}

/** The name of the sub-agent that is always there unless one is defined with this name. */
export const GENERAL_PURPOSE = "general-purpose";

const GENERAL_PURPOSE_PROMPT =
  "You are a general-purpose assistant working on one task handed to you by another agent. You see only the task, not the conversation before it. Use your tools to do it thoroughly, then answer with a complete, self-contained final report: it is all the other agent will see.";

/**
 * `task(description, subagent_type)`: runs a sub-agent on a task with none of
 * the caller's history and returns its final answer. Built on {@link AgentTool},
 * so each call runs in its own branch of the session, and several calls in one
 * model response run in parallel. Nesting deeper than `maxDepth` is refused
 * with an error result telling the agent to do the work itself.
 */
export function createTaskTool(options: TaskToolOptions): Tool {
  const maxDepth = options.maxDepth ?? 2;
  const specs = [...options.subagents];
  if (!specs.some((spec) => spec.name === GENERAL_PURPOSE)) {
    specs.push({ name: GENERAL_PURPOSE, description: "A general-purpose agent for research and multi-step tasks, with the same tools as you. Use it to work on a self-contained part of the job in a clean context.", systemPrompt: GENERAL_PURPOSE_PROMPT });
  }
  const agentTools = new Map<string, AgentTool>();
  const agentNames = new Set<string>();
  const tool = new FunctionTool({
    name: "task",
    description:
      `Hands a self-contained task to a sub-agent, which works on it with its own tools and none of this conversation, and returns its final report. ` +
      `Call several in one response to run them in parallel. Give the full task and what to report back in description.\nAvailable subagent_type values:\n` +
      specs.map((spec) => `- ${spec.name}: ${spec.description}`).join("\n"),
    parameters: {
      type: "object",
      properties: {
        description: { type: "string", description: "The task in full: the sub-agent sees nothing else." },
        subagent_type: { type: "string", enum: specs.map((spec) => spec.name) },
      },
      required: ["description", "subagent_type"],
    },
    execute: async (args, context: ToolContext) => {
      const agentTool = agentTools.get(String(args.subagent_type));
      if (!agentTool) return errorResult(`There is no sub-agent "${String(args.subagent_type)}". Use one of: ${specs.map((spec) => spec.name).join(", ")}.`);
      const depth = (context.invocationContext.branch?.match(/@/g) ?? []).length + 1;
      if (depth > maxDepth) {
        return errorResult(`Sub-agents may nest at most ${maxDepth} deep, and this task would be ${depth} deep. Do this task yourself with your own tools.`, { code: "MAX_DEPTH" });
      }
      const answer = await agentTool.run({ request: String(args.description) }, context);
      if (context.pausedForClient) return answer;
      return { status: "success", result: answer };
    },
  });
  for (const spec of specs) {
    const agentName = spec.name.replace(/[^A-Za-z0-9_]/g, "_").replace(/^(?=\d)/, "_");
    if (agentNames.has(agentName)) throw new ConfigurationError("DUPLICATE_SUBAGENT", `Two sub-agents are named ${JSON.stringify(spec.name)} (or differ only in punctuation). Give each a distinct name.`);
    agentNames.add(agentName);
    const tools = spec.tools ?? (spec.name === GENERAL_PURPOSE ? (options.generalPurposeTools ?? options.defaultTools) : options.defaultTools);
    const agent = new LlmAgent({ name: agentName, description: spec.description, instruction: () => spec.systemPrompt, model: spec.model ?? options.model, tools });
    agentTools.set(spec.name, new AgentTool({ agent }));
  }
  return tool;
}
