import type { z } from "zod";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { convertZod3, convertZod4, isZod3Schema, isZodSchema, type Zod3Schema } from "./tool-parameters.js";

/**
 * A zod object schema (zod 4, or zod 3 through `zod-to-json-schema`) as a `@google/genai` `Schema`, made as ADK's
 * `zodObjectToSchema` makes it: zod's own OpenAPI 3.0 conversion of what the schema accepts as input, then type
 * names in capitals (`OBJECT`, `STRING`), `additionalProperties` and `readOnly` left out, length and item counts
 * as strings (the genai type's int64 fields), a `null` literal as type `NULL`, and no `pattern` beside the `email`
 * and `uuid` formats. toolsmith's tools take zod schemas as they are; this is for declarations written ADK's way
 * (`_getDeclaration()` returning `parameters: zodObjectToSchema(schema)`).
 *
 * Anything but a zod object is refused, as are fields JSON Schema cannot describe (a `bigint`, a `Date`), with a
 * `ConfigurationError` (`INVALID_TOOL_SCHEMA`) whose message holds ADK's (zod's reason, or "Expected a Zod Object").
 *
 * @example
 * ```ts
 * import { zodObjectToSchema } from "toolsmith";
 * import { z } from "zod";
 *
 * zodObjectToSchema(z.object({ city: z.string().describe("The city.") }));
 * // { type: "OBJECT", properties: { city: { type: "STRING", description: "The city." } }, required: ["city"] }
 * ```
 */
export function zodObjectToSchema(schema: z.ZodObject | Zod3Schema): Record<string, unknown> {
  try {
    if (isZodSchema(schema) && (schema as { _zod: { def: { type?: unknown } } })._zod.def.type === "object") {
      return convertZod4(schema, { target: "openapi-3.0", io: "input", override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => asGenaiSchemaNode(jsonSchema, 4) }) as Record<string, unknown>;
    }
    if (isZod3Schema(schema) && (schema._def as { typeName?: unknown }).typeName === "ZodObject") {
      return convertZod3(schema, { target: "openApi3", emailStrategy: "format:email", postProcess: (jsonSchema: Record<string, unknown> | undefined) => jsonSchema && asGenaiSchemaNode(jsonSchema, 3) }) as Record<string, unknown>;
    }
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
    throw new ConfigurationError("INVALID_TOOL_SCHEMA", `zodObjectToSchema: ${(error as Error).message}`, { cause: error });
  }
  throw new ConfigurationError("INVALID_TOOL_SCHEMA", "zodObjectToSchema: Expected a Zod Object (z.object({ … }), zod 4 or zod 3).");
}

/**
 * One node of zod's JSON Schema turned, in place, into `@google/genai`'s dialect, step for step as ADK's override
 * (zod 4) and post-processing (zod 3) do it; the two differ a little, and each is kept as ADK has it.
 */
function asGenaiSchemaNode(node: Record<string, unknown>, zodMajor: 3 | 4): Record<string, unknown> {
  if (node.additionalProperties !== undefined) delete node.additionalProperties;
  if (zodMajor === 4 && node.readOnly !== undefined) delete node.readOnly;
  for (const key of ["maxItems", "minItems", "minLength", "maxLength"]) if (node[key] !== undefined) node[key] = String(node[key]);
  if (zodMajor === 4 && (node.format === "email" || node.format === "uuid")) delete node.pattern;
  const values = node.enum as unknown[] | undefined;
  // zod 4 writes a null literal as `enum: [null]`, zod-to-json-schema as `enum: ["null"]`.
  if (values?.length === 1 && values[0] === (zodMajor === 4 ? null : "null")) {
    node.type = "NULL";
    delete node.enum;
  }
  if (zodMajor === 3 && node.type === "integer" && node.format !== "int64") {
    node.minimum ??= Number.MIN_SAFE_INTEGER;
    node.maximum ??= Number.MAX_SAFE_INTEGER;
  }
  if (node.type !== undefined) node.type = (node.type as string).toUpperCase();
  return node;
}
