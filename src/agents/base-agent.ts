import type { Content } from "../content/content.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { callbackFailure } from "../errors/callback-error.js";
import { createEvent, type Event } from "../events/event.js";
import { hasKeys } from "../events/event-actions.js";
import type { Agent } from "./agent.js";
import { findAgent, findAgentBelow } from "./agent.js";
import { adoptChildren, assertAgentName, assertSubAgents, rootOf } from "./agent-tree.js";
import { refuseNonObjectOptions } from "../errors/unhonoured-option.js";
import { Context } from "./context.js";
import { forAgent, invocationAborted, pluginsFor, traceScopeOf, withTraceScope, InvocationContext } from "./invocation-context.js";
import { errorTypeOf } from "../telemetry/error-type.js";
import { GenAi } from "../telemetry/gen-ai-attributes.js";
import { traced, tracingEnabled } from "../telemetry/spans.js";
import { isOfKind, markKind } from "../platform/kind.js";

/** One callback or several; several run in order until one returns a value. */
export type OneOrMany<T> = T | readonly T[];

/**
 * Runs before or after an agent (ADK's `SingleAgentCallback`). Content
 * returned before the agent skips it and becomes its answer; content returned
 * after it is added as its last event. State changed through the context is
 * recorded on that event (or on an event of its own when nothing is returned).
 */
export type AgentCallback = (context: Context) => Content | undefined | void | Promise<Content | undefined | void>;

/** Options every {@link BaseAgent} takes, as ADK's `BaseAgentConfig`. */
export interface BaseAgentConfig {
  /** Unique within the agent tree; an identifier (letters, digits, `_`), not `user`. */
  name: string;
  /** Tells other agents (and models choosing a transfer target) what this agent does. */
  description?: string;
  subAgents?: readonly Agent[];
  /** Runs before the agent; content returned skips the agent. */
  beforeAgentCallback?: OneOrMany<AgentCallback>;
  /** Runs after the agent; content returned is added as its last event. */
  afterAgentCallback?: OneOrMany<AgentCallback>;
  /** Places the agent under a parent, as ADK allows; usually set by giving the agent to the parent's `subAgents`. */
  parentAgent?: Agent;
}

/** The callbacks as a list, as ADK keeps them. */
export function callbackList<T>(callbacks: OneOrMany<T> | undefined): T[] {
  if (callbacks === undefined) return [];
  return typeof callbacks === "function" ? [callbacks as T] : [...(callbacks as readonly T[])];
}

/**
 * ADK's base class of agents. Extend it for a custom agent: implement
 * {@link BaseAgent.runAsyncImpl}, yield the events it produces, and run
 * sub-agents with `child.runAsync(context)`. {@link BaseAgent.runAsync} wraps
 * it with the agent callbacks and the plugins' agent hooks. toolsmith's own
 * agents (`LlmAgent`, `SequentialAgent`, `ParallelAgent`, `LoopAgent`) extend
 * it too.
 *
 * @example
 * ```ts
 * class TwiceAgent extends BaseAgent {
 *   protected async *runAsyncImpl(context: InvocationContext) {
 *     for (let pass = 0; pass < 2; pass++) for (const child of this.subAgents) yield* child.runAsync(context);
 *   }
 * }
 * ```
 */
export abstract class BaseAgent implements Agent {
  // Known as a BaseAgent by every copy of toolsmith loaded beside this one (platform/kind.ts).
  static {
    markKind(this, "BaseAgent");
  }

  readonly name: string;
  readonly description: string;
  readonly subAgents: readonly Agent[];
  readonly beforeAgentCallback: readonly AgentCallback[];
  readonly afterAgentCallback: readonly AgentCallback[];
  parentAgent?: Agent;

  /**
   * The options this agent was made from (a shallow copy, as ADK keeps them), from which {@link clone} makes the
   * agent again.
   */
  protected readonly config: BaseAgentConfig;

  constructor(config: BaseAgentConfig) {
    refuseNonObjectOptions(new.target.name || "BaseAgent", config, () => `new ${new.target.name || "BaseAgent"}({ name: "helper", … })`);
    assertAgentName(config.name);
    if (config.subAgents !== undefined) assertSubAgents(config.name, config.subAgents);
    this.config = { ...config };
    this.name = config.name;
    this.description = config.description ?? "";
    this.subAgents = config.subAgents ?? [];
    this.beforeAgentCallback = callbackList(config.beforeAgentCallback);
    this.afterAgentCallback = callbackList(config.afterAgentCallback);
    if (config.parentAgent) adoptChildren(config.parentAgent, [this]);
    adoptChildren(this, this.subAgents);
  }

  /**
   * A new agent of the same class, made from this one's options with `overrides` applied, as ADK's `clone`: it has
   * no parent, its sub-agents are clones of this one's (unless `overrides.subAgents` gives others), and lists in
   * the options (tools, callbacks) are copied, so changing the clone's leaves this agent's alone. A custom agent
   * whose constructor takes other arguments than its options cannot be cloned this way; override `clone`.
   */
  clone(overrides?: Partial<BaseAgentConfig> & Record<string, unknown>): this {
    if (overrides && "parentAgent" in overrides) {
      throw new ConfigurationError("UNSUPPORTED_OPTION", `Agent "${this.name}": clone cannot set parentAgent; give the clone to its parent's subAgents instead.`);
    }
    const options: Record<string, unknown> = { ...this.config, ...overrides, parentAgent: undefined };
    for (const key of Object.keys(options)) {
      const value = options[key];
      if (key !== "subAgents" && !(overrides && key in overrides) && Array.isArray(value)) options[key] = value.slice();
    }
    if (!overrides || !("subAgents" in overrides)) options.subAgents = this.subAgents.map((child) => (isBaseAgent(child) ? child.clone() : child));
    const AgentClass = this.constructor as new (options: Record<string, unknown>) => this;
    return new AgentClass(options);
  }

  /** The top of the tree this agent belongs to. */
  get rootAgent(): Agent {
    return rootOf(this);
  }

  /** This agent or the one under it with this name. */
  findAgent(name: string): Agent | undefined {
    return findAgent(this, name);
  }

  /** The agent under this one (not itself) with this name. */
  findSubAgent(name: string): Agent | undefined {
    return findAgentBelow(this, name);
  }

  /**
   * Runs the agent: plugins' and the agent's before-callbacks, then
   * {@link BaseAgent.runAsyncImpl}, then the after-callbacks. Given its
   * parent's context (as custom agents pass theirs), it runs in a copy with
   * itself as the agent.
   */
  runAsync(parentContext: InvocationContext): AsyncGenerator<Event, void, undefined> {
    const own = this.#ownContext(parentContext);
    // With nothing to run around the agent's own work (no agent callbacks, no plugins, no span to record), its
    // events go straight to the caller: a generator in between would cost every event another hop.
    if (!pluginsFor(own, "beforeAgentCallback") && !pluginsFor(own, "afterAgentCallback") && this.beforeAgentCallback.length === 0 && this.afterAgentCallback.length === 0 && !tracingEnabled()) {
      return invocationAborted(own) || own.endInvocation ? noEvents() : this.runAsyncImpl(own);
    }
    return this.#runWithCallbacks(own, (context) => this.runAsyncImpl(context));
  }

  /**
   * Runs the agent live (ADK's `runLive`): the model is connected for the whole run, the program sends it what
   * the context's `liveRequestQueue` holds, and its answers come as events as they are spoken or written. The
   * same callbacks, plugin hooks and span as {@link runAsync}, around {@link runLiveImpl}. `Runner.runLive`
   * calls it; workflow agents call it on their sub-agents.
   */
  runLive(parentContext: InvocationContext): AsyncGenerator<Event, void, undefined> {
    return this.#runWithCallbacks(this.#ownContext(parentContext), (context) => this.runLiveImpl(context));
  }

  /**
   * The context this agent runs in: its parent's copied with itself as the agent, or the one given when it already
   * is that. A context made by hand (a plain object) is copied into one of the class, as a parent's is for its child.
   */
  #ownContext(parentContext: InvocationContext): InvocationContext {
    return parentContext.agent === this && parentContext instanceof InvocationContext ? parentContext : forAgent(parentContext, this);
  }

  /** {@link BaseAgent.runAsync} (or `runLive`) with the agent's callbacks, the plugins' agent hooks and the agent's span around its work. */
  async *#runWithCallbacks(own: InvocationContext, work: (context: InvocationContext) => AsyncGenerator<Event, void, undefined>): AsyncGenerator<Event, void, undefined> {
    const span = traced(traceScopeOf(own), () => ({
      name: `invoke_agent ${this.name}`,
      attributes: {
        [GenAi.operationName]: "invoke_agent",
        [GenAi.agentName]: this.name,
        [GenAi.agentDescription]: this.description,
        [GenAi.conversationId]: own.session.id,
        [GenAi.invocationId]: own.invocationId,
      },
    }));
    const context = span.recording ? withTraceScope(own, span.scope) : own;
    try {
      const before = await this.#runAgentCallbacks("before", context);
      if (before) yield before.event;
      if (before?.skip || invocationAborted(context) || context.endInvocation) return;
      let paused = false;
      for await (const event of work(context)) {
        if (!event.partial && isPause(event)) paused = true;
        if (!event.partial && event.errorCode && event.author === this.name) span.fail(event.errorCode, event.errorMessage);
        yield event;
      }
      // An agent waiting for the person has not finished: its after-callbacks run when it does.
      if (paused || invocationAborted(context) || context.endInvocation) return;
      const after = await this.#runAgentCallbacks("after", context);
      if (after) yield after.event;
    } catch (error) {
      span.fail(errorTypeOf(error), (error as Error)?.message);
      throw error;
    } finally {
      span.end();
    }
  }

  /** The agent's own work: the events it produces. */
  protected abstract runAsyncImpl(context: InvocationContext): AsyncGenerator<Event, void, undefined>;

  /**
   * The agent's own work in a live run: the events it produces while the model is connected. ADK makes it
   * abstract; here an agent that does not override it cannot run live, and says so (`LIVE_UNSUPPORTED`) when run.
   * `LlmAgent`, `SequentialAgent` and `LoopAgent` override it.
   */
  protected async *runLiveImpl(_context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    throw new ConfigurationError("LIVE_UNSUPPORTED", `Agent "${this.name}" (${this.constructor.name}) cannot run live: it does not implement runLiveImpl. Implement it, or run the agent with runAsync.`);
  }

  /**
   * Plugins first, then the agent's callbacks, as ADK Python orders them: the
   * first content returned wins and the rest do not run. The event carries
   * the content (if any) and the state the callbacks changed.
   */
  async #runAgentCallbacks(when: "before" | "after", context: InvocationContext): Promise<{ event: Event; skip: boolean } | undefined> {
    const plugins = pluginsFor(context, when === "before" ? "beforeAgentCallback" : "afterAgentCallback");
    const callbacks = when === "before" ? this.beforeAgentCallback : this.afterAgentCallback;
    if (!plugins && callbacks.length === 0) return undefined;
    const callbackContext = new Context({ invocation: context });
    let content = plugins ? await (when === "before" ? plugins.runBeforeAgentCallback({ agent: this, callbackContext }) : plugins.runAfterAgentCallback({ agent: this, callbackContext })) : undefined;
    for (const callback of callbacks) {
      if (content) break;
      try {
        content = (await callback(callbackContext)) ?? undefined;
      } catch (error) {
        throw callbackFailure(`${when}AgentCallback`, error);
      }
      if (invocationAborted(context)) return undefined;
    }
    const actions = callbackContext.actions;
    const changed = hasKeys(actions.stateDelta) || hasKeys(actions.artifactDelta);
    if (!content && !changed) return undefined;
    const event = createEvent({ invocationId: context.invocationId, author: this.name, branch: context.branch, content, actions });
    return { event, skip: content !== undefined };
  }
}

async function* noEvents(): AsyncGenerator<Event, void, undefined> {}

/**
 * Whether an event pauses the run for the client: a request to confirm or for
 * a credential, or a response that leaves a call waiting for one. A model's
 * call to a long-running tool is marked in `longRunningToolIds` too, but the
 * run goes on after it (as in ADK).
 */
export function isPause(event: Event): boolean {
  return (event.longRunningToolIds?.length ?? 0) > 0 && event.content?.role !== "model";
}

/** Whether a value is a {@link BaseAgent} (ADK's check). */
export function isBaseAgent(value: unknown): value is BaseAgent {
  return isOfKind(value, BaseAgent, "BaseAgent");
}
