import { agentsOfWorkflow, isWorkflow } from "../workflow/workflow.js";
import type { Agent } from "../agents/agent.js";
import type { Model } from "../models/model.js";
import { findModelProvider, unknownModelMessage } from "../models/model-registry.js";
import type { AppRegistry } from "./app-registry.js";
import { isLlmAgent } from "./describe-tools.js";
import { isVariableSet } from "./model-credentials.js";

/** One model an app's agents use, and what it needs from the environment. */
export interface ModelRequirement {
  /** The name the agents give, or the `name` of a Model instance. */
  model: string;
  /**
   * How the model is made: an `instance` the app built itself (it needs
   * nothing more), a `builtin` family, a `registered` provider (whose needs
   * toolsmith cannot know), or a name no provider recognises (`unknown`).
   */
  source: "instance" | "builtin" | "registered" | "unknown";
  /** The agents that use it, their own or inherited from an ancestor. */
  agents: string[];
  /** Set one of these environment variables; empty when the model needs none. */
  oneOf: string[];
  /** Whether the model can be made as things are: nothing to set, one of `oneOf` is set, or its family is set up otherwise (Gemini on Vertex AI). */
  ready: boolean;
}

/** What an app's models need from the environment: names only, never values. */
export interface AppModelRequirements {
  app: string;
  models: ModelRequirement[];
  /** What a person must do before the app can answer, one sentence each; empty when it runs as it is. */
  warnings: string[];
}

/**
 * Which environment variables the models of an app's agents need, and
 * whether they are set. Walks the root agent, its sub-agents and the agents
 * behind AgentTools (agents inside toolsets are not reached: resolving a
 * toolset may connect to a server). A model given as an instance, such as a
 * `ScriptedModel`, needs nothing: it was made when the app loaded.
 *
 * @example
 * ```ts
 * const requirements = modelRequirements({ app: "weather", root: await registry.agent("weather") });
 * for (const warning of requirements.warnings) console.warn(warning); // "weather needs GOOGLE_API_KEY or GEMINI_API_KEY or GOOGLE_GENAI_API_KEY (or, for Vertex AI, …) for gemini-2.5-flash: …"
 * ```
 */
export function modelRequirements(options: { app: string; root: Agent; environment?: NodeJS.ProcessEnv }): AppModelRequirements {
  const { app, environment = process.env } = options;
  const models = new Map<string, ModelRequirement>();
  const warnings: string[] = [];
  for (const agent of reachableAgents(options.root)) {
    if (!isLlmAgent(agent)) continue;
    const model = modelOf(agent);
    if (model === undefined) {
      warnings.push(`${app}: agent "${agent.name}" has no model and no ancestor with one: pass model to new LlmAgent({ … }).`);
      continue;
    }
    const requirement = describeModel(model, environment);
    const key = `${requirement.source}:${requirement.model}`;
    const known = models.get(key);
    if (known) known.agents.push(agent.name);
    else models.set(key, { ...requirement, agents: [agent.name] });
  }
  // Models that need the same variables share one sentence.
  const missing = new Map<string, { oneOf: string[]; models: string[] }>();
  for (const requirement of models.values()) {
    if (requirement.source === "unknown") warnings.push(`${app}: ${unknownModelMessage(requirement.model)}`);
    if (requirement.ready || requirement.oneOf.length === 0) continue;
    const group = missing.get(requirement.oneOf.join()) ?? { oneOf: requirement.oneOf, models: [] };
    group.models.push(requirement.model);
    missing.set(requirement.oneOf.join(), group);
  }
  for (const { oneOf, models: names } of missing.values()) {
    // Environment variables are read when a model is first made, so a running server needs a restart.
    const alternative = findModelProvider(names[0]!)?.alternative;
    warnings.push(`${app} needs ${oneOf.join(" or ")}${alternative ? ` (${alternative.describe})` : ""} for ${names.join(", ")}: set ${oneOf.length > 1 ? "one" : "it"} and restart toolsmith.`);
  }
  return { app, models: [...models.values()], warnings };
}

/**
 * The warnings of every app the registry serves, for a server's startup
 * note. Apps that fail to load are skipped: opening one shows why.
 */
export async function modelWarnings(options: { registry: AppRegistry; environment?: NodeJS.ProcessEnv }): Promise<string[]> {
  const warnings: string[] = [];
  for (const app of options.registry.listApps()) {
    const root = await options.registry.agent(app).catch(() => undefined);
    if (root) warnings.push(...modelRequirements({ app, root, environment: options.environment }).warnings);
  }
  return warnings;
}

function describeModel(model: Model | string, environment: NodeJS.ProcessEnv): Omit<ModelRequirement, "agents"> {
  if (typeof model !== "string") return { model: model.name, source: "instance", oneOf: [], ready: true };
  const provider = findModelProvider(model);
  if (!provider) return { model, source: "unknown", oneOf: [], ready: false };
  if (!provider.requiredEnvironment) return { model, source: "registered", oneOf: [], ready: true };
  const oneOf = [...provider.requiredEnvironment];
  return { model, source: "builtin", oneOf, ready: oneOf.length === 0 || oneOf.some((name) => isVariableSet(name, environment)) || (provider.alternative?.isConfigured(environment) ?? false) };
}

/** The model an LLM agent runs with, found the way `LlmAgent.canonicalModel` finds it, without making it. */
function modelOf(agent: Agent): Model | string | undefined {
  for (let current: Agent | undefined = agent; current; current = current.parentAgent) {
    const model = isLlmAgent(current) ? current.model : undefined;
    if (model !== undefined) return model;
  }
  return undefined;
}

/** The tree's agents, the agents its AgentTools run and its graph workflows run as nodes, each once. */
function reachableAgents(root: Agent): Agent[] {
  const seen = new Set<Agent>();
  const visit = (agent: Agent): void => {
    if (seen.has(agent)) return;
    seen.add(agent);
    for (const child of agent.subAgents) visit(child);
    if (isWorkflow(agent)) for (const nodeAgent of agentsOfWorkflow(agent)) visit(nodeAgent);
    const tools: readonly unknown[] = isLlmAgent(agent) ? agent.tools : [];
    for (const tool of tools) {
      // An AgentTool, checked by shape like isLlmAgent.
      const toolAgent = (tool as { agent?: Agent }).agent;
      if (toolAgent && typeof toolAgent.runAsync === "function") visit(toolAgent);
    }
  };
  visit(root);
  return [...seen];
}
