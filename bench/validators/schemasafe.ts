/**
 * Candidate: @exodus/schemasafe, which compiles a schema to code like ajv and
 * reads every draft by its `$schema`. Its errors carry only locations, so the
 * wording is made from the schema (issueAt). It refuses a format it does not
 * know, and any format on a non-string (OpenAPI's `integer` with `int64`), so
 * this wrapper first drops the formats it does not know, which JSON Schema
 * says to ignore anyway.
 */
import { createRequire } from "node:module";
import { validator, type Schema } from "@exodus/schemasafe";
import type { JsonSchema } from "../../src/tools/tool.js";
import { cachingValidator, issueAt, type ArgumentsValidator } from "./argument-validator.js";

const knownFormats = createRequire(import.meta.url)("@exodus/schemasafe/src/formats.js") as Record<"core" | "extra" | "weak", Record<string, unknown>>;
const KNOWN = new Set(Object.values(knownFormats).flatMap(Object.keys));
const DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema";
const DATA_KEYWORDS = new Set(["const", "default", "enum", "examples", "example"]);

export function createValidator(): ArgumentsValidator {
  return cachingValidator((schema: JsonSchema) => {
    const known = withoutUnknownFormats(schema) as JsonSchema;
    const validate = validator(known as Schema, { mode: "spec", includeErrors: true, allErrors: true, useDefaults: true, $schemaDefault: DRAFT_2020 } as never);
    return (args) => {
      const copy = structuredClone(args);
      if (validate(copy as never)) return { ok: true, value: copy };
      return { ok: false, issues: (validate.errors ?? []).map((error) => issueAt(known, error.keywordLocation, error.instanceLocation)) };
    };
  });
}

function withoutUnknownFormats(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutUnknownFormats);
  if (typeof node !== "object" || node === null) return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "format" && typeof value === "string" && !KNOWN.has(value)) continue;
    result[key] = DATA_KEYWORDS.has(key) ? value : withoutUnknownFormats(value);
  }
  return result;
}

const shared = createValidator();
export const compileArgumentsCheck: ArgumentsValidator["compile"] = (schema, toolName) => shared.compile(schema, toolName);
