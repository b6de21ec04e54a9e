import type { JsonSchema } from "../function-declaration.js";
import { objectRoot } from "./object-root.js";
import { childPath, type SchemaFinding } from "./schema-finding.js";
import { acceptsAnything, asSchema, isObject, resolveRef, typeList } from "./schema-node.js";

/** The schema Gemini accepts for function parameters: an OpenAPI 3.0 subset. */
export interface GeminiCompiledSchema {
  /** Gemini's `parameters`; undefined when the tool takes no arguments. */
  schema: JsonSchema | undefined;
  findings: SchemaFinding[];
}

/** How many times one `$ref` may be expanded inside itself before a recursive schema is cut off. */
const RECURSION_DEPTH = 3;

const STRING_FORMATS = new Set(["enum", "date-time"]);
const NUMBER_FORMATS = new Set(["float", "double"]);
const INTEGER_FORMATS = new Set(["int32", "int64"]);
const GEMINI_TYPES: Record<string, string> = { string: "STRING", number: "NUMBER", integer: "INTEGER", boolean: "BOOLEAN", object: "OBJECT", array: "ARRAY" };
/** Keywords Gemini's Schema has, copied as they are once the node is otherwise converted. */
const COPIED = ["title", "description", "default", "minimum", "maximum", "minLength", "maxLength", "pattern", "minItems", "maxItems", "minProperties", "maxProperties"];
/** Keywords handled by the conversion itself (not reported as dropped). */
const HANDLED = new Set([...COPIED, "type", "properties", "additionalProperties", "required", "items", "enum", "const", "anyOf", "oneOf", "allOf", "$ref", "$defs", "definitions", "nullable", "format", "example", "examples", "$schema", "$id", "$comment"]);

/**
 * Compiles a JSON Schema to Gemini's function-parameter schema: `$ref`s are
 * inlined (recursion cut after a few levels), `type: [x, "null"]` and
 * `anyOf` with a null branch become `nullable`, `oneOf` becomes `anyOf`,
 * `allOf` of objects is merged, `const` becomes a one-value `enum`, and
 * keywords Gemini lacks (`additionalProperties`, `exclusiveMinimum`,
 * `uniqueItems`, unknown formats, …) are dropped. Every change is a finding.
 */
export function compileGeminiSchema(parameters: JsonSchema | undefined): GeminiCompiledSchema {
  const findings: SchemaFinding[] = [];
  if (parameters === undefined) return { schema: undefined, findings };
  const root = objectRoot(parameters, findings);
  const compiled = new GeminiCompiler(parameters, findings).convert(root, "", []);
  const empty = !isObject(compiled.properties) || Object.keys(compiled.properties).length === 0;
  return { schema: empty ? undefined : compiled, findings };
}

class GeminiCompiler {
  constructor(
    readonly root: JsonSchema,
    readonly findings: SchemaFinding[],
  ) {}

  convert(node: unknown, path: string, refStack: string[]): JsonSchema {
    let schema = asSchema(node);
    if (typeof schema.$ref === "string") {
      const ref = schema.$ref;
      const target = resolveRef(ref, this.root);
      if (!target) {
        this.weaken(path, "$ref", `Gemini cannot follow "${ref}" (only local references are inlined): the field accepts any value`);
        return anyValue(schema.description);
      }
      if (refStack.filter((entry) => entry === ref).length >= RECURSION_DEPTH) {
        this.weaken(path, "$ref", `Gemini has no references, so the recursive "${ref}" is inlined ${RECURSION_DEPTH} levels deep and then described as a plain object`);
        return { type: "OBJECT", ...description(schema.description ?? target.description) };
      }
      this.reject(path, "$ref", `Gemini rejects $ref and $defs: "${ref}" was inlined`, refStack.length === 0 || !refStack.includes(ref));
      const { $ref: _ref, ...siblings } = schema;
      return this.convert({ ...target, ...siblings }, path, [...refStack, ref]);
    }
    if (Array.isArray(schema.allOf)) schema = this.mergeAllOf(schema, path);
    if (node === true || acceptsAnything(schema)) {
      this.weaken(path, "type", "Gemini has no schema for 'any value': the field is offered as a string, number, boolean or object");
      return anyValue(schema.description);
    }

    let nullable = schema.nullable === true;
    const alternatives = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
    if (Array.isArray(alternatives)) {
      if (schema.oneOf && !schema.anyOf) this.reject(path, "oneOf", "Gemini rejects oneOf: it was sent as anyOf (the alternatives are no longer exclusive)");
      const branches = alternatives.filter((branch) => {
        const isNull = isObject(branch) && typeList(branch).length === 1 && branch.type === "null";
        if (isNull) nullable = true;
        return !isNull;
      });
      const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = schema;
      if (branches.length === 1) return this.withNullable(this.convert({ ...rest, ...asSchema(branches[0]), ...description(rest.description ?? asSchema(branches[0]).description) }, path, refStack), nullable, path);
      const converted = branches.map((branch, index) => this.convert(branch, childPath(path, "anyOf", index), refStack));
      return this.withNullable({ anyOf: converted, ...description(rest.description) }, nullable, path);
    }

    let types = typeList(schema);
    // A type of null alone is kept for the branch below, which reports what Gemini gets instead.
    if (types.includes("null") && types.length > 1) {
      nullable = true;
      types = types.filter((type) => type !== "null");
    }
    if (types.length === 0) types = inferTypes(schema);
    if (types.length > 1) {
      this.reject(path, "type", `Gemini takes one type per schema: ${JSON.stringify(schema.type)} was sent as anyOf`);
      return this.withNullable({ anyOf: types.map((type) => this.convert({ ...schema, type }, path, refStack)), ...description(schema.description) }, nullable, path);
    }
    const type = types[0] ?? "string";
    if (type === "null") {
      this.weaken(path, "type", "Gemini has no null type: the field is offered as a nullable string");
      return { type: "STRING", nullable: true, ...description(schema.description) };
    }
    const result: JsonSchema = { type: GEMINI_TYPES[type] ?? "STRING" };
    for (const key of COPIED) if (schema[key] !== undefined) result[key] = schema[key];
    if (schema.example !== undefined) result.example = schema.example;
    else if (Array.isArray(schema.examples) && schema.examples.length > 0) result.example = schema.examples[0];
    if (nullable) result.nullable = true;
    this.convertEnum(schema, type, result, path);
    this.convertFormat(schema, type, result, path);
    if (type === "object") this.convertObject(schema, result, path, refStack);
    if (type === "array") this.convertArray(schema, result, path, refStack);
    for (const key of Object.keys(schema)) {
      if (HANDLED.has(key)) continue;
      this.weaken(childPath(path, key), key, `Gemini's schema has no "${key}": it was left out, and toolsmith still checks it when the tool is called`);
    }
    return result;
  }

  private convertEnum(schema: JsonSchema, type: string, result: JsonSchema, path: string): void {
    const values = schema.const !== undefined ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
    if (!values) return;
    const keyword = schema.const !== undefined ? "const" : "enum";
    const nonNull = values.filter((value) => value !== null);
    if (nonNull.length < values.length) result.nullable = true;
    if (type === "string" && nonNull.every((value) => typeof value === "string")) {
      result.enum = nonNull;
      result.format = "enum";
      if (keyword === "const") this.reject(path, "const", "Gemini rejects const: it was sent as an enum of one value");
      return;
    }
    this.weaken(childPath(path, keyword), keyword, `Gemini only takes enums of strings: the allowed values ${JSON.stringify(nonNull)} were moved into the description`);
    result.description = `${result.description ? `${String(result.description)} ` : ""}(one of ${nonNull.map((value) => JSON.stringify(value)).join(", ")})`;
  }

  private convertFormat(schema: JsonSchema, type: string, result: JsonSchema, path: string): void {
    if (typeof schema.format !== "string" || result.format === "enum") return;
    const allowed = type === "string" ? STRING_FORMATS : type === "number" ? NUMBER_FORMATS : type === "integer" ? INTEGER_FORMATS : new Set<string>();
    if (allowed.has(schema.format)) result.format = schema.format;
    else this.weaken(childPath(path, "format"), "format", `Gemini does not take format "${schema.format}" on a ${type}: it was left out`);
  }

  private convertObject(schema: JsonSchema, result: JsonSchema, path: string, refStack: string[]): void {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const names = Object.keys(properties);
    if (names.length > 0) {
      result.properties = Object.fromEntries(names.map((name) => [name, this.convert(properties[name], childPath(path, "properties", name), refStack)]));
      const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string" && name in properties) : [];
      if (required.length > 0) result.required = required;
    } else if (path !== "") {
      this.weaken(path, "properties", "an object with no declared properties (a map or free-form object) cannot be described to Gemini: the model sees an empty object");
    }
    if (schema.additionalProperties === false && names.length > 0) {
      this.weaken(childPath(path, "additionalProperties"), "additionalProperties", "Gemini rejects additionalProperties: extra fields are not forbidden to the model, and toolsmith still refuses them when the tool is called");
    } else if (isObject(schema.additionalProperties) && !acceptsAnything(schema.additionalProperties)) {
      this.weaken(childPath(path, "additionalProperties"), "additionalProperties", "Gemini rejects additionalProperties: the schema of the map's values was left out");
    }
  }

  private convertArray(schema: JsonSchema, result: JsonSchema, path: string, refStack: string[]): void {
    const items = schema.items ?? (Array.isArray(schema.prefixItems) ? { anyOf: schema.prefixItems } : undefined);
    if (Array.isArray(items)) {
      this.weaken(childPath(path, "items"), "items", "Gemini has no tuples: the items may be any of the listed schemas, in any order");
      result.items = this.convert({ anyOf: items }, childPath(path, "items"), refStack);
    } else result.items = this.convert(items ?? true, childPath(path, "items"), refStack);
  }

  private mergeAllOf(schema: JsonSchema, path: string): JsonSchema {
    const { allOf, ...rest } = schema;
    const merged: JsonSchema = { ...rest };
    for (const part of allOf as unknown[]) {
      const branch = asSchema(part);
      const resolved = typeof branch.$ref === "string" ? (resolveRef(branch.$ref, this.root) ?? {}) : branch;
      for (const [key, value] of Object.entries(resolved)) {
        if (key === "properties" && isObject(value)) merged.properties = { ...(isObject(merged.properties) ? merged.properties : {}), ...value };
        else if (key === "required" && Array.isArray(value)) merged.required = [...new Set([...((merged.required as string[]) ?? []), ...(value as string[])])];
        else merged[key] ??= value;
      }
    }
    this.reject(path, "allOf", "Gemini rejects allOf: the parts were merged into one schema");
    return merged;
  }

  private withNullable(schema: JsonSchema, nullable: boolean, path: string): JsonSchema {
    if (!nullable) return schema;
    if (schema.anyOf) this.reject(path, "anyOf", "null alternatives became nullable: true");
    return { ...schema, nullable: true };
  }

  private reject(path: string, keyword: string, message: string, report = true): void {
    if (report) this.findings.push({ path, keyword, effect: "rejected", message });
  }

  private weaken(path: string, keyword: string, message: string): void {
    this.findings.push({ path, keyword, effect: "weakened", message });
  }
}

function description(text: unknown): JsonSchema {
  return typeof text === "string" ? { description: text } : {};
}

/** The closest Gemini has to "any value". */
function anyValue(text: unknown): JsonSchema {
  return { anyOf: [{ type: "STRING" }, { type: "NUMBER" }, { type: "BOOLEAN" }, { type: "OBJECT" }], nullable: true, ...description(text) };
}

/** The type a schema without `type` implies by its keywords. */
function inferTypes(schema: JsonSchema): string[] {
  if (schema.properties !== undefined || schema.additionalProperties !== undefined) return ["object"];
  if (schema.items !== undefined || schema.prefixItems !== undefined) return ["array"];
  const values = schema.const !== undefined ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : [];
  const kinds = new Set(values.filter((value) => value !== null).map((value) => (typeof value === "number" ? (Number.isInteger(value) ? "integer" : "number") : typeof value)));
  if (kinds.size > 0) return [...kinds].filter((kind) => kind in GEMINI_TYPES);
  if (schema.pattern !== undefined || schema.minLength !== undefined || schema.format !== undefined) return ["string"];
  if (schema.minimum !== undefined || schema.maximum !== undefined) return ["number"];
  return ["string"];
}
