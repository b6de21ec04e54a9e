import { leavesContentsAlone, mayChangeContents } from "../models/llm-request.js";
import type { Context } from "../agents/context.js";
import type { ArgumentsCheck, FunctionDeclaration, Tool } from "./tool.js";
import { BaseTool, type RunAsyncToolRequest } from "./base-tool.js";
import { runByHand } from "./run-by-hand.js";
import type { ToolContext } from "./tool-context.js";

/** What a {@link forwardTool} does itself instead of asking the tool it wraps. */
export interface ForwardOverrides {
  /** Another name (the declaration says it too); the wrapped tool still runs under its own. */
  name?: string;
  run?: Tool["run"];
  requiresConfirmation?: Tool["requiresConfirmation"];
}

const NO_PROCESSING = BaseTool.prototype.processLlmRequest;

/**
 * A tool that forwards every member to the tool it wraps but those overridden, and a {@link BaseTool} (so a
 * prefixed MCP or OpenAPI tool is one, as ADK's are). Members the wrapped tool lacks stay absent, so the loop
 * skips them as it skips them on the tool itself; `runsWhenDeclined` and `timeoutMs` carry over.
 */
class ForwardingTool extends BaseTool {
  readonly timeoutMs?: number;
  readonly runsWhenDeclined?: boolean;
  readonly checkArguments?: (args: Record<string, unknown>) => ArgumentsCheck;
  readonly #tool: Tool;
  readonly #run: Tool["run"];
  readonly #renamed: boolean;

  constructor(tool: Tool, overrides: ForwardOverrides) {
    super({ name: overrides.name ?? tool.name, description: tool.description, isLongRunning: tool.isLongRunning ?? false });
    this.#tool = tool;
    this.#renamed = overrides.name !== undefined && overrides.name !== tool.name;
    this.#run = overrides.run ?? ((args, context) => tool.run(args, context));
    this.timeoutMs = tool.timeoutMs;
    this.runsWhenDeclined = tool.runsWhenDeclined;
    this.checkArguments = tool.checkArguments && ((args) => tool.checkArguments!(args));
    // Own members shadow BaseTool's defaults: absent on the tool, absent here (`undefined`), so no call is made.
    const confirm = overrides.requiresConfirmation ?? (tool.requiresConfirmation && ((args: Record<string, unknown>, context: ToolContext) => tool.requiresConfirmation!(args, context)));
    Object.defineProperty(this, "requiresConfirmation", { value: confirm, writable: true, configurable: true });
    if (tool.processLlmRequest && tool.processLlmRequest !== NO_PROCESSING) {
      const forward = (params: Parameters<NonNullable<Tool["processLlmRequest"]>>[0]) => tool.processLlmRequest!(params);
      // It leaves the contents alone when the wrapped tool's hook does (a skill's, wrapped by approval rules).
      Object.defineProperty(this, "processLlmRequest", { value: mayChangeContents(tool.processLlmRequest) ? forward : leavesContentsAlone(forward), writable: true, configurable: true });
    }
  }

  override declaration(): FunctionDeclaration | undefined {
    const declaration = this.#tool.declaration();
    return declaration && this.#renamed ? { ...declaration, name: this.name } : declaration;
  }

  override _getDeclaration(): FunctionDeclaration | undefined {
    return this.declaration();
  }

  override run(args: Record<string, unknown>, context: Context): Promise<unknown> {
    return Promise.resolve(this.#run(args, context as ToolContext));
  }

  runAsync({ args, toolContext }: RunAsyncToolRequest): Promise<unknown> {
    return runByHand(this, args, toolContext as ToolContext | undefined);
  }

  override async checkRequireConfirmation(args: Record<string, unknown>, context?: Context): Promise<boolean> {
    const confirm = (this as Tool).requiresConfirmation;
    return confirm ? confirm.call(this, args, context as ToolContext) : false;
  }
}

/** `tool` with some members of its own (`name`, `run`, `requiresConfirmation`), every other forwarded to it. */
export function forwardTool(tool: Tool, overrides: ForwardOverrides): Tool {
  return new ForwardingTool(tool, overrides);
}
