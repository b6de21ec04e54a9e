import type { BaseLlmRequestProcessor, BaseLlmResponseProcessor } from "./llm-processors.js";
import type { Agent } from "../agents/agent.js";
import type { BaseAgentConfig } from "../agents/base-agent.js";
import type { ReadonlyContext } from "../agents/readonly-context.js";
import type { GenerateContentConfig } from "../models/llm-request.js";
import type { Model } from "../models/model.js";
import type { JsonSchema, Tool, ToolUnion } from "../tools/tool.js";
import type { ToolParameters } from "../tools/tool-parameters.js";
import type { BuiltInCodeExecutor } from "../tools/gemini/built-in-code-executor.js";
import type { BaseCodeExecutor } from "../tools/code-executors/base-code-executor.js";
import type {
  AfterModelCallback,
  AfterToolCallback,
  BeforeModelCallback,
  BeforeToolCallback,
  OnModelErrorCallback,
  OnToolErrorCallback,
  OneOrMany,
} from "./callbacks.js";
import type { BaseContextCompactor } from "./compaction/token-based-context-compactor.js";

/** Builds an instruction from the read-only context; returned as is, without `{key}` filling. */
export type InstructionProvider = (context: ReadonlyContext) => string | Promise<string>;

/** A `@google/genai` Schema, as ADK's docs give `outputSchema` (types such as `Type.OBJECT`). */
export type OutputSchemaLike = { type?: unknown; properties?: unknown };

/** Options of {@link LlmAgent}: ADK's `LlmAgentConfig`, with the agent callbacks every agent takes. */
export interface LlmAgentOptions extends BaseAgentConfig {
  /** A model instance, or a name such as `"gemini-2.5-flash"`; inherited from the parent agent when absent. */
  model?: Model | string;
  /** A string with `{key}`/`{key?}` filled from state, or a function of the read-only context. */
  instruction?: string | InstructionProvider;
  /** Tools and toolsets, mixed. */
  tools?: readonly ToolUnion[];
  /** Never hand the conversation back to the parent agent. */
  disallowTransferToParent?: boolean;
  /** Never hand the conversation to sibling agents. */
  disallowTransferToPeers?: boolean;
  /** Stores the final response text in this state key. */
  outputKey?: string;
  generateContentConfig?: GenerateContentConfig;
  /**
   * The final answer's shape (zod or JSON Schema, an object): the model is asked for JSON matching it, the
   * answer is checked, and with `outputKey` the parsed object is stored. An answer that does not match ends
   * the turn with an `OUTPUT_SCHEMA_MISMATCH` error event.
   */
  outputSchema?: ToolParameters | OutputSchemaLike;
  /**
   * The arguments other agents give this agent when it is offered as an `AgentTool` (zod, JSON Schema or a
   * `@google/genai` Schema), as in ADK: they are checked before it runs and reach it as JSON text.
   */
  inputSchema?: ToolParameters | OutputSchemaLike;
  /** `"none"`: the model sees only the current turn (the user's message and what followed), not the earlier history. Default `"default"`. */
  includeContents?: "default" | "none";
  beforeModelCallback?: OneOrMany<BeforeModelCallback>;
  afterModelCallback?: OneOrMany<AfterModelCallback>;
  onModelErrorCallback?: OneOrMany<OnModelErrorCallback>;
  beforeToolCallback?: OneOrMany<BeforeToolCallback>;
  afterToolCallback?: OneOrMany<AfterToolCallback>;
  onToolErrorCallback?: OneOrMany<OnToolErrorCallback>;
  /**
   * Runs code the model writes, as in ADK. `new BuiltInCodeExecutor()` is Gemini's own code execution: it joins
   * the agent's `tools` (it changes the request as a tool does). Any other {@link BaseCodeExecutor}
   * (`UnsafeLocalCodeExecutor`, `SandboxedCodeExecutor`, your own) runs the first code block of each answer, stores
   * the code and its result as events, saves the files it wrote as artifacts, and asks the model again.
   */
  codeExecutor?: BuiltInCodeExecutor | BaseCodeExecutor;
  /**
   * Keep long histories within the model's context (ADK's option): before each model call, the first compactor
   * that asks to compact summarises the older history, such as a {@link TokenBasedContextCompactor}. The
   * model then sees the summary and what followed; the session keeps every event, and each compaction is
   * stored as an event of its own.
   */
  contextCompactors?: readonly BaseContextCompactor[];
  /**
   * Steps that change each model request (ADK's option): they run in order after the agent's own steps made the
   * request (history, instruction, output schema) and before the tools declare themselves and change it
   * (`processLlmRequest`); the events they yield are stored first. The agent keeps this list as
   * `agent.requestProcessors`, where a program may push more. Unlike ADK's, a list given here adds to the agent's own
   * steps rather than replacing them (docs/adk-compat.md).
   */
  requestProcessors?: BaseLlmRequestProcessor[];
  /**
   * Steps that change each model response before it becomes an event (ADK's option), after the model callbacks;
   * the events they yield are stored first. Kept as `agent.responseProcessors`.
   */
  responseProcessors?: BaseLlmResponseProcessor[];
  /**
   * How the agent works (ADK's): `"single_turn"` (the default) answers and is done; `"task"` is given a
   * `finish_task` tool and works over as many turns as it needs, asking the user when the task is unclear, until it
   * calls `finish_task` with the task's output (shaped by `outputSchema`). As a graph workflow's node, that output
   * is the node's, the node sees the whole conversation rather than only its input, and it waits for the next
   * message while the task is not finished.
   */
  mode?: "single_turn" | "task";
  /**
   * As a graph workflow's node: with `true`, a run that ends with no output leaves the node waiting and nothing after
   * it runs (ADK's node option). Default: `true` in `mode: "task"`, else `false`.
   */
  waitForOutput?: boolean;
  /**
   * As a graph workflow's node: the conversation scope its events are marked with (ADK's node option). The agent
   * then sees none of the events of other scopes (the user's messages are in none), and agents outside its scope do
   * not see its events. `true` gives each run of the node a scope of its own (`<node path>@<run id>`).
   */
  isolationScope?: string | true;
}

/**
 * What the LLM agent's loop reads of its agent: the settings an
 * {@link LlmAgent} was made with, and the model it resolves to. The loop's
 * modules depend on this contract rather than on the class, which depends on
 * the loop.
 */
export interface LlmAgentSettings extends Agent {
  readonly instruction?: string | InstructionProvider;
  readonly tools: readonly ToolUnion[];
  readonly outputKey?: string;
  readonly disallowTransferToParent: boolean;
  readonly disallowTransferToPeers: boolean;
  readonly generateContentConfig: GenerateContentConfig;
  readonly includeContents: "default" | "none";
  /** {@link LlmAgentOptions.outputSchema} as JSON Schema. */
  readonly outputSchema?: JsonSchema;
  /** {@link LlmAgentOptions.outputSchema} as given: a zod schema checks answers with its refinements. */
  readonly outputSchemaSource?: ToolParameters;
  readonly beforeModelCallback?: OneOrMany<BeforeModelCallback>;
  readonly afterModelCallback?: OneOrMany<AfterModelCallback>;
  readonly onModelErrorCallback?: OneOrMany<OnModelErrorCallback>;
  readonly beforeToolCallback?: OneOrMany<BeforeToolCallback>;
  readonly afterToolCallback?: OneOrMany<AfterToolCallback>;
  readonly onToolErrorCallback?: OneOrMany<OnToolErrorCallback>;
  /** {@link LlmAgentOptions.contextCompactors}; `undefined` when there are none, so the loop checks one field. */
  readonly contextCompactors?: readonly BaseContextCompactor[];
  /** {@link LlmAgentOptions.requestProcessors}, read at each model call (a program may change the list). */
  readonly requestProcessors?: readonly BaseLlmRequestProcessor[];
  /** {@link LlmAgentOptions.responseProcessors}, read at each model call. */
  readonly responseProcessors?: readonly BaseLlmResponseProcessor[];
  /** {@link LlmAgentOptions.mode}. */
  readonly mode?: "single_turn" | "task";
  /** The `finish_task` tool the agent is given in `mode: "task"`. */
  readonly finishTaskTool?: Tool;
  /** The executor that runs the code in the model's answers; `undefined` for none and for Gemini's own (a tool). */
  readonly localCodeExecutor?: BaseCodeExecutor;
  /** The model this agent uses: its own, or the nearest ancestor's. */
  canonicalModel(): Promise<Model>;
}
