import { compileSchemaCheck } from "./compile-schema-check.js";
import { setOwnField } from "../content/own-field.js";
import type { ArgumentsCheck, JsonSchema } from "./tool.js";

/** A compiled check of tool arguments. */
type ArgumentsChecker = (args: Record<string, unknown>) => ArgumentsCheck;

const compiled = new WeakMap<JsonSchema, ArgumentsChecker>();
const compiledWithoutRegexes = new WeakMap<JsonSchema, ArgumentsChecker>();

/** Keeps a check just compiled for `schema` in `cache`, and returns it. */
function remember(cache: WeakMap<JsonSchema, ArgumentsChecker>, schema: JsonSchema, check: ArgumentsChecker): ArgumentsChecker {
  cache.set(schema, check);
  return check;
}

/**
 * Compiles a JSON Schema once (cached per schema object) into a check of tool
 * arguments. The draft is the one `$schema` names (draft-04 to 2020-12), and
 * 2020-12 when it names none. Defaults in the schema are filled in on a copy
 * of the arguments. Formats the validator does not know pass, as JSON Schema
 * asks, and print nothing.
 *
 * @throws ConfigurationError `INVALID_TOOL_SCHEMA` when a `$ref` leads
 *   nowhere or two parts of the schema claim the same `$id`.
 */
export function compileArgumentsCheck(schema: JsonSchema, toolName: string): ArgumentsChecker {
  // Looked up on every tool call: a hit allocates nothing.
  return compiled.get(schema) ?? remember(compiled, schema, compileSchemaCheck(schema, toolName));
}

/**
 * {@link compileArgumentsCheck} for a schema a third party wrote (an MCP
 * server's, an OpenAPI document's): its regular expressions (`pattern`,
 * `patternProperties`) are not run in this process. JavaScript's regular
 * expressions backtrack, and `^(a+)+$` took about 40 s on 31 characters with
 * the event loop blocked, stopping every run of a server. The model still
 * sees them in the declaration, and the server, which owns the schema,
 * checks its own input.
 */
export function compileThirdPartyArgumentsCheck(schema: JsonSchema, toolName: string): ArgumentsChecker {
  return compiledWithoutRegexes.get(schema) ?? remember(compiledWithoutRegexes, schema, compileSchemaCheck(schemaWithoutRegexes(schema) as JsonSchema, toolName));
}

/** Keywords whose value is a schema. */
const SCHEMA_KEYWORDS = new Set(["items", "additionalItems", "additionalProperties", "unevaluatedItems", "unevaluatedProperties", "contains", "propertyNames", "not", "if", "then", "else"]);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LIST_KEYWORDS = new Set(["allOf", "anyOf", "oneOf", "prefixItems", "items"]);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = new Set(["properties", "$defs", "definitions", "dependentSchemas"]);

/**
 * A copy of the schema without `pattern`, and without `patternProperties`
 * (with the `additionalProperties` it limits, so names those patterns would
 * allow are not refused). Only schema positions are changed: a property named
 * `pattern`, or a `pattern` inside `default` or `enum`, stays.
 */
export function schemaWithoutRegexes(schema: unknown, depth = 0): unknown {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema) || depth > 256) return schema;
  const result: Record<string, unknown> = {};
  const hasPatternProperties = Object.hasOwn(schema, "patternProperties");
  for (const [key, value] of Object.entries(schema)) {
    if (key === "pattern" && typeof value === "string") continue;
    if (key === "patternProperties" || (hasPatternProperties && key === "additionalProperties")) continue;
    let kept = value;
    if (SCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value)) kept = value.map((inner) => schemaWithoutRegexes(inner, depth + 1));
    else if (SCHEMA_KEYWORDS.has(key)) kept = schemaWithoutRegexes(value, depth + 1);
    else if (SCHEMA_MAP_KEYWORDS.has(key) && typeof value === "object" && value !== null) {
      const map: Record<string, unknown> = {};
      for (const [name, inner] of Object.entries(value)) setOwnField(map, name, schemaWithoutRegexes(inner, depth + 1));
      kept = map;
    }
    setOwnField(result, key, kept);
  }
  return result;
}
