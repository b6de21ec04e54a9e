import type { OutputUnit } from "@cfworker/json-schema";
import type { ArgumentIssue } from "./tool.js";

/** Errors that only say that a part below failed; that part's own error is reported too. */
const ONLY_SAY_A_PART_FAILED = new Set(["properties", "items", "prefixItems", "additionalItems", "$ref", "$recursiveRef", "allOf", "patternProperties", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems"]);

/**
 * The validator's errors as issues the model can act on, one per field and
 * problem: which field, and what is wrong with it, worded from the schema's
 * own values ("must be <= 50", "must be one of [...]"). `lookup` is the
 * validator's table of schema nodes, to follow the `$ref`s in error locations.
 */
export function outputUnitsToIssues(schema: unknown, lookup: Readonly<Record<string, unknown>>, errors: readonly OutputUnit[]): ArgumentIssue[] {
  const issues = new Map<string, ArgumentIssue>();
  for (const error of errors) {
    if (ONLY_SAY_A_PART_FAILED.has(error.keyword)) continue;
    const pointer = decodeURIComponent(error.instanceLocation.replace(/^#/, ""));
    const field = pointerToField(pointer);
    let issue: ArgumentIssue;
    if (error.keyword === "required" || error.keyword === "additionalProperties") {
      // Reported at the object; the message names the field.
      const named = /"([^"]+)"/.exec(error.error)?.[1] ?? "";
      issue = { field: joinField(field, named), problem: error.keyword === "required" ? "is required but missing" : "is not an allowed field" };
    } else if (error.keyword === "false") {
      // A `false` schema: an extra field or an extra tuple item.
      issue = { field, problem: /\/\d+$/.test(pointer) ? "is one item more than allowed" : "is not an allowed field" };
    } else issue = { field, problem: problemOf(error, valueAt(schema, lookup, error.keywordLocation), valueAt(schema, lookup, error.keywordLocation.replace(/\/[^/]*$/, ""))) };
    issues.set(`${issue.field}\u0000${issue.problem}`, issue);
  }
  return [...issues.values()];
}

/** `parent` is the schema node holding the keyword (draft-04 marks a bound exclusive there, with `exclusiveMaximum: true`). */
function problemOf(error: OutputUnit, value: unknown, parent: unknown): string {
  if (value === undefined) return error.error;
  const limit = String(value);
  switch (error.keyword) {
    case "anyOf":
    case "oneOf":
      return `must match ${error.keyword === "oneOf" ? "exactly one" : "at least one"} of the allowed shapes`;
    case "enum":
      return `must be one of ${JSON.stringify(value)}`;
    case "const":
      return `must be ${JSON.stringify(value)}`;
    case "type":
      return `must be ${Array.isArray(value) ? value.join(" or ") : limit}`;
    case "maximum":
      return `must be ${isExclusive(parent, "exclusiveMaximum") ? "<" : "<="} ${limit}`;
    case "minimum":
      return `must be ${isExclusive(parent, "exclusiveMinimum") ? ">" : ">="} ${limit}`;
    case "exclusiveMaximum":
      return `must be < ${limit}`;
    case "exclusiveMinimum":
      return `must be > ${limit}`;
    case "maxLength":
      return `must NOT have more than ${limit} characters`;
    case "minLength":
      return `must NOT have fewer than ${limit} characters`;
    case "maxItems":
      return `must NOT have more than ${limit} items`;
    case "minItems":
      return `must NOT have fewer than ${limit} items`;
    case "multipleOf":
      return `must be a multiple of ${limit}`;
    case "pattern":
      return `must match pattern "${limit}"`;
    case "format":
      return `must match format "${limit}"`;
    default:
      return error.error;
  }
}

function isExclusive(node: unknown, keyword: "exclusiveMaximum" | "exclusiveMinimum"): boolean {
  return typeof node === "object" && node !== null && (node as Record<string, unknown>)[keyword] === true;
}

/** The schema's value at a keyword location ("#/properties/limit/maximum", "#/properties/from/$ref/items/1/type"). */
function valueAt(schema: unknown, lookup: Readonly<Record<string, unknown>>, keywordLocation: string): unknown {
  const path = decodeURIComponent(keywordLocation.replace(/^#\/?/, ""));
  let node = schema;
  for (const segment of path ? path.split("/") : []) {
    if (typeof node !== "object" || node === null) return undefined;
    const here = node as Record<string, unknown> & { __absolute_ref__?: string };
    node = segment === "$ref" && here.__absolute_ref__ !== undefined ? lookup[here.__absolute_ref__] : here[segment.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return node;
}

/** A JSON Pointer into the arguments ("/filter/tags/1") as the field a model reads ("filter.tags[1]"). */
export function pointerToField(pointer: string): string {
  if (!pointer) return "";
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((field, segment) => (/^\d+$/.test(segment) ? `${field}[${segment}]` : joinField(field, segment)), "");
}

/** `base.name`, or `name` at the top level. */
export function joinField(base: string, name: string): string {
  return base ? `${base}.${name}` : name;
}
