import { createRequire } from "node:module";
import type { z } from "zod";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { compileArgumentsCheck } from "./json-schema-validator.js";
import { jsonSchemaOfGenaiSchema } from "./base-tool.js";
import type { ArgumentIssue, ArgumentsCheck, JsonSchema } from "./tool.js";

/** A zod 3 schema (the `zod@3` package, or `zod/v3`), as ADK's TypeScript accepts it. */
export interface Zod3Schema {
  readonly _def: unknown;
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { issues: Array<{ path: Array<string | number>; message: string; code: string; keys?: string[] }> } };
}

/**
 * A tool's parameters, describing an object whose fields are the arguments: a zod schema (checked with
 * zod; zod 3 schemas too), a JSON Schema (checked with @cfworker/json-schema), or a `@google/genai` Schema
 * (`type: Type.OBJECT`), read as the JSON Schema it means.
 */
export type ToolParameters = z.ZodType | Zod3Schema | JsonSchema;

/** Whether the parameters are a zod 4 schema. */
export function isZodSchema(parameters: unknown): parameters is z.ZodType {
  return typeof parameters === "object" && parameters !== null && "_zod" in parameters;
}

/** Whether the parameters are a zod 3 schema (no `_zod`, but zod 3's `_def` and `safeParse`). */
export function isZod3Schema(parameters: unknown): parameters is Zod3Schema {
  return typeof parameters === "object" && parameters !== null && !("_zod" in parameters) && "_def" in parameters && typeof (parameters as Zod3Schema).safeParse === "function";
}

/** Whether a JSON-like schema is in `@google/genai`'s dialect: upper-case type names (`OBJECT`, `STRING`). */
export function isGenaiSchema(schema: unknown): boolean {
  const type = (schema as { type?: unknown } | undefined)?.type;
  return typeof type === "string" && type.length > 0 && type === type.toUpperCase();
}

const EMPTY_OBJECT_SCHEMA: JsonSchema = { type: "object", properties: {} };

/**
 * The JSON Schema of the parameters, as the model is shown them. Parameters that describe anything but an
 * object (a bare string, say) are refused here, when the tool is made: seed 001 says so, and a provider
 * would otherwise drop them.
 */
export function parametersToJsonSchema(parameters: ToolParameters | undefined, toolName: string): JsonSchema {
  if (parameters === undefined) return EMPTY_OBJECT_SCHEMA;
  const schema = schemaToJsonSchema(parameters, toolName);
  const type = (schema as { type?: unknown }).type;
  if (type !== undefined && type !== "object") {
    throw new ConfigurationError(
      "INVALID_TOOL_SCHEMA",
      `The parameters of tool "${toolName}" describe ${JSON.stringify(type)}, not an object: a tool's arguments are the fields of an object. Wrap the value in one, such as z.object({ value: z.string() }) or { type: "object", properties: { value: { type: "string" } } }.`,
    );
  }
  return schema;
}

/**
 * Any schema toolsmith takes (zod 4, zod 3, a `@google/genai` Schema, JSON Schema) as the JSON Schema it
 * means, whatever it describes; `label` names it in errors. Tool parameters add the object check above;
 * an agent's `outputSchema` and `inputSchema` come through here too.
 */
export function schemaToJsonSchema(schema: ToolParameters, label: string): JsonSchema {
  try {
    if (isZodSchema(schema)) return zodToJsonSchema(schema);
    if (isZod3Schema(schema)) return zod3ToJsonSchema(schema);
    return isGenaiSchema(schema) ? (jsonSchemaOfGenaiSchema(schema as Record<string, unknown>) as JsonSchema) : (schema as JsonSchema);
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
    throw new ConfigurationError("INVALID_TOOL_SCHEMA", `The zod parameters of tool "${label}" cannot be expressed as JSON Schema: ${(error as Error).message}`, { cause: error });
  }
}

/** A zod 3 schema as JSON Schema, by `zod-to-json-schema` (an optional peer, loaded only for zod 3 schemas). */
function zod3ToJsonSchema(schema: Zod3Schema): JsonSchema {
  const { $schema: _dialect, ...converted } = convertZod3(schema, { target: "jsonSchema7", $refStrategy: "none" }) as Record<string, unknown>;
  return converted as JsonSchema;
}

/** `zod-to-json-schema`'s `zodToJsonSchema(schema, options)`, loaded on first need (zod 3 schemas only). */
export function convertZod3(schema: Zod3Schema, options: object): unknown {
  let convert: (schema: unknown, options: object) => unknown;
  try {
    convert = (createRequire(import.meta.url)("zod-to-json-schema") as { zodToJsonSchema: typeof convert }).zodToJsonSchema;
  } catch (error) {
    throw new ConfigurationError("MISSING_PACKAGE", "A zod 3 schema needs the zod-to-json-schema package to describe it to the model: npm install zod-to-json-schema. (zod 4 schemas need nothing more.)", { cause: error });
  }
  return convert(schema, options);
}

/**
 * zod is an optional peer that toolsmith never loads by itself: a zod schema's
 * own `toJSONSchema` method (zod 4.2 and later) converts it with the user's zod.
 * Schemas without the method (zod 4.0, 4.1, zod/mini) go through zod's function,
 * loaded on first need.
 */
function zodToJsonSchema(schema: z.ZodType): JsonSchema {
  return convertZod4(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
}

/** zod 4's `toJSONSchema(schema, options)`, by the schema's own method or, without one, zod's function (see above). */
export function convertZod4(schema: z.ZodType, options: object): unknown {
  const method = (schema as { toJSONSchema?: (options: object) => unknown }).toJSONSchema;
  if (typeof method === "function") return method.call(schema, options);
  const core = createRequire(import.meta.url)("zod/v4/core") as { toJSONSchema: (schema: unknown, options: object) => unknown };
  return core.toJSONSchema(schema, options);
}

/** A check of arguments against the parameters, compiled once. */
export function createArgumentsCheck(parameters: ToolParameters | undefined, toolName: string): (args: Record<string, unknown>) => ArgumentsCheck {
  if (isZodSchema(parameters) || isZod3Schema(parameters)) {
    return (args) => {
      const result = parameters.safeParse(args);
      if (result.success) return { ok: true, value: result.data as Record<string, unknown> };
      return { ok: false, issues: result.error.issues.map(zodIssueToArgumentIssue) };
    };
  }
  return compileArgumentsCheck(parameters === undefined ? EMPTY_OBJECT_SCHEMA : parametersToJsonSchema(parameters, toolName), toolName);
}

function zodIssueToArgumentIssue(issue: { path: ReadonlyArray<PropertyKey>; message: string; code: string; keys?: string[] }): ArgumentIssue {
  let field = "";
  for (const segment of issue.path) {
    field = typeof segment === "number" ? `${field}[${segment}]` : field ? `${field}.${String(segment)}` : String(segment);
  }
  if (issue.code === "unrecognized_keys") {
    return { field, problem: `has fields that are not allowed: ${(issue.keys ?? []).join(", ")}` };
  }
  return { field, problem: issue.message };
}
