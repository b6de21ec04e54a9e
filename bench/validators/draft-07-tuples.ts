import type { JsonSchema } from "../../src/tools/tool.js";

/** Keywords whose value is data (a default, an example), never a schema to rewrite. */
const DATA_KEYWORDS = new Set(["const", "default", "enum", "examples", "example"]);
/** Keywords whose value maps names to schemas: its keys are names, not keywords. */
const NAMED_SCHEMAS = new Set(["properties", "patternProperties", "definitions", "$defs", "dependentSchemas", "dependencies"]);

/**
 * The schema with every draft-07 tuple in 2020-12 spelling: `items: [a, b]`
 * becomes `prefixItems: [a, b]`, and `additionalItems` becomes `items`. That
 * array form is the one thing draft-04 to 07 tool schemas say that a 2020-12
 * validator reads differently (it rejects it), so with this rewrite one
 * 2020-12 validator serves both. Everything else is returned as it was.
 */
export function draft07TuplesAs2020(schema: JsonSchema): JsonSchema {
  return rewrite(schema) as JsonSchema;
}

function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite);
  if (typeof node !== "object" || node === null) return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (DATA_KEYWORDS.has(key)) result[key] = value;
    else if (NAMED_SCHEMAS.has(key) && typeof value === "object" && value !== null && !Array.isArray(value)) {
      result[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, rewrite(schema)]));
    } else result[key] = rewrite(value);
  }
  if (Array.isArray(result.items)) {
    result.prefixItems = result.items;
    if ("additionalItems" in result) result.items = result.additionalItems;
    else delete result.items;
  }
  // Next to a single `items` schema, draft-07 ignores `additionalItems`; so must we.
  delete result.additionalItems;
  return result;
}
