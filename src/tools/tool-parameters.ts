import { createRequire } from "node:module";
import type { z } from "zod";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { compileArgumentsCheck } from "./json-schema-validator.js";
import type { ArgumentIssue, ArgumentsCheck, JsonSchema } from "./tool.js";

/** A tool's parameters: a zod schema (checked with zod) or a JSON Schema (checked with @cfworker/json-schema). */
export type ToolParameters = z.ZodType | JsonSchema;

/** Whether the parameters are a zod schema. */
export function isZodSchema(parameters: unknown): parameters is z.ZodType {
  return typeof parameters === "object" && parameters !== null && "_zod" in parameters;
}

const EMPTY_OBJECT_SCHEMA: JsonSchema = { type: "object", properties: {} };

/** The JSON Schema of the parameters, as the model is shown them. */
export function parametersToJsonSchema(parameters: ToolParameters | undefined, toolName: string): JsonSchema {
  if (parameters === undefined) return EMPTY_OBJECT_SCHEMA;
  if (!isZodSchema(parameters)) return parameters;
  try {
    return zodToJsonSchema(parameters);
  } catch (error) {
    throw new ConfigurationError(
      "INVALID_TOOL_SCHEMA",
      `The zod parameters of tool "${toolName}" cannot be expressed as JSON Schema: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/**
 * zod is an optional peer that toolsmith never loads by itself: a zod schema's
 * own `toJSONSchema` method (zod 4.2 and later) converts it with the user's zod.
 * Schemas without the method (zod 4.0, 4.1, zod/mini) go through zod's function,
 * loaded on first need.
 */
function zodToJsonSchema(schema: z.ZodType): JsonSchema {
  const options = { io: "input", unrepresentable: "any" } as const;
  const method = (schema as { toJSONSchema?: (options: object) => unknown }).toJSONSchema;
  if (typeof method === "function") return method.call(schema, options) as JsonSchema;
  const core = createRequire(import.meta.url)("zod/v4/core") as { toJSONSchema: (schema: unknown, options: object) => unknown };
  return core.toJSONSchema(schema, options) as JsonSchema;
}

/** A check of arguments against the parameters, compiled once. */
export function createArgumentsCheck(parameters: ToolParameters | undefined, toolName: string): (args: Record<string, unknown>) => ArgumentsCheck {
  if (isZodSchema(parameters)) {
    return (args) => {
      const result = parameters.safeParse(args);
      if (result.success) return { ok: true, value: result.data as Record<string, unknown> };
      return { ok: false, issues: result.error.issues.map(zodIssueToArgumentIssue) };
    };
  }
  return compileArgumentsCheck(parameters ?? EMPTY_OBJECT_SCHEMA, toolName);
}

function zodIssueToArgumentIssue(issue: z.core.$ZodIssue): ArgumentIssue {
  let field = "";
  for (const segment of issue.path) {
    field = typeof segment === "number" ? `${field}[${segment}]` : field ? `${field}.${String(segment)}` : String(segment);
  }
  if (issue.code === "unrecognized_keys") {
    return { field, problem: `has fields that are not allowed: ${issue.keys.join(", ")}` };
  }
  return { field, problem: issue.message };
}
