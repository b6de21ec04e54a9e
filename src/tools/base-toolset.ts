import type { Context } from "../agents/context.js";
import type { ReadonlyContext } from "../agents/readonly-context.js";
import type { LlmRequest } from "../models/llm-request.js";
import type { Tool, Toolset } from "./tool.js";
import { isOfKind, markKind } from "../platform/kind.js";

/** Chooses a toolset's tools by tool and context (ADK's `ToolPredicate`). */
export type ToolPredicate = (tool: Tool, readonlyContext: ReadonlyContext) => boolean;

/**
 * ADK's base class of toolsets: `getTools(readonlyContext)` gives the tools
 * for the next model call (asked again before each), `close()` releases what
 * the toolset holds (called by `runner.close()`). `toolFilter` (names, or a
 * predicate) and `prefix` are kept for the subclass, which applies them in
 * `getTools` with {@link BaseToolset.isToolSelected} and `${prefix}_${name}`,
 * as ADK's toolsets do. It is a toolsmith {@link Toolset}.
 */
export abstract class BaseToolset implements Toolset {
  // Known as a BaseToolset by every copy of toolsmith loaded beside this one (platform/kind.ts).
  static {
    markKind(this, "BaseToolset");
  }

  readonly toolFilter: ToolPredicate | string[];
  readonly prefix?: string;

  constructor(toolFilter: ToolPredicate | string[] = [], prefix?: string) {
    this.toolFilter = toolFilter;
    this.prefix = prefix;
  }

  abstract getTools(context?: ReadonlyContext): Promise<Tool[]>;

  abstract close(): Promise<void>;

  /** Whether `toolFilter` keeps this tool: an empty list keeps all, a list keeps the names it holds. */
  protected isToolSelected(tool: Tool, context: ReadonlyContext): boolean {
    if (typeof this.toolFilter === "function") return this.toolFilter(tool, context);
    return this.toolFilter.length === 0 || this.toolFilter.includes(tool.name);
  }

  /** Changes the outgoing model request before its tools do (ADK's order); the default does nothing. */
  async processLlmRequest(_toolContext: Context, _llmRequest: LlmRequest): Promise<void> {}
}

/** Whether a value is a {@link BaseToolset} (ADK's check). */
export function isBaseToolset(value: unknown): value is BaseToolset {
  return isOfKind(value, BaseToolset, "BaseToolset");
}
