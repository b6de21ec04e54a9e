import type { JsonSchema } from "../function-declaration.js";
import { setOwnField } from "../../content/own-field.js";
import { asSchema, derefShallow, isObject, typeList } from "./schema-node.js";

/**
 * Maps arguments from a provider back to the shape of the schema the developer
 * wrote: a `null` for an optional field whose schema does not accept null
 * becomes an absent field. OpenAI strict mode makes optional fields nullable,
 * and models of every provider send nulls for fields they mean to leave out;
 * after this the runner checks the arguments against the original schema, so
 * a validation error means the same thing on every provider. Returns a copy.
 */
export function restoreArguments(parameters: JsonSchema | undefined, args: Record<string, unknown>): Record<string, unknown> {
  if (!parameters) return args;
  return restore(args, parameters, parameters, 0) as Record<string, unknown>;
}

function restore(value: unknown, node: unknown, root: JsonSchema, depth: number): unknown {
  if (depth > 64) return value;
  const schema = derefShallow(asSchema(node), root);
  if (Array.isArray(value)) {
    const items = schema.items;
    return isObject(items) ? value.map((item) => restore(item, items, root, depth + 1)) : value;
  }
  if (!isObject(value)) return value;
  const { properties, required } = objectShape(schema, root);
  const result: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    const fieldSchema = properties[name];
    if (field === null && fieldSchema !== undefined && !required.has(name) && !acceptsNull(fieldSchema, root, 0)) continue;
    // A "__proto__" argument stays a field, so the runner's check refuses it instead of the copy taking it as its prototype.
    setOwnField(result, name, fieldSchema === undefined ? field : restore(field, fieldSchema, root, depth + 1));
  }
  return result;
}

/** The properties and required names of an object schema, gathered across `anyOf`/`oneOf`/`allOf` branches. */
function objectShape(schema: JsonSchema, root: JsonSchema): { properties: Record<string, unknown>; required: Set<string> } {
  const properties: Record<string, unknown> = { ...(isObject(schema.properties) ? schema.properties : {}) };
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  for (const keyword of ["anyOf", "oneOf", "allOf"]) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      const resolved = derefShallow(asSchema(branch), root);
      if (isObject(resolved.properties)) for (const [name, property] of Object.entries(resolved.properties)) properties[name] ??= property;
      if (keyword === "allOf" && Array.isArray(resolved.required)) for (const name of resolved.required as string[]) required.add(name);
    }
  }
  return { properties, required };
}

function acceptsNull(node: unknown, root: JsonSchema, depth: number): boolean {
  if (node === true) return true;
  const schema = derefShallow(asSchema(node), root);
  if (depth > 32) return true;
  if (schema.nullable === true || schema.const === null) return true;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  const branches = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(branches)) return branches.some((branch) => acceptsNull(branch, root, depth + 1));
  const types = typeList(schema);
  return types.length === 0 ? schema.not === undefined && schema.properties === undefined && schema.items === undefined : types.includes("null");
}
