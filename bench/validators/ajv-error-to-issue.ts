import type { ErrorObject, ValidateFunction } from "ajv";
import { joinField, pointerToField } from "../../src/tools/argument-issues.js";
import type { ArgumentIssue, JsonSchema } from "../../src/tools/tool.js";
import type { ArgumentsChecker } from "./argument-validator.js";

/** One ajv error as toolsmith worded it while it used ajv: which field, and what is wrong with it. */
export function ajvErrorToIssue(error: ErrorObject): ArgumentIssue {
  const base = pointerToField(error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") return { field: joinField(base, String(params.missingProperty)), problem: "is required but missing" };
  if (error.keyword === "additionalProperties") return { field: joinField(base, String(params.additionalProperty)), problem: "is not an allowed field" };
  if (error.keyword === "enum") return { field: base, problem: `must be one of ${JSON.stringify(params.allowedValues)}` };
  return { field: base, problem: error.message ?? `fails the "${error.keyword}" rule` };
}

/** Compiles a schema (without its `$schema`, which the instance already chose) into a check of a copy of the arguments. */
export function ajvCheck(compile: (schema: JsonSchema) => ValidateFunction, schema: JsonSchema): ArgumentsChecker {
  const { $schema: _dialect, ...body } = schema;
  const validate = compile(body);
  return (args) => {
    const copy = structuredClone(args);
    return validate(copy) ? { ok: true, value: copy } : { ok: false, issues: (validate.errors ?? []).map(ajvErrorToIssue) };
  };
}
