import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { Event } from "../events/event.js";
import type { GenerateContentConfig } from "../models/llm-request.js";
import type { Model } from "../models/model.js";
import { resolveModel } from "../models/model-registry.js";
import { runLlmAgent } from "./llm-agent-loop.js";
import { assertUniqueToolNames } from "../tools/resolve-tools.js";
import { isToolset, type Tool, type ToolUnion } from "../tools/tool.js";
import type { Agent } from "../agents/agent.js";
import { adoptChildren, assertAgentName } from "../agents/agent-tree.js";
import type {
  AfterModelCallback,
  AfterToolCallback,
  BeforeModelCallback,
  BeforeToolCallback,
  OnModelErrorCallback,
  OnToolErrorCallback,
  OneOrMany,
} from "./callbacks.js";
import type { InvocationContext } from "../agents/invocation-context.js";
import type { InstructionProvider, LlmAgentOptions, LlmAgentSettings } from "./llm-agent-settings.js";

export type { InstructionProvider, LlmAgentOptions };

/**
 * An agent driven by a language model: it sends the conversation, its
 * instruction and its tools to the model, runs the tools the model calls, and
 * repeats until the model answers without calling a tool.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({ name: "weather_agent", model, instruction: "Answer weather questions.", tools: [getWeather] });
 * ```
 */
export class LlmAgent implements LlmAgentSettings {
  readonly name: string;
  readonly description: string;
  readonly instruction?: string | InstructionProvider;
  readonly tools: readonly ToolUnion[];
  readonly subAgents: readonly Agent[];
  readonly outputKey?: string;
  readonly disallowTransferToParent: boolean;
  readonly disallowTransferToPeers: boolean;
  readonly generateContentConfig: GenerateContentConfig;
  readonly beforeModelCallback?: OneOrMany<BeforeModelCallback>;
  readonly afterModelCallback?: OneOrMany<AfterModelCallback>;
  readonly onModelErrorCallback?: OneOrMany<OnModelErrorCallback>;
  readonly beforeToolCallback?: OneOrMany<BeforeToolCallback>;
  readonly afterToolCallback?: OneOrMany<AfterToolCallback>;
  readonly onToolErrorCallback?: OneOrMany<OnToolErrorCallback>;
  parentAgent?: Agent;
  readonly #model?: Model | string;
  #resolvedModel?: Promise<Model>;

  constructor(options: LlmAgentOptions) {
    assertAgentName(options.name);
    this.name = options.name;
    this.description = options.description ?? "";
    this.#model = options.model;
    this.instruction = options.instruction;
    this.tools = [...(options.tools ?? []), ...(options.codeExecutor ? [options.codeExecutor] : [])];
    this.subAgents = options.subAgents ?? [];
    this.outputKey = options.outputKey;
    this.disallowTransferToParent = options.disallowTransferToParent ?? false;
    this.disallowTransferToPeers = options.disallowTransferToPeers ?? false;
    this.generateContentConfig = options.generateContentConfig ?? {};
    this.beforeModelCallback = options.beforeModelCallback;
    this.afterModelCallback = options.afterModelCallback;
    this.onModelErrorCallback = options.onModelErrorCallback;
    this.beforeToolCallback = options.beforeToolCallback;
    this.afterToolCallback = options.afterToolCallback;
    this.onToolErrorCallback = options.onToolErrorCallback;
    assertUniqueToolNames(this.tools.filter((entry): entry is Tool => !isToolset(entry)), this.name);
    adoptChildren(this, this.subAgents);
  }

  /** The model given to this agent, an instance or a name; `undefined` when it uses its nearest ancestor's. */
  get model(): Model | string | undefined {
    return this.#model;
  }

  /** The model this agent uses: its own, or the nearest ancestor's. */
  async canonicalModel(): Promise<Model> {
    if (typeof this.#model === "object") return this.#model;
    if (typeof this.#model === "string") return (this.#resolvedModel ??= resolveModel(this.#model));
    for (let ancestor = this.parentAgent; ancestor; ancestor = ancestor.parentAgent) {
      if (ancestor instanceof LlmAgent && ancestor.#model !== undefined) return ancestor.canonicalModel();
    }
    throw new ConfigurationError("NO_MODEL", `Agent "${this.name}" has no model and no ancestor with one. Pass model to new LlmAgent({ … }).`);
  }

  runAsync(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    return runLlmAgent(this, context);
  }
}
