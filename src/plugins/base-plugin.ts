import type { Agent } from "../agents/agent.js";
import type { Context } from "../agents/context.js";
import type { InvocationContext, NodeHookContext } from "../agents/invocation-context.js";
import type { Content } from "../content/content.js";
import type { Event } from "../events/event.js";
import type { LlmRequest } from "../models/llm-request.js";
import type { LlmResponse } from "../models/llm-response.js";
import type { Tool } from "../tools/tool.js";
import type { ToolContext } from "../tools/tool-context.js";
import { markKind } from "../platform/kind.js";

/**
 * ADK's base class of plugins: callbacks that apply to every agent, model
 * call and tool call of a runner, given once as `new Runner({ plugins })`.
 * Override the hooks you need; each returns `undefined` to let the run go on,
 * or a value that short-circuits it (and the agent's own callbacks), as
 * documented per hook. Plugins run in the order given, before the agents'
 * callbacks; the first that returns a value wins.
 *
 * A hook a plugin leaves as this class's own is not called at all (it would
 * answer nothing): a plugin costs a run only the hooks it overrides.
 *
 * @example
 * ```ts
 * class CountCalls extends BasePlugin {
 *   calls = 0;
 *   constructor() { super("count_calls"); }
 *   override async beforeToolCallback() { this.calls++; return undefined; }
 * }
 * const runner = new InMemoryRunner({ agent, plugins: [new CountCalls()] });
 * ```
 */
export abstract class BasePlugin {
  // Known as a BasePlugin by every copy of toolsmith loaded beside this one (platform/kind.ts).
  static {
    markKind(this, "BasePlugin");
  }

  /** Unique among a runner's plugins. */
  readonly name: string;

  constructor(name: string) {
    this.name = name;
  }

  /** The user's message as it arrives; content returned replaces it. */
  async onUserMessageCallback(_params: { invocationContext: InvocationContext; userMessage: Content }): Promise<Content | undefined> {
    return undefined;
  }

  /** Before the root agent runs; content returned ends the run with it as the answer (authored `model`). */
  async beforeRunCallback(_params: { invocationContext: InvocationContext }): Promise<Content | undefined> {
    return undefined;
  }

  /** Each event before it is stored and yielded; an event returned replaces its content and actions. */
  async onEventCallback(_params: { invocationContext: InvocationContext; event: Event }): Promise<Event | undefined> {
    return undefined;
  }

  /** After the run's last event. */
  async afterRunCallback(_params: { invocationContext: InvocationContext }): Promise<void> {
    return undefined;
  }

  /** Before each agent; content returned skips the agent and is its answer. */
  async beforeAgentCallback(_params: { agent: Agent; callbackContext: Context }): Promise<Content | undefined> {
    return undefined;
  }

  /** After each agent; content returned is added as its last event. */
  async afterAgentCallback(_params: { agent: Agent; callbackContext: Context }): Promise<Content | undefined> {
    return undefined;
  }

  /** Before each model call (the request may be changed in place); a response returned is used instead of calling the model. */
  async beforeModelCallback(_params: { callbackContext: Context; llmRequest: LlmRequest }): Promise<LlmResponse | undefined> {
    return undefined;
  }

  /** After each model call; a response returned replaces the model's. */
  async afterModelCallback(_params: { callbackContext: Context; llmResponse: LlmResponse }): Promise<LlmResponse | undefined> {
    return undefined;
  }

  /** When a model call fails; a response returned is used instead of the error. */
  async onModelErrorCallback(_params: { callbackContext: Context; llmRequest: LlmRequest; error: Error }): Promise<LlmResponse | undefined> {
    return undefined;
  }

  /** Before each tool call, arguments already checked; a result returned is used instead of running the tool. */
  async beforeToolCallback(_params: { tool: Tool; toolArgs: Record<string, unknown>; toolContext: ToolContext }): Promise<Record<string, unknown> | undefined> {
    return undefined;
  }

  /** After each tool call; a result returned replaces the tool's. */
  async afterToolCallback(_params: { tool: Tool; toolArgs: Record<string, unknown>; toolContext: ToolContext; result: Record<string, unknown> }): Promise<Record<string, unknown> | undefined> {
    return undefined;
  }

  /** When a tool throws or times out; a result returned is used instead of the error. */
  async onToolErrorCallback(_params: { tool: Tool; toolArgs: Record<string, unknown>; toolContext: ToolContext; error: Error }): Promise<Record<string, unknown> | undefined> {
    return undefined;
  }

  /**
   * Before each model call of an LLM agent with tools, as ADK 2's: the agent's tools by name (its toolsets listed;
   * the transfer tool aside, which always stays). Return the ones to keep for this call: the others are neither
   * offered to the model nor run if it calls them. `undefined` keeps them all. State written through
   * `callbackContext` is stored with the model call's event.
   */
  async beforeToolSelection(_params: { callbackContext: Context; tools: Readonly<Record<string, Tool>> }): Promise<Readonly<Record<string, Tool>> | undefined> {
    return undefined;
  }

  /** Before an agent's `contextCompactors` compact its history, with what triggered the compaction. */
  async beforeContextCompaction(_params: { invocationContext: InvocationContext; trigger: ContextCompactionTrigger }): Promise<void> {}

  /** After an agent's history was compacted (the record is the next event the runner stores). */
  async afterContextCompaction(_params: { invocationContext: InvocationContext; trigger: ContextCompactionTrigger }): Promise<void> {}

  /**
   * Before a graph workflow's node runs (ADK 2's hook): a value returned becomes the node's output and the node
   * does not run (nor does {@link afterNodeCallback}).
   */
  async beforeNodeCallback(_params: { node: { readonly name: string }; nodeContext: NodeHookContext; input: unknown }): Promise<unknown> {
    return undefined;
  }

  /** After a graph workflow's node ran, unless it threw: a value returned replaces its output. */
  async afterNodeCallback(_params: { node: { readonly name: string }; nodeContext: NodeHookContext; output: unknown }): Promise<unknown> {
    return undefined;
  }
}

/** What started a compaction, as ADK's: toolsmith's compactors run on their own (`Auto`) unless they say otherwise. */
export enum ContextCompactionTrigger {
  Manual = "Manual",
  Auto = "Auto",
  AgentControlled = "AgentControlled",
}

