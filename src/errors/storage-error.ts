import { ToolsmithError } from "./toolsmith-error.js";

/**
 * A database or storage folder could not be used: it is unreachable, it is not
 * a toolsmith store, or it was written by a newer toolsmith. Nothing was
 * stored; the message says what to check.
 */
export class StorageError extends ToolsmithError {}
