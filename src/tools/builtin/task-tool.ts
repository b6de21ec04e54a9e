import { LlmAgent } from "../../llm-agent/llm-agent.js";
import { agentToolDepth } from "../../agents/branch.js";
import { ConfigurationError } from "../../errors/toolsmith-error.js";
import type { Agent } from "../../agents/agent.js";
import type { Model } from "../../models/model.js";
import { AgentTool } from "../agent-tool.js";
import { FunctionTool } from "../function-tool.js";
import type { Tool, ToolUnion } from "../tool.js";
import type { ToolContext } from "../tool-context.js";
import { mapToolUnions } from "../toolset-wrappers.js";
import { loadSkillSources, type SkillSource } from "../skills/load-skills.js";
import type { ScriptRunner } from "../skills/script-runner.js";
import { SkillToolset } from "../skills/skill-toolset.js";
import { forwardTool } from "../forward-tool.js";
import { applyInterruptOnToAll, type InterruptOn } from "./interrupt-on.js";
import { errorResult } from "./tool-status.js";

/** A sub-agent the main agent can hand a task to (seed 002's `SubAgentSpec`). */
export interface SubAgentSpec {
  /** Its name: the name of its agent tool (or the `subagent_type` of the `task` tool), such as `"researcher"`. */
  name: string;
  /** When to use it; shown to the model as the tool's description. */
  description: string;
  /** Its instruction; default a general one telling it to work alone and report back in full. */
  systemPrompt?: string;
  /** Its tools; default the filesystem and todo tools (and `execute` when configured). */
  tools?: readonly ToolUnion[];
  /** Default the main agent's model. */
  model?: Model | string;
  /**
   * Skills it can load on demand (seed 002's `skills`): skill folders, folders
   * of skill folders, `.zip` files, or skills loaded already. They are loaded
   * when the agent is made, and offered through a {@link SkillToolset}.
   */
  skills?: readonly SkillSource[];
  /**
   * Its own approval rules (seed 002's `interrupt_on`): tool name → ask a
   * person first, for the tools of this sub-agent. They add to the main
   * agent's rules, which still hold for the tools it inherits.
   */
  interruptOn?: InterruptOn;
}

/** Options of {@link createSubAgentTools} and {@link createTaskTool}. */
export interface TaskToolOptions {
  /** Specs, or agents made already (an `LlmAgent`), which are used as they are. */
  subagents: ReadonlyArray<SubAgentSpec | Agent>;
  /** The model of sub-agents that name none. */
  model: Model | string;
  /** Tools of sub-agents that name none. */
  defaultTools: readonly ToolUnion[];
  /** Tools of the general-purpose sub-agent (the main agent's, usually); default `defaultTools`. */
  generalPurposeTools?: readonly ToolUnion[];
  /** How deep sub-agents may nest (a sub-agent calling one is depth 2); default 2. */
  maxDepth?: number;
  /** Runs the scripts of sub-agents' skills; without it they get no `run_skill_script`. */
  runScript?: ScriptRunner;
  /** Applied to each tool of a sub-agent's skills, as to the tools it is given (the deep agent's approval rules and result offloading). */
  prepareTool?: (tool: Tool) => Tool;
}

/** Seed 002's name of the sub-agent that is always there unless a spec of that name replaces it. */
export const GENERAL_PURPOSE = "general_purpose";

/** The same sub-agent's name in the `task` tool, as LangChain's deepagents spells it. */
export const TASK_GENERAL_PURPOSE = "general-purpose";

const GENERAL_PURPOSE_DESCRIPTION = "A general-purpose agent for research and multi-step tasks, with the same tools as you. Use it to work on a self-contained part of the job in a clean context.";

const SUBAGENT_PROMPT =
  "You are a general-purpose assistant working on one task handed to you by another agent. You see only the task, not the conversation before it. Use your tools to do it thoroughly, then answer with a complete, self-contained final report: it is all the other agent will see.";

/**
 * The sub-agents as seed 002 has them: each becomes an {@link AgentTool} named
 * after it and taking ADK's `request`, plus `general_purpose` (the main
 * agent's tools) unless a spec of that name replaces it. Each call runs in its
 * own branch of the session with none of the caller's history; several calls
 * in one response run in parallel. Nesting deeper than `maxDepth` is refused
 * with an error result telling the agent to do the work itself.
 */
export function createSubAgentTools(options: TaskToolOptions): Tool[] {
  return buildSubAgents(options, GENERAL_PURPOSE).map(({ agentTool }) => withDepthLimit(agentTool, options.maxDepth ?? 2));
}

/**
 * `task(description, subagent_type)`: the same sub-agents behind one tool, as
 * LangChain's deepagents offers them (the general one is `general-purpose`
 * there). Runs the chosen sub-agent with the description as its request.
 */
export function createTaskTool(options: TaskToolOptions): Tool {
  const maxDepth = options.maxDepth ?? 2;
  const subagents = buildSubAgents(options, TASK_GENERAL_PURPOSE);
  const byName = new Map(subagents.map((subagent) => [subagent.name, subagent.agentTool]));
  return new FunctionTool({
    name: "task",
    description:
      `Hands a self-contained task to a sub-agent, which works on it with its own tools and none of this conversation, and returns its final report. ` +
      `Call several in one response to run them in parallel. Give the full task and what to report back in description.\nAvailable subagent_type values:\n` +
      subagents.map((subagent) => `- ${subagent.name}: ${subagent.description}`).join("\n"),
    parameters: {
      type: "object",
      properties: {
        description: { type: "string", description: "The task in full: the sub-agent sees nothing else." },
        subagent_type: { type: "string", enum: subagents.map((subagent) => subagent.name) },
      },
      required: ["description", "subagent_type"],
    },
    execute: async (args, context: ToolContext) => {
      const agentTool = byName.get(String(args.subagent_type));
      if (!agentTool) return errorResult(`There is no sub-agent "${String(args.subagent_type)}". Use one of: ${[...byName.keys()].join(", ")}.`);
      const tooDeep = depthError(context, maxDepth);
      if (tooDeep) return tooDeep;
      const answer = await agentTool.run({ request: String(args.description) }, context);
      if (context.pausedForClient) return answer;
      return { status: "success", result: answer };
    },
  });
}

interface SubAgent {
  name: string;
  description: string;
  agentTool: AgentTool;
}

/** Each spec (or agent) as an agent tool, the general one added unless a spec takes its name. */
function buildSubAgents(options: TaskToolOptions, generalName: string): SubAgent[] {
  const entries = [...options.subagents];
  if (!entries.some((entry) => agentNameOf(entry.name) === agentNameOf(generalName))) entries.push({ name: generalName, description: GENERAL_PURPOSE_DESCRIPTION });
  const agentNames = new Set<string>();
  return entries.map((entry) => {
    const agent = isAgent(entry) ? entry : specAgent(entry, agentNameOf(entry.name) === agentNameOf(generalName), options);
    if (agentNames.has(agent.name)) throw new ConfigurationError("DUPLICATE_SUBAGENT", `Two sub-agents are named ${JSON.stringify(entry.name)} (or differ only in punctuation). Give each a distinct name.`);
    agentNames.add(agent.name);
    return { name: entry.name, description: entry.description || agent.description, agentTool: new AgentTool({ agent }) };
  });
}

const SPEC_KEYS = new Set(["name", "description", "systemPrompt", "tools", "model", "skills", "interruptOn"]);

/** What to say for seed 002's spec keys toolsmith does not take (yet), and for Python spellings. */
const UNSUPPORTED_SPEC_KEYS: Record<string, string> = {
  interrupt_on: "write interruptOn (camelCase)",
  system_prompt: "write systemPrompt (camelCase)",
};

function specAgent(spec: SubAgentSpec, general: boolean, options: TaskToolOptions): LlmAgent {
  for (const key of Object.keys(spec)) {
    if (SPEC_KEYS.has(key) || (spec as unknown as Record<string, unknown>)[key] === undefined) continue;
    const why = UNSUPPORTED_SPEC_KEYS[key] ?? "it is not a SubAgentSpec field (name, description, systemPrompt, tools, model, skills, interruptOn)";
    throw new ConfigurationError("UNSUPPORTED_OPTION", `Sub-agent ${JSON.stringify(spec.name)}: the option ${key} is not supported: ${why}.`);
  }
  const given = spec.tools ?? (general ? (options.generalPurposeTools ?? options.defaultTools) : options.defaultTools);
  const skills = spec.skills?.length ? [new SkillToolset(loadSkillSources(spec.skills), { runScript: options.runScript })] : [];
  const tools = applyInterruptOnToAll([...given, ...mapToolUnions(skills, options.prepareTool ?? ((tool) => tool))], spec.interruptOn);
  const prompt = spec.systemPrompt ?? SUBAGENT_PROMPT;
  return new LlmAgent({ name: agentNameOf(spec.name), description: spec.description, instruction: () => prompt, model: spec.model ?? options.model, tools });
}

/** A sub-agent's agent name: tool and agent names must be identifiers, so "general-purpose" becomes general_purpose. */
function agentNameOf(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, "_").replace(/^(?=\d)/, "_");
}

function isAgent(entry: SubAgentSpec | Agent): entry is Agent {
  return typeof (entry as Agent).runAsync === "function";
}

/** The agent tool, refusing to run deeper than `maxDepth` sub-agents. */
function withDepthLimit(agentTool: AgentTool, maxDepth: number): Tool {
  return forwardTool(agentTool, { run: async (args, context) => depthError(context, maxDepth) ?? agentTool.run(args, context) });
}

/** An error result when one more sub-agent would nest deeper than allowed. */
function depthError(context: ToolContext, maxDepth: number): Record<string, unknown> | undefined {
  const depth = agentToolDepth(context.invocationContext.branch) + 1;
  if (depth <= maxDepth) return undefined;
  return errorResult(`Sub-agents may nest at most ${maxDepth} deep, and this task would be ${depth} deep. Do this task yourself with your own tools.`, { code: "MAX_DEPTH" });
}
