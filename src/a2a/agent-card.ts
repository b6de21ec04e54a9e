import { readFile } from "node:fs/promises";
import type { AgentCard, AgentInterface, AgentSkill } from "@a2a-js/sdk";
import type { Agent } from "../agents/agent.js";
import { createInvocationContext } from "../agents/invocation-context.js";
import { ReadonlyContext } from "../agents/readonly-context.js";
import { ConfigurationError, ToolsmithError } from "../errors/toolsmith-error.js";
import { logger } from "../logging/logger.js";
import { LlmAgent } from "../llm-agent/llm-agent.js";
import { InMemorySessionService } from "../sessions/in-memory-session-service.js";
import { isToolset, type Tool } from "../tools/tool.js";
import { isWorkflow } from "../workflow/workflow.js";
import { loadA2AClient } from "./load-sdk.js";
import { isLlmAgent, isLoopAgent, isParallelAgent, isSequentialAgent } from "../llm-agent/agent-kinds.js";

/**
 * The card of a remote agent: the card itself, read from a URL, or read from a JSON file. A URL whose path ends in
 * `.json` is the card's own address; any other URL is the agent's base, under which `.well-known/agent-card.json`
 * is read (ADK reads every URL as a base, so a card's own URL there gains a second `.well-known/…`).
 */
export async function resolveAgentCard(agentCard: AgentCard | string): Promise<AgentCard> {
  return checkedCard(await readAgentCard(agentCard), typeof agentCard === "string" ? agentCard : "the agentCard option");
}

/** The fields of an A2A 0.3 card, each with the type it must have. */
const CARD_FIELDS: ReadonlyArray<[keyof AgentCard, "string" | "object" | "array"]> = [
  ["name", "string"],
  ["description", "string"],
  ["url", "string"],
  ["version", "string"],
  ["protocolVersion", "string"],
  ["capabilities", "object"],
  ["defaultInputModes", "array"],
  ["defaultOutputModes", "array"],
  ["skills", "array"],
];

/**
 * The card, once every field A2A 0.3 requires is there with its type: a card missing one would fail later, deep in
 * `@a2a-js/sdk`, with a `TypeError` that names none of it.
 */
function checkedCard(card: unknown, source: string): AgentCard {
  if (typeof card !== "object" || card === null || Array.isArray(card)) throw new ConfigurationError("INVALID_A2A_AGENT", `The agent card from ${source} is not an object.`);
  const record = card as Record<string, unknown>;
  const wrong = CARD_FIELDS.filter(([field, type]) => (type === "array" ? !Array.isArray(record[field]) : typeof record[field] !== type || record[field] === null));
  if (wrong.length > 0) {
    throw new ConfigurationError(
      "INVALID_A2A_AGENT",
      `The agent card from ${source} lacks ${wrong.map(([field, type]) => `${String(field)} (${type === "array" ? "a list" : `a${type === "object" ? "n" : ""} ${type}`})`).join(", ")}, which an A2A 0.3 card has. Make it with getA2AAgentCard, or add them.`,
    );
  }
  return card as AgentCard;
}

async function readAgentCard(agentCard: AgentCard | string): Promise<unknown> {
  if (typeof agentCard === "object") return agentCard;
  if (/^https?:\/\//i.test(agentCard)) {
    const { DefaultAgentCardResolver } = await loadA2AClient();
    const url = new URL(agentCard);
    const ownAddress = url.pathname.endsWith(".json");
    if (!ownAddress && !url.pathname.endsWith("/")) url.pathname += "/";
    try {
      return await new DefaultAgentCardResolver().resolve(url.href, ownAddress ? "" : undefined);
    } catch (error) {
      throw new ToolsmithError("A2A_REQUEST_FAILED", `The agent card at ${agentCard} could not be read: ${(error as Error).message}. Check that the remote agent is running and the URL is its base URL or its card's URL.`, { cause: error });
    }
  }
  let text: string;
  try {
    text = await readFile(agentCard, "utf8");
  } catch (error) {
    throw new ConfigurationError("INVALID_A2A_AGENT", `The agent card file ${agentCard} could not be read: ${(error as Error).message}. Give the card, its URL (http:// or https://) or the path of its JSON file.`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigurationError("INVALID_A2A_AGENT", `The agent card file ${agentCard} is not JSON: ${(error as Error).message}.`, { cause: error });
  }
}

/**
 * The A2A card of an agent, as ADK's `getA2AAgentCard` makes it: its name and description, skills built from the
 * agent (its instruction with "you" turned to "I", each tool, each sub-agent's skills), streaming on, and the
 * transports it is served on (the first is the card's `url` and preferred transport).
 */
export async function getA2AAgentCard(agent: Agent, transports: AgentInterface[]): Promise<AgentCard> {
  if (transports.length === 0) throw new ConfigurationError("INVALID_A2A_AGENT", "getA2AAgentCard needs at least one transport ({ url, transport }) the agent is served on.");
  return {
    name: agent.name,
    description: agent.description || "",
    protocolVersion: "0.3.0",
    version: "1.0.0",
    skills: await buildAgentSkills(agent),
    url: transports[0]!.url,
    preferredTransport: transports[0]!.transport,
    capabilities: { extensions: [], stateTransitionHistory: false, pushNotifications: false, streaming: true },
    defaultInputModes: ["text"],
    defaultOutputModes: ["text"],
    additionalInterfaces: transports,
  };
}

/** The skills of an agent's card: its own, then each sub-agent's, named and tagged as ADK does. */
export async function buildAgentSkills(agent: Agent): Promise<AgentSkill[]> {
  const own = await primarySkills(agent);
  const children: AgentSkill[] = [];
  for (const sub of isWorkflow(agent) ? [] : agent.subAgents) {
    for (const skill of await primarySkills(sub)) {
      children.push({ id: `${sub.name}_${skill.id}`, name: `${sub.name}: ${skill.name}`, description: skill.description, tags: [`sub_agent:${sub.name}`, ...skill.tags] });
    }
  }
  return [...own, ...children];
}

async function primarySkills(agent: Agent): Promise<AgentSkill[]> {
  if (isWorkflow(agent)) return [{ id: agent.name, name: "workflow", description: agent.description || `Workflow ${agent.name}`, tags: ["workflow"] }];
  if (isLlmAgent(agent)) return llmAgentSkills(agent);
  const skills: AgentSkill[] = [{ id: agent.name, name: skillName(agent), description: agentDescription(agent), tags: [typeTag(agent)] }];
  if (agent.subAgents.length > 0) {
    const descriptions = agent.subAgents.map((sub) => sub.description || "No description");
    skills.push({ id: `${agent.name}-sub-agents`, name: "sub-agents", description: `Orchestrates: ${descriptions.join("; ")}`, tags: [typeTag(agent), "orchestration"] });
  }
  return skills;
}

async function llmAgentSkills(agent: LlmAgent): Promise<AgentSkill[]> {
  const context = cardContext(agent);
  const skills: AgentSkill[] = [{ id: agent.name, name: "model", description: await instructionDescription(agent, context), tags: ["llm"] }];
  for (const entry of agent.tools) {
    let tools: Tool[];
    try {
      tools = isToolset(entry) ? await entry.getTools(context) : [entry];
    } catch (error) {
      logger.warn(`The agent card of "${agent.name}" leaves out a toolset whose tools could not be listed: ${(error as Error).message}`);
      continue;
    }
    for (const tool of tools) skills.push({ id: `${agent.name}-${tool.name}`, name: tool.name, description: tool.description || `Tool: ${tool.name}`, tags: ["llm", "tools"] });
  }
  return skills;
}

/** A context with an empty session, for the instruction providers and toolsets a card is built from, as ADK's. */
function cardContext(agent: Agent): ReadonlyContext {
  const session = { id: "", appName: "", userId: "", state: {}, events: [], lastUpdateTime: 0 };
  return new ReadonlyContext(createInvocationContext({ agent, session, sessionService: new InMemorySessionService() }));
}

async function instructionDescription(agent: LlmAgent, context: ReadonlyContext): Promise<string> {
  const parts: string[] = [];
  if (agent.description) parts.push(agent.description);
  let instruction = "";
  try {
    instruction = typeof agent.instruction === "function" ? await agent.instruction(context) : (agent.instruction ?? "");
  } catch (error) {
    logger.warn(`The agent card of "${agent.name}" leaves out its instruction, whose provider failed: ${(error as Error).message}`);
  }
  if (instruction) parts.push(firstPerson(instruction));
  return parts.length > 0 ? parts.join(" ") : defaultDescription(agent);
}

/** An instruction as the agent's own words: "you are" becomes "I am", as ADK rewrites it for the card. */
function firstPerson(instruction: string): string {
  const substitutions: Array<[string, string]> = [["you were", "I was"], ["you are", "I am"], ["you're", "I am"], ["you've", "I have"], ["yours", "mine"], ["your", "my"], ["you", "I"]];
  let result = instruction;
  for (const [original, target] of substitutions) result = result.replace(new RegExp(`\\b${original}\\b`, "gi"), target);
  return result;
}

function agentDescription(agent: Agent): string {
  const parts: string[] = [];
  if (agent.description) parts.push(agent.description);
  if (agent.subAgents.length > 0) {
    if (isLoopAgent(agent)) parts.push(`${listed(agent.subAgents, "This agent will", ", ")} in a loop (max ${agent.maxIterations < Number.MAX_SAFE_INTEGER ? agent.maxIterations : "unlimited"} iterations).`);
    else if (isParallelAgent(agent)) parts.push(`${listed(agent.subAgents, "This agent will", ", ")} simultaneously.`);
    else if (isSequentialAgent(agent)) parts.push(sequence(agent.subAgents));
  }
  return parts.length > 0 ? parts.join(" ") : defaultDescription(agent);
}

const doing = (sub: Agent) => sub.description || `execute the ${sub.name} agent`;

/** ADK's wording for a loop's and a parallel agent's children: "This agent will a , b and c". */
function listed(subAgents: readonly Agent[], opening: string, middle: string): string {
  return subAgents.map((sub, index) => (index === 0 ? `${opening} ${doing(sub)}` : index === subAgents.length - 1 ? `and ${doing(sub)}` : `${middle}${doing(sub)}`)).join(" ");
}

function sequence(subAgents: readonly Agent[]): string {
  return subAgents
    .map((sub, index) => (index === 0 ? `First, this agent will ${doing(sub)}.` : index === subAgents.length - 1 ? `Finally, this agent will ${doing(sub)}.` : `Then, this agent will ${doing(sub)}.`))
    .join(" ");
}

/** ADK's default description and tag of each kind of agent, the first that matches. */
const AGENT_KINDS: ReadonlyArray<{ is: (agent: Agent) => boolean; description: string; tag: string }> = [
  { is: isLoopAgent, description: "A loop workflow agent", tag: "loop_workflow" },
  { is: isSequentialAgent, description: "A sequential workflow agent", tag: "sequential_workflow" },
  { is: isParallelAgent, description: "A parallel workflow agent", tag: "parallel_workflow" },
  { is: isLlmAgent, description: "An LLM-based agent", tag: "llm_agent" },
  { is: () => true, description: "A custom agent", tag: "custom_agent" },
];

const kindOf = (agent: Agent) => AGENT_KINDS.find((kind) => kind.is(agent))!;
const defaultDescription = (agent: Agent) => kindOf(agent).description;
const typeTag = (agent: Agent) => kindOf(agent).tag;

function skillName(agent: Agent): string {
  if (isLlmAgent(agent)) return "model";
  if (isLoopAgent(agent) || isSequentialAgent(agent) || isParallelAgent(agent) || isWorkflow(agent)) return "workflow";
  return "custom";
}
