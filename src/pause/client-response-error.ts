import { ToolsmithError } from "../errors/toolsmith-error.js";

/**
 * A client's answer refused before anything was stored: an answer to a request that does not exist or was already
 * answered, or one that is not a valid answer. An answer that does not bind to the call it claims to approve is an
 * {@link IntentMismatchError}, ADK's name, which is one of these.
 */
export class ClientResponseError extends ToolsmithError {}
