import { isToolsmithError } from "../errors/toolsmith-error.js";
import { compileArgumentsCheck } from "./json-schema-validator.js";
import type { ArgumentIssue, ArgumentsCheck, Tool } from "./tool.js";
import { invalidArgumentsResult, toolErrorResult } from "./tool-result.js";
import { endSentence } from "../errors/sentence.js";

/** How deep arguments may nest (objects and arrays); deeper ones are refused before any schema check. */
export const MAX_ARGUMENT_DEPTH = 64;

/** How many values (objects, arrays, strings, numbers…) arguments may hold in all. */
export const MAX_ARGUMENT_VALUES = 100_000;

/**
 * What is wrong with arguments whatever the tool's schema says, found in one
 * walk before the schema check, so that no validator, copy or tool ever meets
 * them:
 * - a number that is not finite (`Infinity`, `-Infinity`, `NaN`): JSON has no
 *   such numbers, some validators let them through `number` fields, and a
 *   stored event would record them as `null`, not as what the tool received;
 * - a `__proto__` key: copying it by assignment changes the copy's prototype,
 *   which lets fields past a strict schema and hides them from the stored
 *   event (`constructor` and `prototype` are plain data keys and may stay);
 * - nesting deeper than {@link MAX_ARGUMENT_DEPTH} or more than
 *   {@link MAX_ARGUMENT_VALUES} values, which would overflow the stack of a
 *   recursive validator or copy.
 * Returns the issues, at most one per field; none means the arguments are
 * plain JSON-like data the checks can take.
 */
export function argumentShapeIssues(args: unknown): ArgumentIssue[] {
  const issues: ArgumentIssue[] = [];
  let values = 0;
  // An explicit stack, so hostile nesting cannot overflow this walk either.
  const stack: Array<{ value: unknown; field: string; depth: number }> = [{ value: args, field: "", depth: 0 }];
  while (stack.length > 0) {
    const { value, field, depth } = stack.pop()!;
    if (++values > MAX_ARGUMENT_VALUES) {
      issues.push({ field: "", problem: `holds more than ${MAX_ARGUMENT_VALUES} values; send less data at once` });
      break;
    }
    if (typeof value === "number") {
      if (!Number.isFinite(value)) issues.push({ field, problem: `must be a finite number, not ${String(value)}` });
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (depth >= MAX_ARGUMENT_DEPTH) {
      issues.push({ field, problem: `is nested deeper than ${MAX_ARGUMENT_DEPTH} levels; send flatter data` });
      continue;
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push({ value: item, field: `${field}[${index}]`, depth: depth + 1 }));
      continue;
    }
    for (const key of Object.keys(value)) {
      const inner = field ? `${field}.${key}` : key;
      if (key === "__proto__") {
        issues.push({ field: inner, problem: "is not allowed as a field name" });
        continue;
      }
      stack.push({ value: (value as Record<string, unknown>)[key], field: inner, depth: depth + 1 });
    }
  }
  return issues;
}

/** The outcome of {@link checkToolArguments}: the arguments the tool gets, or the error result the model gets. */
export type ToolArgumentsOutcome = { ok: true; value: Record<string, unknown> } | { ok: false; result: Record<string, unknown> };

/**
 * Checks a call's arguments for `tool`, never throwing: first their shape
 * ({@link argumentShapeIssues}), then the tool's own check or its declared
 * schema. A schema that cannot be compiled (a `$ref` that leads nowhere, one
 * nested too deep to copy) makes an error result saying the tool cannot be
 * used now, with its `code`, instead of an exception out of the run.
 */
export function checkToolArguments(tool: Tool, args: Record<string, unknown>): ToolArgumentsOutcome {
  const shapeIssues = argumentShapeIssues(args);
  if (shapeIssues.length > 0) return { ok: false, result: invalidArgumentsResult(tool.name, shapeIssues) };
  let checked: ArgumentsCheck;
  try {
    if (tool.checkArguments) checked = tool.checkArguments(args);
    else {
      const schema = tool.declaration()?.parameters;
      checked = schema ? compileArgumentsCheck(schema, tool.name)(args) : { ok: true, value: args };
    }
  } catch (error) {
    const code = isToolsmithError(error) ? error.code : error instanceof RangeError ? "INVALID_TOOL_SCHEMA" : "TOOL_UNUSABLE";
    return {
      ok: false,
      result: toolErrorResult(`Tool "${tool.name}" cannot check its arguments, so it cannot be used now: ${endSentence((error as Error)?.message ?? String(error))} Do without it, or tell the user it is broken.`, { code }),
    };
  }
  return checked.ok ? checked : { ok: false, result: invalidArgumentsResult(tool.name, checked.issues) };
}
