import type { LlmRequest } from "../models/llm-request.js";
import type { ReadonlyContext } from "../agents/readonly-context.js";
import type { FunctionDeclaration } from "../models/function-declaration.js";
import type { ToolContext } from "./tool-context.js";

export type { FunctionDeclaration, JsonSchema } from "../models/function-declaration.js";

/** One invalid argument: where it is and what was expected. */
export interface ArgumentIssue {
  /** Dotted path to the field (`address.city`, `items[2]`), empty for the whole object. */
  field: string;
  problem: string;
}

/** The outcome of checking a tool's arguments. */
export type ArgumentsCheck = { ok: true; value: Record<string, unknown> } | { ok: false; issues: ArgumentIssue[] };

/**
 * A tool the model can call. Three members are the contract (`name`,
 * `declaration`, `run`); the rest are optional refinements. A plain object can
 * be a tool.
 *
 * @example
 * ```ts
 * const clock: Tool = {
 *   name: "now", description: "The current time.",
 *   declaration: () => ({ name: "now", description: "The current time.", parameters: { type: "object", properties: {} } }),
 *   run: async () => ({ now: new Date().toISOString() }),
 * };
 * ```
 */
export interface Tool {
  readonly name: string;
  readonly description: string;
  /** What the model sees; `undefined` hides the tool from the model (it may still change requests). */
  declaration(): FunctionDeclaration | undefined;
  /** Runs the tool with arguments already checked against its schema. Throwing gives the model an error result. */
  run(args: Record<string, unknown>, context: ToolContext): Promise<unknown>;
  /** The tool returns before its work is done; see long-running tools in the README. */
  readonly isLongRunning?: boolean;
  /** Abort the call through `context.abortSignal` and answer with a timeout error after this long. */
  readonly timeoutMs?: number;
  /** Checks (and may coerce) arguments; when absent they are checked against `declaration().parameters`. */
  checkArguments?(args: Record<string, unknown>): ArgumentsCheck;
  /**
   * The tool runs with a declined confirmation too (`context.toolConfirmation.confirmed`
   * is `false`) instead of being answered "the user declined": for a tool
   * whose confirmation answers a question asked mid-call (MCP elicitation),
   * where a "no" must reach whoever asked.
   */
  readonly runsWhenDeclined?: boolean;
  /** Whether this call needs a person's confirmation before it runs. */
  requiresConfirmation?(args: Record<string, unknown>, context: ToolContext): boolean | Promise<boolean>;
  /**
   * Changes the outgoing model request (adds instructions, say) before each model call. One object
   * parameter, as ADK's `BaseTool.processLlmRequest({ toolContext, llmRequest })`.
   */
  processLlmRequest?(params: { toolContext: ToolContext; llmRequest: LlmRequest }): void | Promise<void>;
}

/**
 * A source of tools resolved again before every model call, from a read-only
 * view of the invocation (so the tools may depend on state or the user).
 */
export interface Toolset {
  getTools(context: ReadonlyContext): Promise<Tool[]>;
  /** Releases connections and processes; called by `runner.close()`. */
  close(): Promise<void>;
}

/** What an agent's `tools` list may hold. */
export type ToolUnion = Tool | Toolset;

/** Whether a tools-list entry is a toolset rather than a tool. */
export function isToolset(value: ToolUnion): value is Toolset {
  return typeof (value as Toolset).getTools === "function";
}
