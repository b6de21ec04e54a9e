import { ConfigurationError, ToolsmithError, type ToolsmithErrorCode } from "../errors/toolsmith-error.js";
import type { Event } from "../events/event.js";
import { runWithRouting, type Attempt, type Router } from "../models/routing.js";
import type { Agent } from "./agent.js";
import { BaseAgent, isBaseAgent, type BaseAgentConfig } from "./base-agent.js";
import type { InvocationContext } from "./invocation-context.js";
import { BASE_AGENT_OPTIONS } from "./workflow-agent.js";
import { refuseUnhonouredOptions } from "../errors/unhonoured-option.js";

const ROUTED_AGENT = Symbol.for("google.adk.routedAgent");

/** Picks the agent to run (ADK's `AgentRouter`); called again with the failure when the picked one failed. */
export type AgentRouter = Router<Agent, InvocationContext>;

/** Options of {@link RoutedAgent}, as ADK's `RoutedAgentConfig`. */
export interface RoutedAgentConfig extends Omit<BaseAgentConfig, "subAgents"> {
  /** The agents to route to: a list (keyed by their names) or a record of keys to agents. They become its sub-agents. */
  agents: Readonly<Record<string, Agent>> | readonly Agent[];
  /** Picks the key of the agent to run; after a failure, gets the keys tried and the error to pick another. */
  router: AgentRouter;
}

const ROUTED_AGENT_OPTIONS = [...BASE_AGENT_OPTIONS, "agents", "router"];

/**
 * An agent that hands each run to one of several, as ADK's `RoutedAgent`: `router` picks one by key, and when the
 * picked agent fails before it has produced anything (its first event is an error: the model was unreachable or
 * rate limited, a toolset could not list its tools), the router is asked again with the keys tried and the error
 * (a `ToolsmithError` with the event's code and message), to fail over to another. An agent that has produced an
 * event is not replaced: it may have acted. When the router gives up, the run ends with the last agent's error
 * event (ADK throws the error instead). The failed attempts' error events are not stored.
 *
 * @example
 * ```ts
 * const support = new RoutedAgent({
 *   name: "support",
 *   agents: [fastAgent, carefulAgent],
 *   router: (agents, context, failure) => (failure ? "careful_agent" : "fast_agent"),
 * });
 * ```
 */
export class RoutedAgent extends BaseAgent {
  readonly [ROUTED_AGENT] = true;
  readonly #agents: Readonly<Record<string, Agent>>;
  readonly #router: AgentRouter;

  constructor(config: RoutedAgentConfig) {
    const list = Array.isArray(config.agents) ? (config.agents as readonly Agent[]) : Object.values(config.agents ?? {});
    if ("subAgents" in config && ((config as BaseAgentConfig).subAgents?.length ?? 0) > 0) {
      throw new ConfigurationError("UNSUPPORTED_OPTION", `RoutedAgent "${config.name}": give the agents to route to as \`agents\`; they become its sub-agents.`);
    }
    super({ ...config, subAgents: list });
    if (new.target === RoutedAgent) refuseUnhonouredOptions(`RoutedAgent "${config.name}"`, config, ROUTED_AGENT_OPTIONS);
    if (list.length === 0) throw new ConfigurationError("INVALID_ROUTING", `RoutedAgent "${config.name}" needs at least one agent to route to.`);
    if (typeof config.router !== "function") throw new ConfigurationError("INVALID_ROUTING", `RoutedAgent "${config.name}" needs a router: a function that returns the key of the agent to run.`);
    this.#agents = Array.isArray(config.agents) ? Object.fromEntries(list.map((agent) => [agent.name, agent])) : { ...(config.agents as Record<string, Agent>) };
    this.#router = config.router;
  }

  /** A detached copy, its routing targets cloned too (keeping a record's keys), so the router picks as before. */
  override clone(overrides?: Partial<RoutedAgentConfig> & Record<string, unknown>): this {
    const agents = overrides && "agents" in overrides ? overrides.agents : cloneTargets((this.config as unknown as RoutedAgentConfig).agents);
    return super.clone({ ...overrides, agents, subAgents: [] });
  }

  protected async *runAsyncImpl(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    const held = new WeakMap<object, Event>();
    yield* runWithRouting<Agent, InvocationContext, Event>({
      items: this.#agents,
      context,
      router: this.#router,
      run: (agent) => attempt(agent, context, held),
      giveUp: async function* (error) {
        const event = typeof error === "object" && error !== null ? held.get(error) : undefined;
        if (!event) throw error;
        yield event;
      },
      noneSelected: () => new ConfigurationError("INVALID_ROUTING", `RoutedAgent "${this.name}": the router picked no agent. Return the key of one of: ${Object.keys(this.#agents).join(", ")}.`),
      unknownKey: (key) => new ConfigurationError("INVALID_ROUTING", `RoutedAgent "${this.name}": the router picked "${key}", which is none of its agents (${Object.keys(this.#agents).join(", ")}).`),
    });
  }
}

/**
 * One agent's run, its events yielded as they come; a failure before its first event (a throw, or an error event
 * as its first) is reported instead, the error event held back so the router may try another.
 */
async function* attempt(agent: Agent, context: InvocationContext, held: WeakMap<object, Event>): AsyncGenerator<Event, Attempt, undefined> {
  let produced = false;
  try {
    for await (const event of agent.runAsync(context)) {
      if (!produced && event.errorCode && !event.partial) {
        const error = new ToolsmithError(event.errorCode as ToolsmithErrorCode, event.errorMessage ?? `Agent "${agent.name}" failed with ${event.errorCode}.`);
        held.set(error, event);
        return { failed: true, error };
      }
      produced = true;
      yield event;
    }
    return { failed: false };
  } catch (error) {
    if (produced) throw error;
    return { failed: true, error };
  }
}

function cloneTargets(agents: RoutedAgentConfig["agents"]): RoutedAgentConfig["agents"] {
  const cloned = (agent: Agent) => (isBaseAgent(agent) ? agent.clone() : agent);
  return Array.isArray(agents) ? agents.map(cloned) : Object.fromEntries(Object.entries(agents).map(([key, agent]) => [key, cloned(agent)]));
}

/** Whether a value is a {@link RoutedAgent} (ADK's check, across copies of the package). */
export function isRoutedAgent(value: unknown): value is RoutedAgent {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[ROUTED_AGENT] === true;
}
