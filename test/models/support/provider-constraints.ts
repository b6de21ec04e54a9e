/**
 * Each provider's documented constraints on tool schemas, written as checkers
 * independent of the compiler: a compiled schema must pass its provider's.
 */
import { Ajv2020 } from "ajv/dist/2020.js";

type Schema = Record<string, any>;

const schemaChecker = new Ajv2020({ strict: false, validateSchema: true, validateFormats: false, addUsedSchema: false });

const GEMINI_KEYS = new Set([
  "type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems", "properties", "required", "minProperties", "maxProperties",
  "minLength", "maxLength", "pattern", "example", "anyOf", "propertyOrdering", "default", "items", "minimum", "maximum",
]);
const GEMINI_TYPES = new Set(["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"]);
const GEMINI_FORMATS: Record<string, string[]> = { STRING: ["enum", "date-time"], NUMBER: ["float", "double"], INTEGER: ["int32", "int64"] };

/** Gemini's function-parameter Schema (an OpenAPI 3.0 subset): its fields only, one upper-case type, string enums, items on arrays, no references. */
export function geminiViolations(schema: Schema | undefined): string[] {
  const problems: string[] = [];
  if (schema === undefined) return problems;
  if (schema.type !== "OBJECT") problems.push("root: parameters must be of type OBJECT");
  if (!schema.properties || Object.keys(schema.properties).length === 0) problems.push("root: properties must be non-empty (omit parameters instead)");
  walkGemini(schema, "", problems);
  return problems;
}

function walkGemini(schema: Schema, path: string, problems: string[]): void {
  for (const key of Object.keys(schema)) if (!GEMINI_KEYS.has(key)) problems.push(`${path}: unknown field "${key}"`);
  if (schema.anyOf) {
    if (!Array.isArray(schema.anyOf) || schema.anyOf.length === 0) problems.push(`${path}: anyOf must be a non-empty list`);
    else schema.anyOf.forEach((branch: Schema, index: number) => walkGemini(branch, `${path}/anyOf/${index}`, problems));
  } else if (!GEMINI_TYPES.has(schema.type)) problems.push(`${path}: type ${JSON.stringify(schema.type)} is not a Gemini type`);
  if (schema.enum !== undefined && (schema.type !== "STRING" || !schema.enum.every((value: unknown) => typeof value === "string"))) problems.push(`${path}: enum is only for strings`);
  if (schema.format !== undefined && !(GEMINI_FORMATS[schema.type] ?? []).includes(schema.format)) problems.push(`${path}: format ${schema.format} on ${schema.type}`);
  if (schema.type === "ARRAY") {
    if (!schema.items || typeof schema.items !== "object" || Array.isArray(schema.items)) problems.push(`${path}: ARRAY needs one items schema`);
    else walkGemini(schema.items, `${path}/items`, problems);
  } else if (schema.items !== undefined) problems.push(`${path}: items on a non-array`);
  if (schema.properties) {
    if (schema.type !== "OBJECT") problems.push(`${path}: properties on a non-object`);
    for (const [name, property] of Object.entries(schema.properties)) walkGemini(property as Schema, `${path}/properties/${name}`, problems);
  }
  for (const name of schema.required ?? []) if (!schema.properties || !(name in schema.properties)) problems.push(`${path}: required "${name}" is not a property`);
}

const STRICT_KEYS = new Set([
  "type", "description", "title", "enum", "const", "anyOf", "$ref", "$defs", "properties", "required", "additionalProperties", "items",
  "pattern", "format", "multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems",
]);
const STRICT_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);

/** OpenAI strict mode (Structured Outputs): root object, every property required, additionalProperties false everywhere, supported keywords only, ≤ 10 levels. */
export function openAIStrictViolations(schema: Schema): string[] {
  const problems: string[] = [];
  if (schema.type !== "object" || schema.anyOf) problems.push("root: must be type object without anyOf");
  walkStrict(schema, "", schema, 0, problems);
  for (const [name, definition] of Object.entries(schema.$defs ?? {})) walkStrict(definition as Schema, `/$defs/${name}`, schema, 1, problems);
  return problems;
}

function walkStrict(schema: Schema, path: string, root: Schema, depth: number, problems: string[]): void {
  if (depth > 10) problems.push(`${path}: nested deeper than 10`);
  for (const key of Object.keys(schema)) if (!STRICT_KEYS.has(key)) problems.push(`${path}: keyword "${key}" not supported in strict mode`);
  if (schema.$defs && path !== "") problems.push(`${path}: $defs only at the root`);
  if (schema.$ref !== undefined) {
    if (Object.keys(schema).length > 1) problems.push(`${path}: $ref must stand alone`);
    if (!/^#(\/\$defs\/[^/]+)?$/.test(schema.$ref) || (schema.$ref !== "#" && !root.$defs?.[schema.$ref.slice(8)])) problems.push(`${path}: $ref ${schema.$ref} does not resolve to $defs`);
    return;
  }
  if (schema.type === undefined && !schema.anyOf && schema.enum === undefined && schema.const === undefined) problems.push(`${path}: no type`);
  if (schema.format !== undefined && !STRICT_FORMATS.has(schema.format)) problems.push(`${path}: format ${schema.format}`);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.includes("object")) {
    if (schema.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false`);
    const names = Object.keys(schema.properties ?? {});
    const required: string[] = schema.required ?? [];
    if (names.length !== required.length || names.some((name) => !required.includes(name))) problems.push(`${path}: every property must be required`);
    for (const name of names) walkStrict(schema.properties[name], `${path}/properties/${name}`, root, depth + 1, problems);
  }
  if (types.includes("array")) {
    if (!schema.items || typeof schema.items !== "object") problems.push(`${path}: array needs items`);
    else walkStrict(schema.items, `${path}/items`, root, depth + 1, problems);
  }
  for (const [index, branch] of (schema.anyOf ?? []).entries()) walkStrict(branch, `${path}/anyOf/${index}`, root, depth + 1, problems);
}

/** OpenAI without strict mode, and Anthropic: a valid JSON Schema whose root is type object without a root anyOf/oneOf/allOf. */
export function objectRootViolations(schema: Schema): string[] {
  const problems: string[] = [];
  if (schema.type !== "object") problems.push("root: must be type object");
  for (const keyword of ["anyOf", "oneOf", "allOf"]) if (schema[keyword] !== undefined) problems.push(`root: ${keyword} at the top level`);
  try {
    schemaChecker.compile(schema);
  } catch (error) {
    problems.push(`not a valid JSON Schema: ${(error as Error).message}`);
  }
  return problems;
}
