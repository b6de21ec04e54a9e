import type { JsonSchema } from "../function-declaration.js";

/** A JSON Schema node: an object, or `true`/`false` (any value / no value). */
export type SchemaNode = JsonSchema | boolean;

/** Whether a value is a plain (non-array) object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The node as an object schema: `true` becomes `{}`, `false` becomes `{not: {}}`. */
export function asSchema(node: unknown): JsonSchema {
  if (node === false) return { not: {} };
  return isObject(node) ? node : {};
}

/** Keywords that describe or annotate and constrain nothing. */
export const ANNOTATION_KEYWORDS = new Set(["$schema", "$id", "$comment", "$anchor", "title", "description", "examples", "example", "default", "readOnly", "writeOnly", "deprecated"]);

/** Whether the schema accepts any JSON value (it has no constraining keyword). */
export function acceptsAnything(schema: JsonSchema): boolean {
  return Object.keys(schema).every((key) => ANNOTATION_KEYWORDS.has(key) || key === "$defs" || key === "definitions");
}

/** The `type` keyword as a list (empty when absent). */
export function typeList(schema: JsonSchema): string[] {
  const type = schema.type;
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((entry): entry is string => typeof entry === "string") : [];
}

/**
 * Follows a local `$ref` (`#`, `#/$defs/Name`, `#/definitions/Name` or any
 * JSON Pointer into the root). Returns undefined for remote or broken refs.
 */
export function resolveRef(ref: string, root: JsonSchema): JsonSchema | undefined {
  if (!ref.startsWith("#")) return undefined;
  let target: unknown = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(target) && !Array.isArray(target)) return undefined;
    target = (target as Record<string, unknown>)[segment];
  }
  return target === undefined ? undefined : asSchema(target);
}

/** The schema with local `$ref`s at its top followed (no deeper), bounded against ref cycles. */
export function derefShallow(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; hops < 32 && typeof current.$ref === "string"; hops++) {
    const target = resolveRef(current.$ref, root);
    if (!target) return current;
    const { $ref: _ref, ...siblings } = current;
    current = { ...target, ...siblings };
  }
  return current;
}
