import type { LlmRequest } from "../models/llm-request.js";
import type { LlmResponse } from "../models/llm-response.js";
import type { Tool } from "../tools/tool.js";

import type { Context } from "../agents/context.js";
import { callbackFailure } from "../errors/callback-error.js";
import { callbackList, type OneOrMany } from "../agents/base-agent.js";

export type { OneOrMany };

/** Runs before a model call; returning a response skips the model. The request may be changed in place. */
export type BeforeModelCallback = (params: { context: Context; request: LlmRequest }) => LlmResponse | undefined | Promise<LlmResponse | undefined>;
/**
 * Runs after a model call; returning a response replaces the model's. When the call failed (and no
 * `onModelErrorCallback` answered), it runs too, with the error event's response and the `error`, as seed
 * 001 passes it: a response returned then replaces the error.
 */
export type AfterModelCallback = (params: { context: Context; response: LlmResponse; error?: Error }) => LlmResponse | undefined | Promise<LlmResponse | undefined>;
/** Runs when a model call fails; returning a response uses it instead of the error. */
export type OnModelErrorCallback = (params: { context: Context; request: LlmRequest; error: Error }) => LlmResponse | undefined | Promise<LlmResponse | undefined>;
/**
 * A callback over a tool call. Its parameter is checked the way TypeScript
 * checks methods (bivariantly), so a callback written for ADK, which types the
 * tool as `BaseTool`, is accepted: every tool toolsmith and ADK programs make
 * is a `BaseTool`; only a plain-object tool of your own is not.
 */
type ToolCallback<P> = { bivariant(params: P): unknown }["bivariant"];
/** Runs before a tool call; returning a value skips the tool and uses the value as its result. */
export type BeforeToolCallback = ToolCallback<{ tool: Tool; args: Record<string, unknown>; context: Context }>;
/**
 * Runs after a tool call; returning a value replaces the result. When the tool failed (and no
 * `onToolErrorCallback` answered), `response` is the error result and `error` what was thrown, as seed 001
 * passes it: a value returned then replaces the error result.
 */
export type AfterToolCallback = ToolCallback<{ tool: Tool; args: Record<string, unknown>; context: Context; response: Record<string, unknown>; error?: Error }>;
/** Runs when a tool throws or times out; returning a value uses it as the result instead of the error. */
export type OnToolErrorCallback = ToolCallback<{ tool: Tool; args: Record<string, unknown>; context: Context; error: Error }>;

/**
 * Calls the callbacks in order and returns the first value that is not
 * `undefined` (so `0`, `""`, `false` and `null` all count as answers). One
 * that throws fails with a {@link CallbackError} naming the callback
 * (`label`, such as `"beforeModelCallback"`), which ends the run with an error
 * event.
 */
export async function runCallbacks<P, R>(callbacks: OneOrMany<(params: P) => R> | undefined, params: P, label = "callback"): Promise<Awaited<R> | undefined> {
  for (const callback of callbackList(callbacks)) {
    let result: Awaited<R>;
    try {
      result = await callback(params);
    } catch (error) {
      throw callbackFailure(label, error);
    }
    if (result !== undefined) return result;
  }
  return undefined;
}
