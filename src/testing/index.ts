/**
 * Test doubles that are part of the product: a scripted model and small
 * helpers, so agents can be tested without a real model.
 *
 * @module toolsmith/testing
 */
export { ScriptedModel, ScriptError, type ScriptedStep } from "./scripted-model.js";
export { textResponse, functionCallsResponse, userMessage, collect } from "./responses.js";
