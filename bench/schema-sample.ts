/**
 * A value that satisfies a JSON Schema, for calling every operation of an
 * OpenAPI document with arguments taken from its tool schema. Deterministic
 * (the same schema gives the same value), so a refusal can be replayed.
 * Strings with a `pattern` come from fast-check's `stringMatching`; formats
 * get a well-formed example; every defined property is filled, so that each
 * serialisation path is exercised, down to a depth where only required ones are.
 */
import fc from "fast-check";

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
};

/** A value valid for `schema`, or `undefined` when the schema admits nothing this sampler can make. */
export function sampleValue(schema: unknown, variant = 0, depth = 0): unknown {
  if (schema === true || schema === undefined) return "value";
  // A schema object that contains itself (ADK's declarations of recursive documents) ends here.
  if (typeof schema !== "object" || schema === null || depth > 12) return undefined;
  const node = schema as Schema;
  if ("const" in node) return node.const;
  if (Array.isArray(node.enum)) return node.enum.find((item) => item !== null) ?? node.enum[0];
  if (Array.isArray(node.examples) && node.examples.length) return node.examples[0];
  if (Array.isArray(node.allOf)) return sampleValue(mergeAll(node), variant, depth);
  for (const key of ["oneOf", "anyOf"] as const) {
    if (Array.isArray(node[key])) {
      // A branch that is not null, merged with what the node says beside it (properties, required).
      const { [key]: branches, ...rest } = node;
      // `variant` picks another branch, for when the first one's value also matches a second (oneOf refuses that).
      const candidates = (branches as Schema[]).filter((item) => typeOf(item) !== "null");
      const list = candidates.length ? candidates : (branches as Schema[]);
      return sampleValue(mergeAll({ allOf: [rest, list[variant % list.length]] }), variant, depth);
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
        if (depth > 3 && !required.has(name)) continue;
        const value = sampleValue(property, variant, depth + 1);
        if (value !== undefined) object[name] = value;
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
  if (typeof node.pattern === "string") {
    try {
      const pattern = new RegExp(node.pattern, "u");
      const matches = fc.sample(fc.stringMatching(pattern), { numRuns: 50, seed: 42 });
      const fitting = matches.find((text) => [...text].length >= min && [...text].length <= max && pattern.test(text));
      if (fitting !== undefined) return fitting;
    } catch {
      // A pattern JavaScript cannot read falls back to a plain string.
    }
  }
  let text = typeof node.format === "string" && FORMATS[node.format] ? FORMATS[node.format]! : "value";
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
