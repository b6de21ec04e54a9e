import { ToolsmithError } from "./toolsmith-error.js";
import { endSentence, thrownMessage } from "./sentence.js";

/** A callback of the agent's that threw: the run ends with an error event carrying this code and message. */
export class CallbackError extends ToolsmithError {}

/** The error for a callback (named by `label`, such as `"beforeModelCallback"`) that threw, saying what to do. */
export function callbackFailure(label: string, error: unknown): CallbackError {
  if (error instanceof CallbackError) return error;
  return new CallbackError("CALLBACK_FAILED", `The agent's ${label} threw: ${endSentence(thrownMessage(error))} The run stopped there; fix the callback, or catch the error in it and return a value.`, { cause: error });
}
