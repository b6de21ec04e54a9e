/** A schema node as the validator's dereferencing leaves it: `$ref` targets are found through the lookup. */
type SchemaNode = Record<string, unknown> & { __absolute_ref__?: string };

/** How many `$ref` hops in a row are followed without reaching a value below, before giving up on a cycle. */
const MAX_REFERENCE_HOPS = 32;

/**
 * Writes each missing field's `default` into `value` (a copy the caller owns),
 * as ajv's `useDefaults` did: from the `default` of a schema under
 * `properties`, at every level the arguments reach, through `$ref` and
 * `allOf`, and not from inside `anyOf`, `oneOf` or `not`, where it is not
 * known which branch applies.
 */
export function fillDefaults(schema: unknown, value: unknown, lookup: Readonly<Record<string, unknown>>): void {
  fill(schema, value, lookup, 0);
}

function fill(node: unknown, value: unknown, lookup: Readonly<Record<string, unknown>>, hops: number): void {
  if (typeof node !== "object" || node === null || typeof value !== "object" || value === null) return;
  const schema = node as SchemaNode;
  if (schema.__absolute_ref__ !== undefined && hops < MAX_REFERENCE_HOPS) fill(lookup[schema.__absolute_ref__], value, lookup, hops + 1);
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) fill(part, value, lookup, hops);
  if (Array.isArray(value)) {
    const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
    value.forEach((item, index) => fill(index < tuple.length ? tuple[index] : Array.isArray(schema.items) ? schema.additionalItems : schema.items, item, lookup, 0));
    return;
  }
  const record = value as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  for (const [name, property] of Object.entries(properties)) {
    if (record[name] === undefined && typeof property === "object" && property !== null && "default" in property) {
      record[name] = structuredClone((property as { default: unknown }).default);
    }
    fill(property, record[name], lookup, 0);
  }
  if (typeof schema.additionalProperties === "object") {
    for (const name of Object.keys(record)) if (!Object.hasOwn(properties, name)) fill(schema.additionalProperties, record[name], lookup, 0);
  }
}
