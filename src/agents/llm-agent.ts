import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { Event } from "../events/event.js";
import type { GenerateContentConfig } from "../models/llm-request.js";
import type { Model } from "../models/model.js";
import { resolveModel } from "../models/model-registry.js";
import { runLlmAgent } from "../runner/llm-agent-loop.js";
import { assertUniqueToolNames } from "../tools/resolve-tools.js";
import { isToolset, type Tool, type ToolUnion } from "../tools/tool.js";
import type { Agent } from "./agent.js";
import { adoptChildren, assertAgentName } from "./agent-tree.js";
import type {
  AfterModelCallback,
  AfterToolCallback,
  BeforeModelCallback,
  BeforeToolCallback,
  OnModelErrorCallback,
  OnToolErrorCallback,
  OneOrMany,
} from "./callbacks.js";
import type { InvocationContext } from "./invocation-context.js";
import type { ReadonlyContext } from "./readonly-context.js";

/** Builds an instruction from the read-only context; returned as is, without `{key}` filling. */
export type InstructionProvider = (context: ReadonlyContext) => string | Promise<string>;

/** Options of {@link LlmAgent}. */
export interface LlmAgentOptions {
  /** Unique within the agent tree; an identifier (letters, digits, `_`). */
  name: string;
  description?: string;
  /** A model instance, or a name such as `"gemini-2.5-flash"`; inherited from the parent agent when absent. */
  model?: Model | string;
  /** A string with `{key}`/`{key?}` filled from state, or a function of the read-only context. */
  instruction?: string | InstructionProvider;
  /** Tools and toolsets, mixed. */
  tools?: readonly ToolUnion[];
  /** Agents this one may transfer to. */
  subAgents?: readonly Agent[];
  /** Never hand the conversation back to the parent agent. */
  disallowTransferToParent?: boolean;
  /** Never hand the conversation to sibling agents. */
  disallowTransferToPeers?: boolean;
  /** Stores the final response text in this state key. */
  outputKey?: string;
  generateContentConfig?: GenerateContentConfig;
  beforeModelCallback?: OneOrMany<BeforeModelCallback>;
  afterModelCallback?: OneOrMany<AfterModelCallback>;
  onModelErrorCallback?: OneOrMany<OnModelErrorCallback>;
  beforeToolCallback?: OneOrMany<BeforeToolCallback>;
  afterToolCallback?: OneOrMany<AfterToolCallback>;
  onToolErrorCallback?: OneOrMany<OnToolErrorCallback>;
}

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
export class LlmAgent implements Agent {
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
    this.tools = options.tools ?? [];
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
