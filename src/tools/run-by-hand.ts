import { ConfigurationError, InvalidArgumentsError, type ToolsmithErrorCode } from "../errors/toolsmith-error.js";
import { checkToolArguments } from "./argument-limits.js";
import type { Tool } from "./tool.js";
import type { ToolContext } from "./tool-context.js";
import { confirmationHint } from "./tool-result.js";

/**
 * A tool called by hand (`tool.runAsync({ args, toolContext })`, as ADK programs call tools), run as a run would
 * run it: the arguments checked first, defaults filled (bad ones throw {@link InvalidArgumentsError} with the
 * message the model would get), and a call the tool holds for a person's confirmation asked for and answered with
 * ADK's texts until it is confirmed, instead of run. A tool that hears declined calls itself (`runsWhenDeclined`)
 * gets them.
 */
export async function runByHand(tool: Tool, args: Record<string, unknown> | undefined, toolContext: ToolContext | undefined): Promise<unknown> {
  const checked = checkToolArguments(tool, args ?? {});
  if (!checked.ok) {
    const code = checked.result.code === undefined ? "INVALID_ARGUMENTS" : String(checked.result.code);
    throw new InvalidArgumentsError(code as ToolsmithErrorCode, String(checked.result.error));
  }
  if (tool.requiresConfirmation && (await tool.requiresConfirmation(checked.value, toolContext!))) {
    if (!toolContext) throw new ConfigurationError("NO_TOOL_CONTEXT", `Tool "${tool.name}" needs a confirmation to run, which it asks through its tool context: pass runAsync({ args, toolContext }).`);
    const confirmation = toolContext.toolConfirmation;
    if (!confirmation) {
      toolContext.requestConfirmation({ hint: confirmationHint(tool.name, checked.value) });
      return { error: "This tool call requires confirmation, please approve or reject." };
    }
    if (!confirmation.confirmed && !tool.runsWhenDeclined) return { error: "This tool call is rejected." };
  }
  return tool.run(checked.value, toolContext!);
}
