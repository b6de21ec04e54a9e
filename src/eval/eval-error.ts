import { ToolsmithError } from "../errors/toolsmith-error.js";

/** An eval set, a criteria file or an eval case could not be read, found or stored; the message says which and what to fix. */
export class EvalError extends ToolsmithError {}
