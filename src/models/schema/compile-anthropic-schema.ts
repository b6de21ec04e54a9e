import type { JsonSchema } from "../function-declaration.js";
import { objectRoot } from "./object-root.js";
import type { SchemaFinding } from "./schema-finding.js";

/** An Anthropic tool's `input_schema`. */
export interface AnthropicCompiledSchema {
  schema: JsonSchema;
  findings: SchemaFinding[];
}

/**
 * Compiles a JSON Schema to Anthropic's `input_schema`. Claude takes JSON
 * Schema as it is, except that the root must be `type: "object"` without a
 * top-level `anyOf`/`oneOf`/`allOf`; `$schema` is left out.
 */
export function compileAnthropicSchema(parameters: JsonSchema | undefined): AnthropicCompiledSchema {
  const findings: SchemaFinding[] = [];
  const schema = objectRoot(parameters ?? { type: "object", properties: {} }, findings);
  if (Array.isArray(schema.allOf)) {
    findings.push({ path: "", keyword: "allOf", effect: "weakened", message: "Anthropic rejects allOf at the root: it was left out, and toolsmith still checks it when the tool is called" });
    delete schema.allOf;
  }
  return { schema, findings };
}
