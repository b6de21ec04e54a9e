import { isReference, lookUpPointer, type OpenApiDocument } from "./openapi-document.js";

/** Keywords of OpenAPI schemas that are documentation or serialisation hints, not validation. */
const DROPPED = new Set(["xml", "example", "externalDocs", "discriminator", "deprecated", "x-readme-ref-name"]);
/** Keywords that say what the server does when a field is left out; in request schemas they are told, not applied. */
const TOLD_NOT_APPLIED = new Set(["default", "deprecated"]);

/**
 * A schema with every `$ref` replaced by what it points to, as a tool's
 * parameters must stand alone. A reference that leads back into itself
 * (a tree, a linked list) is cut there to an unconstrained schema that says
 * so, which keeps the schema finite. OpenAPI 3.0's `nullable` becomes a
 * JSON Schema type that admits `null`, and its boolean `exclusiveMinimum` /
 * `exclusiveMaximum` the numeric bounds of JSON Schema; properties marked
 * `readOnly` are left out of request schemas. In request schemas a `default`
 * and `deprecated` are moved into the description: the server applies a
 * default when the field is left out, so the validator must not fill it in
 * (a deprecated field would be sent, and a `default: null` refused).
 * Required names the schema lists without defining them are kept.
 */
export function inlineSchema(document: OpenApiDocument, schema: unknown, options: { forRequest?: boolean } = {}): Record<string, unknown> {
  const inlined = inline(document, schema, [], options.forRequest ?? true);
  return typeof inlined === "object" && inlined !== null && !Array.isArray(inlined) ? (inlined as Record<string, unknown>) : {};
}

function inline(document: OpenApiDocument, value: unknown, stack: readonly string[], forRequest: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => inline(document, item, stack, forRequest));
  if (typeof value !== "object" || value === null) return value;
  if (isReference(value)) {
    const pointer = value.$ref;
    const target = lookUpPointer(document, pointer);
    if (stack.includes(pointer)) {
      // Cut here, keeping the type, so a value of the right kind is still asked for.
      const type = (target as { type?: unknown } | undefined)?.type;
      return { ...(type === undefined ? {} : { type }), description: `(recursive: ${pointer.split("/").pop()}; any value of that shape)` };
    }
    return target === undefined ? {} : inline(document, target, [...stack, pointer], forRequest);
  }
  const source = value as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  const removedReadOnly = new Set<string>();
  for (const [key, child] of Object.entries(source)) {
    if (forRequest && TOLD_NOT_APPLIED.has(key)) continue;
    if (DROPPED.has(key) || key === "nullable") continue;
    if (key === "properties" && typeof child === "object" && child !== null) {
      const properties: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(child)) {
        const resolved = isReference(property) ? lookUpPointer(document, property.$ref) : property;
        if (forRequest && (resolved as { readOnly?: unknown } | undefined)?.readOnly === true) {
          removedReadOnly.add(name);
          continue;
        }
        properties[name] = inline(document, property, stack, forRequest);
      }
      result.properties = properties;
    } else result[key] = inline(document, child, stack, forRequest);
  }
  if (forRequest && Array.isArray(result.required) && removedReadOnly.size) {
    const kept = result.required.filter((name) => !removedReadOnly.has(String(name)));
    if (kept.length) result.required = kept;
    else delete result.required;
  }
  // OpenAPI 3.0 (like JSON Schema draft-04) writes an exclusive bound as a boolean beside minimum/maximum;
  // the JSON Schema the validator and the models read puts the number in exclusiveMinimum/exclusiveMaximum.
  for (const [exclusive, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
    if (typeof result[exclusive] !== "boolean") continue;
    if (result[exclusive] === true && typeof result[bound] === "number") {
      result[exclusive] = result[bound];
      delete result[bound];
    } else delete result[exclusive];
  }
  if (typeof result.pattern === "string") unicodeSafePattern(result);
  if (forRequest) describeUnapplied(source, result);
  if (source.nullable === true) {
    // An enum must list null too, or it refuses the null the type now admits.
    if (Array.isArray(result.enum) && !result.enum.includes(null)) result.enum = [...result.enum, null];
    if (typeof result.type === "string") result.type = [result.type, "null"];
    // Without a type of its own (a $ref, allOf, oneOf), null is admitted beside the whole schema.
    else if (result.type === undefined) return { anyOf: [result, { type: "null" }] };
  }
  return result;
}

/** "Deprecated." and "Default: 10." at the end of the description, for the model to read. */
function describeUnapplied(source: Record<string, unknown>, result: Record<string, unknown>): void {
  const notes: string[] = [];
  if (source.deprecated === true) notes.push("Deprecated: leave out unless needed.");
  if (Object.hasOwn(source, "default")) notes.push(`Default when left out: ${JSON.stringify(source.default)}.`);
  if (!notes.length) return;
  result.description = [typeof result.description === "string" ? result.description : "", ...notes].filter(Boolean).join(" ");
}

/**
 * OpenAPI patterns are ECMA-262 regular expressions without flags, where a
 * `{` that starts no quantifier is a literal; JSON Schema validators read
 * them with the `u` flag, which refuses it (and throws while checking a
 * call). Such braces are escaped; a pattern that still cannot be read with
 * `u` is told to the model in the description instead of checked.
 */
function unicodeSafePattern(result: Record<string, unknown>): void {
  const pattern = result.pattern as string;
  if (compilesWithUnicode(pattern)) return;
  const escaped = pattern.replace(/(\\.)|\{(?!\d+(?:,\d*)?\})|(?<!\{\d+(?:,\d*)?)\}/g, (match, escape: string | undefined) => escape ?? `\\${match}`);
  if (compilesWithUnicode(escaped)) {
    result.pattern = escaped;
    return;
  }
  delete result.pattern;
  result.description = [typeof result.description === "string" ? result.description : "", `Must match the regular expression ${pattern}.`].filter(Boolean).join(" ");
}

function compilesWithUnicode(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}
