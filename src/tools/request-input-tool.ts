import { LongRunningFunctionTool } from "./function-tool.js";
import type { ToolContext } from "./tool-context.js";

/** The name of ADK 2's input-request call, `adk_request_input`. */
export const REQUEST_INPUT_FUNCTION_CALL_NAME = "adk_request_input";

/**
 * ADK 2's `adk_request_input`: the model asks the person a question (`message`), optionally saying the shape of
 * the answer it expects (`response_schema`), and the run ends waiting for it. The client answers with the call's
 * `functionResponse` in the next run ({@link getPendingUserInputRequests} finds what is waiting). Meanwhile the
 * call holds a paused placeholder, as every long-running call that returns nothing does. Name, description and
 * parameters are ADK's.
 */
export const requestInputTool = new LongRunningFunctionTool({
  name: REQUEST_INPUT_FUNCTION_CALL_NAME,
  description: "Presents a custom message to the user and awaits unstructured or structured input.",
  // JSON Schema rather than zod: the root entry must load without zod, an optional peer.
  parameters: {
    type: "object",
    properties: {
      message: { type: "string", description: "The prompt for the user." },
      response_schema: { type: "object", description: "Expected schema of the response." },
    },
    required: ["message"],
  },
  execute: waitForThePerson,
});

/**
 * The `execute` of ADK's tools that ask the person (`adk_request_input`, `get_user_choice`): nothing to tell the
 * model until the person answers (a long-running tool that returns null leaves the run waiting), and no summary
 * asked of it meanwhile.
 */
export function waitForThePerson(_args: unknown, context: ToolContext): null {
  context.actions.skipSummarization = true;
  return null;
}
