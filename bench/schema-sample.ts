/**
 * A value that satisfies a JSON Schema, for calling every operation of an
 * OpenAPI document with arguments taken from its tool schema. Deterministic
 * (the same schema gives the same value), so a refusal can be replayed.
 * Strings with a `pattern` come from fast-check's `stringMatching`; formats
 * get a well-formed example; every defined property is filled, so that each
 * serialisation path is exercised, down to a depth where only required ones are.
 * Where a first guess breaks the schema, the value is checked with toolsmith's
 * own validator and another is tried: for `oneOf`, a value that matches exactly
 * one branch (only the required fields, or a field of each other branch given a
 * type that branch refuses); for an object, without the optional fields whose
 * value breaks their own schema (an `allOf` of a string and an integer), or with
 * only its required fields (an `allOf` part that allows no other property).
 */
import fc from "fast-check";
import { compileArgumentsCheck } from "../src/tools/json-schema-validator.js";

type Schema = Record<string, unknown>;

const FORMATS: Record<string, string> = {
  "date-time": "2024-05-06T07:08:09Z",
  date: "2024-05-06",
  time: "07:08:09Z",
  email: "ada@example.com",
  "idn-email": "ada@example.com",
  uuid: "3f1c9a9e-5b1d-4c39-9f6b-2a0d2a9e7c11",
  uri: "https://example.com/a",
  url: "https://example.com/a",
  "uri-reference": "https://example.com/a",
  iri: "https://example.com/a",
  hostname: "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  byte: "aGVsbG8=",
  binary: "file contents",
  password: "s3cret-pass",
  duration: "P1D",
  "json-pointer": "/a/b",
  regex: "^a+$",
  "relative-json-pointer": "0/a",
  "uri-template": "https://example.com/{id}",
  "idn-hostname": "example.com",
  "iri-reference": "https://example.com/a",
};

/**
 * A value valid for `schema`, or `undefined` when the schema admits nothing
 * this sampler can make. `minimal` fills only the required fields of the
 * object at this level.
 */
export function sampleValue(schema: unknown, variant = 0, depth = 0, minimal = false): unknown {
  if (schema === true || schema === undefined) return "value";
  // A schema object that contains itself (ADK's declarations of recursive documents) ends here.
  if (typeof schema !== "object" || schema === null || depth > 12) return undefined;
  const node = schema as Schema;
  if ("const" in node) return node.const;
  if (Array.isArray(node.enum)) return node.enum.find((item) => item !== null) ?? node.enum[0];
  if (Array.isArray(node.examples) && node.examples.length) return node.examples[0];
  if (Array.isArray(node.allOf)) {
    const value = sampleValue(mergeAll(node), variant, depth, minimal);
    if (minimal || matches(node, value)) return value;
    // An allOf part that allows no other property refuses the fields of the other parts: only the required ones may do.
    const requiredOnly = sampleValue(mergeAll(node), variant, depth, true);
    return matches(node, requiredOnly) ? requiredOnly : value;
  }
  for (const key of ["oneOf", "anyOf"] as const) {
    if (Array.isArray(node[key])) {
      // A branch that is not null, merged with what the node says beside it (properties, required).
      const { [key]: branches, ...rest } = node;
      // `variant` picks another branch first, for when the first one's value also matches a second (oneOf refuses that).
      const candidates = (branches as Schema[]).filter((item) => typeOf(item) !== "null");
      const list = candidates.length ? candidates : (branches as Schema[]);
      const merged = list.map((_, index) => mergeAll({ allOf: [rest, list[(index + variant) % list.length]] }));
      const first = sampleValue(merged[0], variant, depth, minimal);
      if (key === "anyOf" || matches(node, first)) return first;
      return oneOfValue(node, merged, variant, depth) ?? first;
    }
  }
  switch (typeOf(node)) {
    case "null":
      return null;
    case "boolean":
      return true;
    case "integer":
    case "number":
      return sampleNumber(node);
    case "string":
      return sampleString(node);
    case "array": {
      const count = Math.max(Number(node.minItems ?? 0), Math.min(2, Number(node.maxItems ?? 2)));
      const items = node.items ?? (Array.isArray(node.prefixItems) ? undefined : {});
      const values: unknown[] = [];
      for (let index = 0; index < count; index++) {
        const value = sampleValue(Array.isArray(node.prefixItems) && index < node.prefixItems.length ? node.prefixItems[index] : items, variant, depth + 1);
        values.push(node.uniqueItems ? distinct(value, index, items as Schema) : value);
      }
      return node.uniqueItems ? [...new Map(values.map((value) => [JSON.stringify(value), value])).values()] : values;
    }
    case "object": {
      const object: Record<string, unknown> = {};
      const properties = (node.properties ?? {}) as Record<string, unknown>;
      const required = new Set((node.required as string[] | undefined) ?? []);
      for (const [name, property] of Object.entries(properties)) {
        if ((depth > 3 || minimal) && !required.has(name)) continue;
        const value = sampleValue(property, variant, depth + 1);
        // An optional field no value can satisfy (an allOf of a string and an integer) is left out.
        if (value !== undefined && (required.has(name) || matches(property, value))) object[name] = value;
      }
      for (const name of required) if (!(name in object)) object[name] = sampleValue(typeof node.additionalProperties === "object" ? node.additionalProperties : {}, variant, depth + 1);
      return object;
    }
    default:
      return "value";
  }
}

function typeOf(node: Schema): string | undefined {
  const type = Array.isArray(node.type) ? node.type.find((item) => item !== "null") ?? node.type[0] : node.type;
  if (typeof type === "string") return type.toLowerCase();
  if (node.properties || node.additionalProperties || node.required) return "object";
  if (node.items || node.prefixItems) return "array";
  return undefined;
}

function sampleNumber(node: Schema): number {
  const integer = typeOf(node) === "integer";
  const step = typeof node.multipleOf === "number" ? node.multipleOf : integer ? 1 : 0.5;
  let low = typeof node.minimum === "number" ? node.minimum : -Infinity;
  if (typeof node.exclusiveMinimum === "number") low = Math.max(low, node.exclusiveMinimum + step / 2);
  let high = typeof node.maximum === "number" ? node.maximum : Infinity;
  if (typeof node.exclusiveMaximum === "number") high = Math.min(high, node.exclusiveMaximum - step / 2);
  // A small value inside the bounds, on a multiple of the step.
  const wanted = Math.min(Math.max(integer ? 1 : 1.5, low), high);
  const value = Math.ceil(wanted / step) * step;
  return value > high ? Math.floor(high / step) * step : value;
}

function sampleString(node: Schema): string {
  const min = Number(node.minLength ?? 0);
  const max = Number(node.maxLength ?? Infinity);
  const example = typeof node.format === "string" ? FORMATS[node.format] : undefined;
  if (typeof node.pattern === "string") {
    try {
      const pattern = new RegExp(node.pattern, "u");
      // A pattern beside a format (a date with a pattern) is first tried with the format's example, which the format check also wants.
      if (example !== undefined && pattern.test(example) && [...example].length >= min && [...example].length <= max) return example;
      const matches = fc.sample(fc.stringMatching(pattern), { numRuns: 50, seed: 42 });
      const fitting = matches.find((text) => [...text].length >= min && [...text].length <= max && pattern.test(text));
      if (fitting !== undefined) return fitting;
    } catch {
      // A pattern JavaScript cannot read falls back to a plain string.
    }
  }
  let text = example ?? "value";
  while (text.length < min) text += "x";
  return text.length > max ? text.slice(0, Math.max(max, min)) : text;
}

function distinct(value: unknown, index: number, items: Schema | undefined): unknown {
  if (items && Array.isArray(items.enum)) return items.enum[index % items.enum.length];
  if (typeof value === "string") return `${value}${index}`;
  if (typeof value === "number") return value + index * (typeof items?.multipleOf === "number" ? items.multipleOf : 1);
  return value;
}

/** `allOf` as one schema: properties and required lists joined, other keywords of later parts winning. */
function mergeAll(node: Schema): Schema {
  const { allOf, ...rest } = node;
  let merged: Schema = rest;
  for (const part of (allOf as unknown[]) ?? []) {
    if (typeof part !== "object" || part === null) continue;
    const flat = mergeAll(part as Schema);
    merged = {
      ...merged,
      ...flat,
      properties: { ...(merged.properties as object), ...(flat.properties as object) },
      required: [...new Set([...((merged.required as string[]) ?? []), ...((flat.required as string[]) ?? [])])],
    };
  }
  if (!Object.keys((merged.properties as object | undefined) ?? {}).length) delete merged.properties;
  if (!((merged.required as string[] | undefined) ?? []).length) delete merged.required;
  return merged;
}

/**
 * A value for a `oneOf` that matches exactly one of its branches: each
 * branch's full value, then its required fields only, each also with a field
 * of every other branch set to a type that branch refuses.
 */
function oneOfValue(node: Schema, branches: Schema[], variant: number, depth: number): unknown {
  for (const [index, branch] of branches.entries()) {
    for (const minimal of [false, true]) {
      const value = sampleValue(branch, variant, depth, minimal);
      if (matches(node, value)) return value;
      if (typeof value !== "object" || value === null || Array.isArray(value)) continue;
      const own = new Set(Object.keys((branch.properties ?? {}) as object));
      const poisoned: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      for (const other of branches.filter((_, position) => position !== index)) {
        const field = Object.entries((other.properties ?? {}) as Record<string, Schema>).find(([name, schema]) => !own.has(name) && wrongTypeFor(schema) !== undefined);
        if (field) poisoned[field[0]] = wrongTypeFor(field[1]);
      }
      if (matches(node, poisoned)) return poisoned;
    }
  }
  return undefined;
}

/** A value of a type the schema refuses, or undefined when it names no type. */
function wrongTypeFor(schema: Schema): unknown {
  const type = typeof schema === "object" && schema !== null ? typeOf(schema) : undefined;
  if (type === undefined) return undefined;
  return type === "string" ? 0 : "not-a-" + type;
}

const checks = new WeakMap<object, (value: unknown) => boolean>();

/**
 * Whether `value` is valid for `schema` by toolsmith's own validator, the one
 * the tool checks its arguments with (types are read in either case, as
 * Gemini-style declarations write them). A schema it cannot compile accepts
 * everything, so the sampler's first guess stands.
 */
function matches(schema: unknown, value: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return true;
  let check = checks.get(schema);
  if (!check) {
    try {
      const compiled = compileArgumentsCheck({ type: "object", properties: { value: lowerCaseTypes(schema, new Set()) }, required: ["value"] }, "sample");
      check = (candidate) => compiled({ value: candidate }).ok;
    } catch {
      check = () => true;
    }
    checks.set(schema, check);
  }
  try {
    return check(value);
  } catch {
    return true;
  }
}

/** A copy with every `type` in lower case; a schema that contains itself throws, and is then not checked. */
function lowerCaseTypes(node: unknown, path: Set<unknown>): unknown {
  if (typeof node !== "object" || node === null) return node;
  if (path.has(node)) throw new Error("the schema contains itself");
  path.add(node);
  const copy = Array.isArray(node) ? node.map((item) => lowerCaseTypes(item, path)) : Object.fromEntries(Object.entries(node).map(([key, item]) => [key, key === "type" && typeof item === "string" ? item.toLowerCase() : lowerCaseTypes(item, path)]));
  path.delete(node);
  return copy;
}
