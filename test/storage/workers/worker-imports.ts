/** What the worker processes use, in one place so their imports stay short. */
export { createEvent, createSessionService, StaleSessionError } from "../../../src/index.js";
export { userMessage } from "../../../src/testing/index.js";
