import type { Tool, ToolUnion } from "../tool.js";
import type { ToolContext } from "../tool-context.js";
import { mapToolUnions } from "../toolset-wrappers.js";
import { forwardTool } from "../forward-tool.js";

/** Tool name → ask first: `true` always, or a function deciding per call. */
export type InterruptOn = Record<string, boolean | ((args: Record<string, unknown>, context: ToolContext) => boolean | Promise<boolean>)>;

/**
 * The tools, with those named in `interruptOn` asking a person before they
 * run, through the runner's confirmation flow (`adk_request_confirmation`).
 * A tool that already asks keeps asking.
 */
export function applyInterruptOn(tools: readonly Tool[], interruptOn: InterruptOn | undefined): Tool[] {
  return tools.map((tool) => askingTool(tool, interruptOn));
}

/** {@link applyInterruptOn} over a tools list that may hold toolsets: their tools ask as they are given. */
export function applyInterruptOnToAll(entries: readonly ToolUnion[], interruptOn: InterruptOn | undefined): ToolUnion[] {
  if (!interruptOn) return [...entries];
  return mapToolUnions(entries, (tool) => askingTool(tool, interruptOn));
}

/** The tool, asking first when `interruptOn` names it. */
export function askingTool(tool: Tool, interruptOn: InterruptOn | undefined): Tool {
  const rule = interruptOn && Object.hasOwn(interruptOn, tool.name) ? interruptOn[tool.name] : undefined;
  if (rule === undefined || rule === false) return tool;
  return forwardTool(tool, {
    requiresConfirmation: async (args, context) => {
      if (tool.requiresConfirmation && (await tool.requiresConfirmation(args, context))) return true;
      return typeof rule === "function" ? rule(args, context) : true;
    },
  });
}
