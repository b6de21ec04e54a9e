/**
 * Test doubles that are part of the product: a scripted model, a model that
 * answers through a function, and small helpers, so agents can be tested and
 * demonstrated without a real model.
 *
 * @module toolsmith/testing
 */
export { ScriptedModel, ScriptError, type ScriptedStep, type ScriptedAnswer } from "./scripted-model.js";
export { ScriptedLiveModel, type ScriptedLiveStep, type ScriptedLiveModelOptions, type ScriptedLiveConnection, type LiveSent, type LiveTurn } from "./scripted-live-model.js";
export { FunctionModel, type FunctionModelOptions } from "./function-model.js";
export { textResponse, functionCallsResponse, userMessage, collect } from "./responses.js";
export { lastUserText, lastFunctionResponse, streamedText } from "./request-helpers.js";
