/**
 * What the append worker uses, imported from the modules themselves rather
 * than the root entry, so each of the many worker processes starts sooner.
 */
export { createEvent } from "../../../src/events/event.js";
export { createSessionService } from "../../../src/services/create-session-service.js";
export { SharedStateConflictError, StaleSessionError } from "../../../src/errors/toolsmith-error.js";
export { userMessage } from "../../../src/testing/responses.js";
