import { thrownMessage } from "../errors/sentence.js";
import { jsonProblem } from "../sessions/json-value.js";
import type { ArgumentIssue } from "./tool.js";

/** Whether a value is a plain object (not an array, class instance or null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Any tool result as a function response object, as ADK 2.0 sends it: a plain
 * object as is; nothing (`undefined`) as `{}`; an array as `{results: [...]}`;
 * another object (a class instance) as its own enumerable fields, which is
 * what ADK's response becomes once serialised; anything else (a string, a
 * number, `null`, and objects with a `toJSON` such as a `Date`, which ADK
 * would send as a bare string) as `{result: value}`.
 */
export function normalizeToolResult(value: unknown): Record<string, unknown> {
  if (isPlainObject(value)) return value;
  if (value === undefined) return {};
  if (Array.isArray(value)) return { results: value };
  // Kept whole, so the check of the response names it: JSON would make it {}, and what it holds would be lost.
  if (value instanceof Map || value instanceof Set) return { result: value };
  // A copy rather than the instance: a stored event must read back the same after JSON.
  if (typeof value === "object" && value !== null && typeof (value as { toJSON?: unknown }).toJSON !== "function") return { ...value };
  return { result: value };
}

/** A function response that tells the model what went wrong and what to do. */
export function toolErrorResult(error: string, details: Record<string, unknown> = {}): Record<string, unknown> {
  return { status: "error", error, ...details };
}

/** What a person is asked when a call needs their confirmation: the tool and the arguments it would run with. */
export function confirmationHint(toolName: string, args: Record<string, unknown>): string {
  return `Please approve or reject the call to "${toolName}" with ${JSON.stringify(args)}.`;
}

/** The response to a call the person declined to confirm: it did not run. */
export function declinedCallResult(toolName: string): Record<string, unknown> {
  return toolErrorResult(`The user declined the call to "${toolName}", so it did not run. Do not call it again for this request unless the user asks.`);
}

/** The error response for arguments that failed the tool's schema, naming each bad field. */
export function invalidArgumentsResult(toolName: string, issues: readonly ArgumentIssue[]): Record<string, unknown> {
  const listed = issues.map((issue) => (issue.field ? `${issue.field}: ${issue.problem}` : issue.problem)).join("; ");
  return toolErrorResult(
    `Invalid arguments for tool "${toolName}": ${listed}. Call the tool again with arguments that match its schema.`,
    { invalidArguments: issues },
  );
}

/**
 * Why a tool's response would not reach the model and the session as the tool gave it (a bigint or a cycle, which
 * JSON refuses; a function, a Map, a Set or NaN, which it silently drops or changes), where in it, or nothing. A
 * `Date` or another object with `toJSON` is what JSON makes of it, and a class instance its own fields, as ADK's.
 * Most responses are small plain JSON, told so by a walk that allocates nothing; the rest get the full check.
 */
export function toolResultProblem(response: Record<string, unknown>): { path: string; reason: string } | undefined {
  // Reading a response runs its getters, proxies and toJSON: one that throws is a problem of the response, not of the run.
  try {
    return isPlainJson(response, 0) ? undefined : (jsonProblem(response, { instances: "asJson" }) ?? unwritableAsJson(response));
  } catch (error) {
    return { path: "", reason: `could not be read (${thrownMessage(error)})` };
  }
}

/** Why JSON.stringify fails on a response the walk found sound (a toJSON that throws), or nothing. */
function unwritableAsJson(response: Record<string, unknown>): { path: string; reason: string } | undefined {
  try {
    JSON.stringify(response);
    return undefined;
  } catch (error) {
    return { path: "", reason: `cannot be written as JSON (${thrownMessage(error)})` };
  }
}

/** Whether a value is strings, finite numbers, booleans, null, arrays and plain objects, at most 32 levels deep. */
function isPlainJson(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
    case "undefined":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object": {
      if (value === null) return true;
      if (depth > 32) return false;
      if (Array.isArray(value)) {
        for (let index = 0; index < value.length; index++) if (!isPlainJson(value[index], depth + 1)) return false;
        return true;
      }
      if (!isPlainObject(value)) return false;
      for (const key in value) if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}
