import type { Agent, PluginHooks } from "../agents/agent.js";
import type { Context } from "../agents/context.js";
import type { InvocationContext, NodeHookContext, PluginHookName } from "../agents/invocation-context.js";
import type { Content } from "../content/content.js";
import { ConfigurationError, ToolsmithError } from "../errors/toolsmith-error.js";
import type { Event } from "../events/event.js";
import { mayChangeContents, type LlmRequest } from "../models/llm-request.js";
import type { LlmResponse } from "../models/llm-response.js";
import type { Tool } from "../tools/tool.js";
import type { ToolContext } from "../tools/tool-context.js";
import { BasePlugin, type ContextCompactionTrigger } from "./base-plugin.js";
import { endSentence } from "../errors/sentence.js";
import { isOfKind } from "../platform/kind.js";

/** A plugin hook threw; the run ends with an error event carrying this code. */
export class PluginError extends ToolsmithError {}

/**
 * Holds a runner's plugins and runs a hook across them in order: the first
 * value one returns is the answer and the rest are not asked, as in ADK. A
 * plugin that throws fails the hook with a {@link PluginError} naming it.
 */
export class PluginManager implements PluginHooks {
  readonly #plugins: BasePlugin[] = [];

  constructor(plugins: readonly BasePlugin[] = []) {
    for (const plugin of plugins) this.registerPlugin(plugin);
  }

  /** Whether any plugin is registered. */
  get hasPlugins(): boolean {
    return this.#plugins.length > 0;
  }

  /** Adds a plugin; refuses a second plugin of the same name. */
  registerPlugin(plugin: BasePlugin): void {
    if (!isOfKind(plugin, BasePlugin, "BasePlugin")) throw new ConfigurationError("INVALID_PLUGIN", "A plugin must extend BasePlugin (import { BasePlugin } from \"toolsmith\").");
    if (this.#plugins.some((registered) => registered.name === plugin.name)) {
      throw new ConfigurationError("INVALID_PLUGIN", `Two plugins are named "${plugin.name}". Give each plugin a unique name.`);
    }
    this.#plugins.push(plugin);
  }

  /**
   * Whether a registered plugin overrides `hook`: one whose hook is `BasePlugin`'s own answers nothing, and is
   * not called. Asked of the plugins each time, so a hook set on a plugin after it was registered counts too.
   */
  overrides(hook: PluginHookName): boolean {
    for (const plugin of this.#plugins) if (overridesHook(plugin, hook)) return true;
    return false;
  }

  /**
   * Whether a plugin's `beforeModelCallback` may change the request's contents in place: one overriding it with
   * anything but toolsmith's own hooks that leave them alone (`LoggingPlugin`'s, `GlobalInstructionPlugin`'s).
   */
  changesRequestContents(): boolean {
    for (const plugin of this.#plugins) if (overridesHook(plugin, "beforeModelCallback") && mayChangeContents(plugin.beforeModelCallback)) return true;
    return false;
  }

  /** The registered plugin with this name. */
  getPlugin(name: string): BasePlugin | undefined {
    return this.#plugins.find((plugin) => plugin.name === name);
  }

  async runOnUserMessageCallback(params: { invocationContext: InvocationContext; userMessage: Content }): Promise<Content | undefined> {
    return this.#first("onUserMessageCallback", (plugin) => plugin.onUserMessageCallback(params));
  }

  async runBeforeRunCallback(params: { invocationContext: InvocationContext }): Promise<Content | undefined> {
    return this.#first("beforeRunCallback", (plugin) => plugin.beforeRunCallback(params));
  }

  async runOnEventCallback(params: { invocationContext: InvocationContext; event: Event }): Promise<Event | undefined> {
    return this.#first("onEventCallback", (plugin) => plugin.onEventCallback(params));
  }

  /** Every plugin's after-run hook (there is nothing to short-circuit). */
  runAfterRunCallback(params: { invocationContext: InvocationContext }): Promise<void> {
    return this.#every("afterRunCallback", (plugin) => plugin.afterRunCallback(params));
  }

  runBeforeAgentCallback(params: { agent: Agent; callbackContext: Context }): Promise<Content | undefined> {
    return this.#first("beforeAgentCallback", (plugin) => plugin.beforeAgentCallback(params));
  }

  runAfterAgentCallback(params: { agent: Agent; callbackContext: Context }): Promise<Content | undefined> {
    return this.#first("afterAgentCallback", (plugin) => plugin.afterAgentCallback(params));
  }

  runBeforeModelCallback(params: { callbackContext: Context; llmRequest: LlmRequest }): Promise<LlmResponse | undefined> {
    return this.#first("beforeModelCallback", (plugin) => plugin.beforeModelCallback(params));
  }

  runAfterModelCallback(params: { callbackContext: Context; llmResponse: LlmResponse }): Promise<LlmResponse | undefined> {
    return this.#first("afterModelCallback", (plugin) => plugin.afterModelCallback(params));
  }

  runOnModelErrorCallback(params: { callbackContext: Context; llmRequest: LlmRequest; error: Error }): Promise<LlmResponse | undefined> {
    return this.#first("onModelErrorCallback", (plugin) => plugin.onModelErrorCallback(params));
  }

  runBeforeToolCallback(params: { tool: Tool; toolArgs: Record<string, unknown>; toolContext: ToolContext }): Promise<Record<string, unknown> | undefined> {
    return this.#first("beforeToolCallback", (plugin) => plugin.beforeToolCallback(params));
  }

  runAfterToolCallback(params: { tool: Tool; toolArgs: Record<string, unknown>; toolContext: ToolContext; result: Record<string, unknown> }): Promise<Record<string, unknown> | undefined> {
    return this.#first("afterToolCallback", (plugin) => plugin.afterToolCallback(params));
  }

  runOnToolErrorCallback(params: { tool: Tool; toolArgs: Record<string, unknown>; toolContext: ToolContext; error: Error }): Promise<Record<string, unknown> | undefined> {
    return this.#first("onToolErrorCallback", (plugin) => plugin.onToolErrorCallback(params));
  }

  /** The tools the first plugin that answers keeps for a model call; `undefined` keeps them all. */
  runBeforeToolSelection(params: { callbackContext: Context; tools: Readonly<Record<string, Tool>> }): Promise<Readonly<Record<string, Tool>> | undefined> {
    return this.#first("beforeToolSelection", (plugin) => plugin.beforeToolSelection(params));
  }

  /** Every plugin's hook before a compaction (there is nothing to short-circuit). */
  runBeforeContextCompaction(params: { invocationContext: InvocationContext; trigger: ContextCompactionTrigger }): Promise<void> {
    return this.#every("beforeContextCompaction", (plugin) => plugin.beforeContextCompaction(params));
  }

  /** Every plugin's hook after a compaction. */
  runAfterContextCompaction(params: { invocationContext: InvocationContext; trigger: ContextCompactionTrigger }): Promise<void> {
    return this.#every("afterContextCompaction", (plugin) => plugin.afterContextCompaction(params));
  }

  /** The first plugin's output for a workflow node, which then does not run. */
  runBeforeNodeCallback(params: { node: { readonly name: string }; nodeContext: NodeHookContext; input: unknown }): Promise<unknown> {
    return this.#first("beforeNodeCallback", (plugin) => plugin.beforeNodeCallback(params));
  }

  /** The first plugin's replacement of a workflow node's output. */
  runAfterNodeCallback(params: { node: { readonly name: string }; nodeContext: NodeHookContext; output: unknown }): Promise<unknown> {
    return this.#first("afterNodeCallback", (plugin) => plugin.afterNodeCallback(params));
  }

  /** Runs a hook that answers nothing on every plugin in order, failing as {@link PluginManager.#first} does. */
  async #every(hook: PluginHookName, call: (plugin: BasePlugin) => Promise<void>): Promise<void> {
    await this.#first(hook, async (plugin) => {
      await call(plugin);
      return undefined;
    });
  }

  async #first<T>(hook: PluginHookName, call: (plugin: BasePlugin) => Promise<T | undefined>): Promise<T | undefined> {
    for (const plugin of this.#plugins) {
      if (!overridesHook(plugin, hook)) continue;
      let result: T | undefined;
      try {
        result = await call(plugin);
      } catch (error) {
        throw new PluginError("PLUGIN_FAILED", `Plugin "${plugin.name}" failed in ${hook}: ${endSentence((error as Error)?.message ?? String(error))} Fix the plugin, or remove it from the Runner's plugins.`, { cause: error });
      }
      if (result !== undefined) return result;
    }
    return undefined;
  }
}

/**
 * Whether `plugin`'s `hook` is its own, not `BasePlugin`'s (which answers nothing). Indexed without a cast, so every
 * name of `PluginHookName` (declared below the plugins, in `agents`) is checked to be one of `BasePlugin`'s hooks.
 */
function overridesHook(plugin: BasePlugin, hook: PluginHookName): boolean {
  return plugin[hook] !== BasePlugin.prototype[hook];
}
