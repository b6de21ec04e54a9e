import { ToolsmithError } from "../errors/toolsmith-error.js";

/** The exit codes of the `toolsmith` command, documented in the README. */
export const EXIT = {
  /** Done. */
  OK: 0,
  /** Something failed that is not the user's input: see the message, rerun with --verbose. */
  FAILURE: 1,
  /** The command line is wrong: unknown command or option, missing argument, bad JSON. */
  USAGE: 2,
  /** The setup is wrong: agents directory, app, module without rootAgent, service URI, unknown tool, missing session, port in use. */
  CONFIGURATION: 3,
  /** `call`: the tool answered with an error result. `run`: the run ended with an error event. */
  TOOL_OR_RUN_ERROR: 4,
  /** `eval`: a criterion of an eval case fell below its threshold. */
  EVAL_FAILED: 5,
  /** Interrupted (Ctrl-C). */
  INTERRUPTED: 130,
} as const;

/** A problem with the command line itself: the command exits with {@link EXIT.USAGE}. */
export class UsageError extends ToolsmithError {
  constructor(message: string) {
    super("CLI_USAGE", message);
  }
}
