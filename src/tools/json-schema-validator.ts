import { compileSchemaCheck } from "./compile-schema-check.js";
import type { ArgumentsCheck, JsonSchema } from "./tool.js";

const compiled = new WeakMap<JsonSchema, (args: Record<string, unknown>) => ArgumentsCheck>();

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
export function compileArgumentsCheck(schema: JsonSchema, toolName: string): (args: Record<string, unknown>) => ArgumentsCheck {
  let check = compiled.get(schema);
  if (!check) {
    check = compileSchemaCheck(schema, toolName);
    compiled.set(schema, check);
  }
  return check;
}

