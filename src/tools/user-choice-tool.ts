import { LongRunningFunctionTool } from "./function-tool.js";
import { waitForThePerson } from "./request-input-tool.js";

/**
 * ADK's `get_user_choice`: the model offers the user a list of options and the run ends waiting for the choice,
 * which the client sends as the call's `functionResponse` in the next run (see the README, long-running tools).
 * Meanwhile the call holds a paused placeholder, and no summary is asked of the model (`skipSummarization`).
 * ADK marks the tool experimental; its name, description and parameter are ADK's.
 */
export const getUserChoiceTool = new LongRunningFunctionTool({
  name: "get_user_choice",
  description: "Presents a list of options to the user and awaits their selection.",
  // JSON Schema rather than zod: the root entry must load without zod, an optional peer.
  parameters: { type: "object", properties: { options: { type: "array", items: { type: "string" }, description: "List of options to present to the user." } }, required: ["options"] },
  execute: waitForThePerson,
});
