import { ConfigurationError, ToolsmithError } from "../errors/toolsmith-error.js";
import type { Event } from "../events/event.js";
import type { GenerateContentConfig } from "../models/llm-request.js";
import type { Model } from "../models/model.js";
import { resolveModel } from "../models/model-registry.js";
import { checkOutput, runLlmAgent } from "./llm-agent-loop.js";
import { runLlmAgentLive } from "./live-flow.js";
import { assertUniqueToolNames, resolveTools } from "../tools/resolve-tools.js";
import { isToolset, type Tool, type Toolset, type ToolUnion } from "../tools/tool.js";
import { BaseAgent } from "../agents/base-agent.js";
import { BuiltInCodeExecutor } from "../tools/gemini/built-in-code-executor.js";
import { isBaseCodeExecutor, type BaseCodeExecutor } from "../tools/code-executors/base-code-executor.js";
import { schemaToJsonSchema, type ToolParameters } from "../tools/tool-parameters.js";
import { FinishTaskTool } from "../tools/finish-task-tool.js";
import type { JsonSchema } from "../tools/tool.js";
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
import type { ReadonlyContext } from "../agents/readonly-context.js";
import type { InstructionProvider, LlmAgentOptions, LlmAgentSettings, OutputSchemaLike } from "./llm-agent-settings.js";
import type { BaseContextCompactor } from "./compaction/token-based-context-compactor.js";
import type { BaseLlmRequestProcessor, BaseLlmResponseProcessor } from "./llm-processors.js";
import { markKind } from "../platform/kind.js";
import { describeGiven } from "../errors/unhonoured-option.js";

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
export class LlmAgent extends BaseAgent implements LlmAgentSettings {
  // Known as an LlmAgent by every copy of toolsmith loaded beside this one (platform/kind.ts).
  static {
    markKind(this, "LlmAgent");
  }

  readonly instruction?: string | InstructionProvider;
  readonly tools: readonly ToolUnion[];
  readonly outputKey?: string;
  readonly disallowTransferToParent: boolean;
  readonly disallowTransferToPeers: boolean;
  readonly generateContentConfig: GenerateContentConfig;
  readonly includeContents: "default" | "none";
  /** Whether `includeContents` was given (ADK's): an agent run as a workflow node without it sees only its input. */
  readonly includeContentsExplicit: boolean;
  readonly outputSchema?: JsonSchema;
  /** {@link LlmAgentOptions.inputSchema} as JSON Schema, what an `AgentTool` declares. */
  readonly inputSchema?: JsonSchema;
  /** `inputSchema` as given (a zod schema keeps its refinements), what an `AgentTool` checks arguments with; ADK's name. */
  readonly inputSchemaSource?: ToolParameters;
  /** `outputSchema` as given (a zod schema keeps its refinements and transforms), what answers are checked with; ADK's name. */
  readonly outputSchemaSource?: ToolParameters;
  readonly beforeModelCallback?: OneOrMany<BeforeModelCallback>;
  readonly afterModelCallback?: OneOrMany<AfterModelCallback>;
  readonly onModelErrorCallback?: OneOrMany<OnModelErrorCallback>;
  readonly beforeToolCallback?: OneOrMany<BeforeToolCallback>;
  readonly afterToolCallback?: OneOrMany<AfterToolCallback>;
  readonly onToolErrorCallback?: OneOrMany<OnToolErrorCallback>;
  /** {@link LlmAgentOptions.codeExecutor}, as given (ADK's field). */
  readonly codeExecutor?: BuiltInCodeExecutor | BaseCodeExecutor;
  /** The executor the loop runs the model's code through: `codeExecutor` unless it is Gemini's own. */
  readonly localCodeExecutor?: BaseCodeExecutor;
  readonly contextCompactors?: readonly BaseContextCompactor[];
  /**
   * {@link LlmAgentOptions.requestProcessors}: the list itself, which a program may change (ADK programs push their
   * own onto it after making the agent). Empty by default: toolsmith's own steps are not in it, and always run first.
   */
  requestProcessors: BaseLlmRequestProcessor[];
  /** {@link LlmAgentOptions.responseProcessors}: the list itself, which a program may change. Empty by default. */
  responseProcessors: BaseLlmResponseProcessor[];
  /** {@link LlmAgentOptions.mode}, as given. */
  readonly mode?: "single_turn" | "task";
  /** {@link LlmAgentOptions.waitForOutput}: as given, else whether the agent is in `mode: "task"`. */
  readonly waitForOutput: boolean;
  /** {@link LlmAgentOptions.isolationScope}. */
  readonly isolationScope?: string | true;
  readonly #model?: Model | string;
  #resolvedModel?: Promise<Model>;
  #finishTaskTool?: FinishTaskTool;

  constructor(options: LlmAgentOptions) {
    super(options);
    refuseUnsupportedOptions(options);
    refuseMisshapenOptions(options);
    this.#model = options.model;
    this.instruction = options.instruction;
    const codeExecutor = options.codeExecutor;
    if (codeExecutor !== undefined && !isBaseCodeExecutor(codeExecutor)) {
      throw new ConfigurationError("UNSUPPORTED_OPTION", `Agent "${options.name}": codeExecutor takes a code executor (new BuiltInCodeExecutor() for Gemini's own, new UnsafeLocalCodeExecutor(), new SandboxedCodeExecutor() from toolsmith/tools, or a class extending BaseCodeExecutor); it got ${codeExecutor === null ? "null" : typeof codeExecutor === "object" ? "an object that is no code executor" : `a ${typeof codeExecutor}`}.`);
    }
    // Gemini's own code execution changes the request as a tool does; any other executor runs in the loop.
    const builtIn = codeExecutor instanceof BuiltInCodeExecutor;
    this.codeExecutor = codeExecutor;
    this.localCodeExecutor = codeExecutor && !builtIn ? (codeExecutor as BaseCodeExecutor) : undefined;
    this.tools = [...(options.tools ?? []), ...(builtIn ? [codeExecutor] : [])];
    this.tools.forEach((entry, index) => refuseNonTool(entry, index, options.name));
    this.outputKey = options.outputKey;
    // As in ADK, an agent with outputSchema answers in that shape and never transfers.
    const structured = options.outputSchema !== undefined;
    if (structured && (options.disallowTransferToParent === false || options.disallowTransferToPeers === false)) {
      throw new ConfigurationError("UNSUPPORTED_OPTION", `Agent "${options.name}": outputSchema cannot go with transfers (disallowTransferToParent/Peers false); an agent with outputSchema always answers in its shape.`);
    }
    this.disallowTransferToParent = options.disallowTransferToParent ?? structured;
    this.disallowTransferToPeers = options.disallowTransferToPeers ?? structured;
    this.generateContentConfig = options.generateContentConfig ?? {};
    this.includeContents = options.includeContents ?? "default";
    this.includeContentsExplicit = options.includeContents !== undefined;
    if (options.outputSchema !== undefined) {
      this.outputSchemaSource = options.outputSchema as ToolParameters;
      this.outputSchema = schemaToJsonSchema(this.outputSchemaSource, `${options.name} output`);
    }
    if (options.inputSchema !== undefined) {
      this.inputSchemaSource = options.inputSchema as ToolParameters;
      this.inputSchema = schemaToJsonSchema(this.inputSchemaSource, `${options.name} input`);
    }
    this.beforeModelCallback = options.beforeModelCallback;
    this.afterModelCallback = options.afterModelCallback;
    this.onModelErrorCallback = options.onModelErrorCallback;
    this.beforeToolCallback = options.beforeToolCallback;
    this.afterToolCallback = options.afterToolCallback;
    this.onToolErrorCallback = options.onToolErrorCallback;
    this.contextCompactors = contextCompactorsOf(options);
    this.requestProcessors = processorListOf(options, "requestProcessors");
    this.responseProcessors = processorListOf(options, "responseProcessors");
    this.mode = options.mode;
    this.waitForOutput = options.waitForOutput ?? options.mode === "task";
    this.isolationScope = options.isolationScope;
    // In task mode finish_task is one of the agent's tools: a tool of the same name would shadow it.
    assertUniqueToolNames([...this.tools.filter((entry): entry is Tool => !isToolset(entry)), ...(this.mode === "task" ? [this.finishTaskTool] : [])], this.name);
  }

  /**
   * The `finish_task` tool of this agent in `mode: "task"` (ADK's), shaped by its `outputSchema`: made once, so its
   * declaration is the same at every model call.
   */
  get finishTaskTool(): FinishTaskTool {
    return (this.#finishTaskTool ??= new FinishTaskTool(this.outputSchema));
  }

  /** A new agent like this one with `overrides` applied (see {@link BaseAgent.clone}), typed by this agent's options. */
  override clone(overrides?: Partial<LlmAgentOptions>): this {
    return super.clone(overrides);
  }

  /**
   * The agent's own instruction for this context, as ADK's `canonicalInstruction` gives it: a string as written
   * (its `{key}` placeholders still to fill from state: `requireStateInjection`), or what an instruction provider
   * returns (used as it is). An agent without an instruction has the empty one.
   */
  async canonicalInstruction(context: ReadonlyContext): Promise<{ instruction: string; requireStateInjection: boolean }> {
    if (typeof this.instruction === "function") return { instruction: await this.instruction(context), requireStateInjection: false };
    return { instruction: this.instruction ?? "", requireStateInjection: true };
  }

  /**
   * The agent's tools with each toolset's listed for this context, as ADK's `canonicalTools` gives them (without
   * the transfer tool the loop adds). Toolsets list their tools with `context`; one that fails says which, as a
   * run does.
   */
  async canonicalTools(context?: ReadonlyContext): Promise<Tool[]> {
    if (!this.tools.some(isToolset)) return [...(this.tools as readonly Tool[])];
    // ADK lets the context be left out; a toolset that needs it then fails with a message naming it.
    return resolveTools(this.tools, context as ReadonlyContext, this.name);
  }

  /**
   * `value` checked against the agent's `outputSchema` (ADK's `validateOutput`): returned with the schema's
   * defaults filled in, or an `OUTPUT_SCHEMA_MISMATCH` error naming what does not match. Without an
   * `outputSchema`, `value` as it is.
   */
  validateOutput(value: unknown): unknown {
    if (this.outputSchema === undefined) return value;
    const checked = checkOutput(this, this.outputSchema, value);
    if (!checked.ok) throw new ToolsmithError("OUTPUT_SCHEMA_MISMATCH", `Agent "${this.name}": the value does not match its outputSchema: ${checked.problems}. Give a value of the schema's shape.`);
    return checked.value;
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

  protected runAsyncImpl(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    return runLlmAgent(this, context);
  }

  /** The agent's live run: see {@link runLlmAgentLive}. */
  protected override runLiveImpl(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    return runLlmAgentLive(this, context);
  }
}

/** Refuses a model, instruction or tool list of a kind the agent cannot use, which would otherwise fail at its first model call. */
function refuseMisshapenOptions(options: LlmAgentOptions): void {
  const { name, model, instruction, tools } = options;
  const modelObject = model as { generateContent?: unknown; generateContentAsync?: unknown } | null;
  if (model !== undefined && typeof model !== "string" && !(typeof modelObject === "object" && modelObject !== null && (typeof modelObject.generateContent === "function" || typeof modelObject.generateContentAsync === "function"))) {
    throw new ConfigurationError("UNSUPPORTED_OPTION", `Agent "${name}": model is a model's name ("gemini-2.5-flash", "openai/gpt-4.1") or a model object (new Gemini({ … }), a BaseLlm); it got ${typeof model === "object" && model !== null ? "an object that is no model" : describeGiven(model)}.`);
  }
  if (instruction !== undefined && typeof instruction !== "string" && typeof instruction !== "function") {
    throw new ConfigurationError("UNSUPPORTED_OPTION", `Agent "${name}": instruction is a text or a function of the context that returns one; it got ${describeGiven(instruction)}.`);
  }
  if (tools !== undefined && !Array.isArray(tools)) {
    throw new ConfigurationError("INVALID_TOOL", `Agent "${name}": tools is a list of tools and toolsets ([lookupOrder, files]); it got ${describeGiven(tools)}.`);
  }
}

/**
 * Throws, when the agent is made, for an entry of `tools` that is neither a tool nor a toolset (a bare
 * function, say), naming its position and what to wrap it in; it would otherwise fail at the first model call.
 */
function refuseNonTool(entry: unknown, index: number, agentName: string): void {
  const candidate = entry as Partial<Tool> & Partial<Toolset>;
  const isTool = typeof candidate === "object" && candidate !== null && typeof candidate.name === "string" && typeof candidate.declaration === "function" && typeof candidate.run === "function";
  if (isTool || (typeof candidate === "object" && candidate !== null && typeof candidate.getTools === "function")) return;
  const what = typeof entry === "function" ? `a function (${(entry as { name?: string }).name || "anonymous"})` : entry === null ? "null" : typeof entry === "object" ? "an object that is no tool" : `a ${typeof entry}`;
  throw new ConfigurationError(
    "INVALID_TOOL",
    `Agent "${agentName}": tools[${index}] is ${what}, not a tool or toolset. Wrap a function in new FunctionTool({ name, description, parameters, execute: yourFunction }); an object needs name, description, declaration() and run().`,
  );
}

/** The agent's compactors, each checked to be one; `undefined` for none. */
function contextCompactorsOf(options: LlmAgentOptions): readonly BaseContextCompactor[] | undefined {
  const compactors = options.contextCompactors;
  if (compactors === undefined) return undefined;
  if (!Array.isArray(compactors)) throw new ConfigurationError("INVALID_COMPACTION_OPTION", `Agent "${options.name}": contextCompactors must be a list, such as [new TokenBasedContextCompactor({ tokenThreshold, eventRetentionSize })].`);
  compactors.forEach((compactor: Partial<BaseContextCompactor> | null, index) => {
    if (typeof compactor?.shouldCompact !== "function" || typeof compactor.compact !== "function") {
      throw new ConfigurationError("INVALID_COMPACTION_OPTION", `Agent "${options.name}": contextCompactors[${index}] is not a compactor (it needs shouldCompact and compact); use new TokenBasedContextCompactor({ tokenThreshold, eventRetentionSize }).`);
    }
  });
  return compactors.length > 0 ? [...compactors] : undefined;
}

/** A processor list as given (the list itself, as ADK keeps it), or a new empty one; anything but a list is refused. */
function processorListOf<K extends "requestProcessors" | "responseProcessors">(options: LlmAgentOptions, key: K): NonNullable<LlmAgentOptions[K]> {
  const given = options[key];
  if (given === undefined) return [] as unknown as NonNullable<LlmAgentOptions[K]>;
  const base = key === "requestProcessors" ? "BaseLlmRequestProcessor" : "BaseLlmResponseProcessor";
  if (!Array.isArray(given)) throw new ConfigurationError("UNSUPPORTED_OPTION", `Agent "${options.name}": ${key} must be a list of processors (classes extending ${base}), not ${typeof given}.`);
  given.forEach((processor: unknown, index) => {
    if (typeof (processor as { runAsync?: unknown } | null)?.runAsync !== "function") {
      throw new ConfigurationError("UNSUPPORTED_OPTION", `Agent "${options.name}": ${key}[${index}] has no runAsync method; give a class that extends ${base} and implements async *runAsync(invocationContext, ${key === "requestProcessors" ? "llmRequest" : "llmResponse"}).`);
    }
  });
  return given as NonNullable<LlmAgentOptions[K]>;
}

/** Every option `new LlmAgent({...})` reads. */
const SUPPORTED_OPTIONS = new Set([
  "name", "description", "subAgents", "parentAgent", "beforeAgentCallback", "afterAgentCallback",
  "model", "instruction", "tools", "disallowTransferToParent", "disallowTransferToPeers", "outputKey", "generateContentConfig", "includeContents", "outputSchema", "inputSchema", "codeExecutor",
  "beforeModelCallback", "afterModelCallback", "onModelErrorCallback", "beforeToolCallback", "afterToolCallback", "onToolErrorCallback", "contextCompactors",
  "requestProcessors", "responseProcessors", "mode", "waitForOutput", "isolationScope",
]);

/** ADK's options toolsmith does not have, with what to use instead. */
const UNSUPPORTED_OPTIONS: Record<string, string> = {
  globalInstruction: "add new GlobalInstructionPlugin(instruction) to the Runner's plugins, as ADK 2 recommends",
  rerunOnResume: "as a workflow node's option, give it with node(agent, { rerunOnResume })",
  retryConfig: "as a workflow node's option, give it with node(agent, { retryConfig })",
  timeout: "as a workflow node's option, give it with node(agent, { timeout })",
  stateSchema: "as a workflow node's option, give it with node(agent, { stateSchema })",
};

/** Throws a ConfigurationError naming an option toolsmith would otherwise ignore: nothing an ADK program passes is dropped in silence. */
function refuseUnsupportedOptions(options: LlmAgentOptions): void {
  for (const [option, value] of Object.entries(options)) {
    if (SUPPORTED_OPTIONS.has(option) || value === undefined) continue;
    const why = UNSUPPORTED_OPTIONS[option] ?? "toolsmith does not know this option; check its spelling against LlmAgentOptions";
    throw new ConfigurationError("UNSUPPORTED_OPTION", `Agent "${options.name}": the option ${option} is not supported: ${why}.`);
  }
  const config = options.generateContentConfig ?? {};
  for (const [key, use] of [["tools", "tools"], ["systemInstruction", "instruction"], ["responseSchema", "outputSchema"], ["responseJsonSchema", "outputSchema"]] as const) {
    if (config[key] !== undefined) throw new ConfigurationError("UNSUPPORTED_OPTION", `Agent "${options.name}": generateContentConfig.${key} is not allowed; use the agent's ${use} instead, as ADK requires.`);
  }
  if (options.mode !== undefined && options.mode !== "single_turn" && options.mode !== "task") {
    throw new ConfigurationError("UNSUPPORTED_OPTION", `Agent "${options.name}": mode must be "single_turn" or "task", not ${JSON.stringify(options.mode)}.`);
  }
  if (options.isolationScope !== undefined && options.isolationScope !== true && (typeof options.isolationScope !== "string" || options.isolationScope.length === 0)) {
    throw new ConfigurationError("UNSUPPORTED_OPTION", `Agent "${options.name}": isolationScope must be a non-empty string, or true for a scope per run, not ${JSON.stringify(options.isolationScope)}.`);
  }
  if (options.includeContents !== undefined && options.includeContents !== "default" && options.includeContents !== "none") {
    throw new ConfigurationError("UNSUPPORTED_OPTION", `Agent "${options.name}": includeContents must be "default" or "none", not ${JSON.stringify(options.includeContents)}.`);
  }
}

