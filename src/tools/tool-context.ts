/**
 * `ToolContext`, ADK 1's name for the context a tool receives: the same class
 * as ADK 2's {@link Context}, which callbacks receive too.
 */
export { Context as ToolContext, type ConfirmationRequest } from "../agents/context.js";
