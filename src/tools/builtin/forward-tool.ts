import type { Tool } from "../tool.js";

/** A tool that forwards every member to `tool`, except those given in `overrides`. */
export function forwardTool(tool: Tool, overrides: Partial<Pick<Tool, "run" | "requiresConfirmation">>): Tool {
  return {
    name: tool.name,
    description: tool.description,
    isLongRunning: tool.isLongRunning,
    timeoutMs: tool.timeoutMs,
    declaration: () => tool.declaration(),
    run: overrides.run ?? ((args, context) => tool.run(args, context)),
    checkArguments: tool.checkArguments && ((args) => tool.checkArguments!(args)),
    requiresConfirmation: overrides.requiresConfirmation ?? (tool.requiresConfirmation && ((args, context) => tool.requiresConfirmation!(args, context))),
    processLlmRequest: tool.processLlmRequest && ((params) => tool.processLlmRequest!(params)),
  };
}
