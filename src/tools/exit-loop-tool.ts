import { FunctionTool } from "./function-tool.js";

/**
 * Ends the enclosing `LoopAgent`: the call escalates, and its response is the
 * final one of the turn (no model call follows it).
 */
export const exitLoop = new FunctionTool({
  name: "exit_loop",
  description: "Call this only when the task is complete and the loop should stop.",
  execute: (_args, context) => {
    context.actions.escalate = true;
    context.actions.skipSummarization = true;
    return { status: "success" };
  },
});
