/**
 * What each candidate JSON Schema library is wrapped into for the comparison:
 * the same contract as src/tools/json-schema-validator.ts, so the suite's own
 * validation tests can run against any of them (see suite.config.ts).
 */
import { ConfigurationError } from "../../src/errors/toolsmith-error.js";
import { pointerToField } from "../../src/tools/argument-issues.js";
import type { ArgumentIssue, ArgumentsCheck, JsonSchema } from "../../src/tools/tool.js";

/** A check of one tool's arguments. */
export type ArgumentsChecker = (args: Record<string, unknown>) => ArgumentsCheck;

/** A validator with its own state (instances, caches), so that each measurement can start from nothing. */
export interface ArgumentsValidator {
  compile(schema: JsonSchema, toolName: string): ArgumentsChecker;
}

/**
 * A validator whose checks are compiled once per schema object, and whose
 * compile failures are toolsmith's INVALID_TOOL_SCHEMA, as in src.
 */
export function cachingValidator(compileOne: (schema: JsonSchema, toolName: string) => ArgumentsChecker): ArgumentsValidator {
  const compiled = new WeakMap<JsonSchema, ArgumentsChecker>();
  return {
    compile(schema, toolName) {
      let check = compiled.get(schema);
      if (!check) {
        try {
          check = compileOne(schema, toolName);
        } catch (error) {
          if (error instanceof ConfigurationError) throw error;
          throw new ConfigurationError("INVALID_TOOL_SCHEMA", `The parameters schema of tool "${toolName}" is not a valid JSON Schema: ${(error as Error).message}. Fix the schema.`, { cause: error });
        }
        compiled.set(schema, check);
      }
      return check;
    },
  };
}

/** The dialect a schema declares: draft-04 to 07 by name, anything else (or nothing) as 2020-12. */
export function declaredDraft(schema: JsonSchema): "4" | "6" | "7" | "2019-09" | "2020-12" {
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  const match = /draft-0([4-7])/.exec(dialect);
  if (match) return match[1] === "5" ? "4" : (match[1] as "4" | "6" | "7");
  return dialect.includes("2019-09") ? "2019-09" : "2020-12";
}

/**
 * An issue from where a library says an error is (a keyword location in the
 * schema, an instance location in the arguments), worded from the schema's
 * own value as toolsmith words ajv's errors, for the libraries whose errors
 * carry no message (schemasafe) or another wording (cfworker).
 */
export function issueAt(schema: JsonSchema, keywordLocation: string, instanceLocation: string): ArgumentIssue {
  const field = pointerToField(decodeURIComponent(instanceLocation.replace(/^#/, "")));
  const path = decodeURIComponent(keywordLocation.replace(/^#\/?/, ""))
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
  const keyword = path.at(-1) ?? "";
  const value = path.reduce<unknown>((node, segment) => (node as Record<string, unknown> | undefined)?.[segment], schema);
  const limit = String(value);
  const problems: Record<string, string> = {
    required: "is required but missing",
    additionalProperties: "is not an allowed field",
    enum: `must be one of ${JSON.stringify(value)}`,
    type: `must be ${Array.isArray(value) ? value.join(",") : limit}`,
    maximum: `must be <= ${limit}`,
    minimum: `must be >= ${limit}`,
    exclusiveMaximum: `must be < ${limit}`,
    exclusiveMinimum: `must be > ${limit}`,
    maxLength: `must NOT have more than ${limit} characters`,
    minLength: `must NOT have fewer than ${limit} characters`,
    maxItems: `must NOT have more than ${limit} items`,
    minItems: `must NOT have fewer than ${limit} items`,
    pattern: `must match pattern "${limit}"`,
    format: `must match format "${limit}"`,
    const: "must be equal to constant",
  };
  return { field, problem: problems[keyword] ?? `fails the "${keyword}" rule` };
}
