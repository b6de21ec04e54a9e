import type { Tool } from "../tool.js";
import type { ToolContext } from "../tool-context.js";
import { forwardTool } from "./forward-tool.js";

/** Tool name → ask first: `true` always, or a function deciding per call. */
export type InterruptOn = Record<string, boolean | ((args: Record<string, unknown>, context: ToolContext) => boolean | Promise<boolean>)>;

/**
 * The tools, with those named in `interruptOn` asking a person before they
 * run, through the runner's confirmation flow (`adk_request_confirmation`).
 * A tool that already asks keeps asking.
 */
export function applyInterruptOn(tools: readonly Tool[], interruptOn: InterruptOn | undefined): Tool[] {
  if (!interruptOn) return [...tools];
  return tools.map((tool) => {
    const rule = interruptOn[tool.name];
    if (rule === undefined || rule === false) return tool;
    return forwardTool(tool, {
      requiresConfirmation: async (args, context) => {
        if (tool.requiresConfirmation && (await tool.requiresConfirmation(args, context))) return true;
        return typeof rule === "function" ? rule(args, context) : true;
      },
    });
  });
}
