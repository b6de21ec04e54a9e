import { stopStreamingFunction } from "../agents/active-streaming-tool.js";
import { FunctionTool } from "./function-tool.js";

/** The name a live run recognises as the call that stops a streaming tool (ADK Python's). */
export const STOP_STREAMING_TOOL_NAME = "stop_streaming";

/**
 * `stop_streaming(function_name)`: lets the model stop a streaming tool it started in a live run, as ADK Python's
 * agents do with a function of that name and argument. Give it to an agent beside its streaming tools. In a live
 * run any tool named `stop_streaming` called with a `function_name` stops the stream (a function of your own of that
 * name is not run, as in ADK); it answers in ADK's words: `Successfully stopped streaming function <name>`, or
 * `No active streaming function named <name> found`.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({ name: "monitor", model, tools: [monitorStockPrice, stopStreamingTool] });
 * ```
 */
export const stopStreamingTool = new FunctionTool({
  name: STOP_STREAMING_TOOL_NAME,
  description: "Stop the streaming",
  parameters: {
    type: "object",
    properties: { function_name: { type: "string", description: "The name of the streaming function to stop." } },
    required: ["function_name"],
  },
  execute: ({ function_name }, context) => stopStreamingFunction(context.invocationContext.activeStreamingTools, String(function_name)),
});
