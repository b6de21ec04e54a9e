/**
 * What a provider would do to a schema as written: `rejected` means the
 * provider refuses it and toolsmith rewrote it to an equivalent form the
 * provider accepts; `weakened` means the constraint cannot be expressed for
 * that provider and is left out of what the model sees (toolsmith still checks
 * the arguments against the original schema, so the rule holds, but the model
 * may break it and be told to retry).
 */
export type SchemaFindingEffect = "rejected" | "weakened";

/** One change the schema compiler made for a provider, and why. */
export interface SchemaFinding {
  /** Where in the schema, as a JSON Pointer (`/properties/address/properties/zip`); empty for the root. */
  path: string;
  /** The JSON Schema keyword concerned (`$ref`, `additionalProperties`, `oneOf`, …). */
  keyword: string;
  effect: SchemaFindingEffect;
  /** What the provider does with it and what toolsmith did instead. */
  message: string;
}

/** Appends a segment to a JSON Pointer. */
export function childPath(path: string, ...segments: (string | number)[]): string {
  return segments.reduce<string>((pointer, segment) => `${pointer}/${String(segment).replace(/~/g, "~0").replace(/\//g, "~1")}`, path);
}
