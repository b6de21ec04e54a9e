import type { JsonSchema } from "../function-declaration.js";
import { objectRoot } from "./object-root.js";
import { childPath, type SchemaFinding } from "./schema-finding.js";
import { acceptsAnything, asSchema, isObject, resolveRef, typeList } from "./schema-node.js";

/** An OpenAI function's `parameters` and whether it can be sent with `strict: true`. */
export interface OpenAICompiledSchema {
  schema: JsonSchema;
  strict: boolean;
  findings: SchemaFinding[];
}

/** Options of {@link compileOpenAISchema}. */
export interface CompileOpenAISchemaOptions {
  /** Try strict mode (Structured Outputs). Default true; local servers usually want false. */
  strict?: boolean;
}

/** OpenAI's documented limit on nesting in strict mode. */
const MAX_DEPTH = 10;
/** OpenAI's documented limit on properties in one strict schema. */
const MAX_PROPERTIES = 5000;
const STRICT_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
/** Keywords strict mode accepts. */
const STRICT_KEYWORDS = new Set([
  "type", "description", "title", "enum", "const", "anyOf", "$ref", "$defs", "properties", "required", "additionalProperties", "items",
  "pattern", "format", "multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems",
]);

class NotStrict extends Error {
  constructor(
    readonly path: string,
    readonly keyword: string,
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * Compiles a JSON Schema for OpenAI function calling. In strict mode every
 * property is required, optional ones become nullable (a null coming back is
 * turned into an absent field by `restoreArguments`), every object gets
 * `additionalProperties: false`, `oneOf` becomes `anyOf`, `definitions`
 * become `$defs`, and unsupported keywords (`default`, `minLength`, …) are
 * dropped. A schema that cannot be strict (a free-form object, a map, a
 * tuple, "any value") falls back to `strict: false` with the schema as written.
 */
export function compileOpenAISchema(parameters: JsonSchema | undefined, options: CompileOpenAISchemaOptions = {}): OpenAICompiledSchema {
  const findings: SchemaFinding[] = [];
  const root = objectRoot(parameters ?? { type: "object", properties: {} }, findings);
  const loose = renameDefinitions(root);
  if (options.strict === false) return { schema: loose, strict: false, findings };
  const strictFindings: SchemaFinding[] = [];
  try {
    const compiler = new StrictCompiler(loose, strictFindings);
    const schema = compiler.convert(loose, "", 0);
    if (isObject(loose.$defs)) {
      schema.$defs = Object.fromEntries(Object.entries(loose.$defs).map(([name, definition]) => [name, compiler.convert(definition, childPath("", "$defs", name), 1)]));
    }
    if (compiler.propertyCount > MAX_PROPERTIES) throw new NotStrict("", "properties", `it has ${compiler.propertyCount} properties, over OpenAI's limit of ${MAX_PROPERTIES}`);
    return { schema, strict: true, findings: [...findings, ...strictFindings] };
  } catch (error) {
    if (!(error instanceof NotStrict)) throw error;
    findings.push({
      path: error.path,
      keyword: error.keyword,
      effect: "weakened",
      message: `OpenAI strict mode cannot express this schema (${error.message}): the tool is sent with strict: false, so the model is not held to the schema and toolsmith's check of the arguments is the only guard`,
    });
    return { schema: loose, strict: false, findings };
  }
}

class StrictCompiler {
  propertyCount = 0;

  constructor(
    readonly root: JsonSchema,
    readonly findings: SchemaFinding[],
  ) {}

  convert(node: unknown, path: string, depth: number): JsonSchema {
    if (depth > MAX_DEPTH) throw new NotStrict(path, "properties", `it nests deeper than ${MAX_DEPTH} levels`);
    const schema = asSchema(node);
    if (typeof schema.$ref === "string") {
      if (!resolveRef(schema.$ref, this.root)) throw new NotStrict(path, "$ref", `"${schema.$ref}" is not a local reference`);
      // A reference stands alone in strict mode; a description beside it goes on a one-branch anyOf around it.
      return typeof schema.description === "string" ? { description: schema.description, anyOf: [{ $ref: schema.$ref }] } : { $ref: schema.$ref };
    }
    if (node === true || acceptsAnything(schema)) throw new NotStrict(path, "type", "a field accepts any value");
    if (schema.allOf !== undefined) throw new NotStrict(path, "allOf", "allOf is not supported");
    if (schema.not !== undefined || schema.if !== undefined) throw new NotStrict(path, schema.not !== undefined ? "not" : "if", "conditional schemas are not supported");

    const result: JsonSchema = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === "$defs" || key === "$schema" || key === "$id" || key === "$comment") continue;
      if (key === "oneOf") continue;
      if (!STRICT_KEYWORDS.has(key)) {
        if (key === "prefixItems" || key === "patternProperties") throw new NotStrict(childPath(path, key), key, `${key} is not supported`);
        this.findings.push({ path: childPath(path, key), keyword: key, effect: "weakened", message: `OpenAI strict mode rejects "${key}": it was left out, and toolsmith still checks it when the tool is called` });
        continue;
      }
      if (key === "format" && !STRICT_FORMATS.has(String(value))) {
        this.findings.push({ path: childPath(path, key), keyword: key, effect: "weakened", message: `OpenAI strict mode does not take format "${String(value)}": it was left out` });
        continue;
      }
      result[key] = value;
    }
    const alternatives = (schema.anyOf ?? schema.oneOf) as unknown;
    if (Array.isArray(alternatives)) {
      if (!schema.anyOf) this.findings.push({ path, keyword: "oneOf", effect: "rejected", message: "OpenAI strict mode rejects oneOf: it was sent as anyOf (the alternatives are no longer exclusive)" });
      result.anyOf = alternatives.map((branch, index) => this.convert(branch, childPath(path, "anyOf", index), depth + 1));
    }
    const types = typeList(schema);
    if (types.length === 0 && !result.anyOf && result.enum === undefined && result.const === undefined) {
      if (schema.properties !== undefined) result.type = "object";
      else if (schema.items !== undefined) result.type = "array";
      else throw new NotStrict(path, "type", "a field has no type");
    }
    if (types.includes("object") || result.type === "object") this.convertObject(schema, result, path, depth);
    if (types.includes("array") || result.type === "array") {
      if (!isObject(schema.items) && schema.items !== true) throw new NotStrict(childPath(path, "items"), "items", "an array does not say what its items are");
      result.items = this.convert(schema.items, childPath(path, "items"), depth + 1);
    }
    return result;
  }

  private convertObject(schema: JsonSchema, result: JsonSchema, path: string, depth: number): void {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const names = Object.keys(properties);
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== false && !(names.length > 0 && schema.additionalProperties === true)) {
      throw new NotStrict(childPath(path, "additionalProperties"), "additionalProperties", "an object allows fields it does not name (a map)");
    }
    if (names.length === 0 && path !== "" && schema.additionalProperties !== false) throw new NotStrict(path, "properties", "an object names no fields (a free-form object)");
    if (schema.additionalProperties === true) {
      this.findings.push({ path: childPath(path, "additionalProperties"), keyword: "additionalProperties", effect: "weakened", message: "OpenAI strict mode requires additionalProperties: false: the model may no longer add fields of its own" });
    }
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    this.propertyCount += names.length;
    result.properties = Object.fromEntries(
      names.map((name) => {
        const converted = this.convert(properties[name], childPath(path, "properties", name), depth + 1);
        if (required.has(name)) return [name, converted];
        this.findings.push({
          path: childPath(path, "properties", name),
          keyword: "required",
          effect: "rejected",
          message: "OpenAI strict mode rejects optional fields: it was made required and nullable, and a null coming back is treated as absent",
        });
        return [name, nullable(converted)];
      }),
    );
    result.required = names;
    result.additionalProperties = false;
  }
}

/** The schema also accepting null, in the form strict mode understands. */
function nullable(schema: JsonSchema): JsonSchema {
  if (schema.$ref !== undefined) return { anyOf: [schema, { type: "null" }] };
  if (Array.isArray(schema.anyOf)) {
    const hasNull = schema.anyOf.some((branch) => isObject(branch) && branch.type === "null");
    return hasNull ? schema : { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  }
  const types = typeList(schema);
  if (types.length === 0) return { anyOf: [schema, { type: "null" }] };
  const result: JsonSchema = { ...schema, type: types.includes("null") ? schema.type : [...types, "null"] };
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) result.enum = [...schema.enum, null];
  if (schema.const !== undefined) return { anyOf: [{ ...schema }, { type: "null" }] };
  return result;
}

/** `definitions` renamed to `$defs`, with references rewritten, since strict mode reads `$defs`. */
function renameDefinitions(root: JsonSchema): JsonSchema {
  if (!isObject(root.definitions)) return root;
  const text = JSON.stringify(root).replace(/"#\/definitions\//g, '"#/$defs/');
  const { definitions, ...rest } = JSON.parse(text) as JsonSchema;
  return { ...rest, $defs: { ...(isObject(rest.$defs) ? rest.$defs : {}), ...(definitions as JsonSchema) } };
}
