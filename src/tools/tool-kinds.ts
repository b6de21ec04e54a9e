import { AgentTool } from "./agent-tool.js";
import { FunctionTool } from "./function-tool.js";
import { isOfKind } from "../platform/kind.js";

/** Whether a value is a {@link FunctionTool} (ADK's check; a `LongRunningFunctionTool` is one too). */
export function isFunctionTool(value: unknown): value is FunctionTool {
  return isOfKind(value, FunctionTool, "FunctionTool");
}

/** Whether a value is an {@link AgentTool} (ADK's check). */
export function isAgentTool(value: unknown): value is AgentTool {
  return isOfKind(value, AgentTool, "AgentTool");
}
