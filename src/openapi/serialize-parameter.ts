/** Whether a value is a plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A parameter or form field described by `content` instead of `schema`: its
 * value serialised as that media type (JSON for `application/json` and
 * `+json` types), sent as one string rather than spread by a style.
 */
export function serializeContentValue(value: unknown, contentType: string): string {
  if (/json/i.test(contentType)) return JSON.stringify(value);
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The `name=value` pairs of a value in a form-like place (query string,
 * cookies, an `application/x-www-form-urlencoded` body) by the Style Values
 * table: `form` repeats the name per array item when exploded (the default)
 * or joins items with `,`; an exploded object becomes its own `key=value`
 * pairs, an unexploded one `name=key,value,…`; `spaceDelimited` and
 * `pipeDelimited` join with `%20` or `|`; `deepObject` writes
 * `name[key]=value`, nested objects and arrays as deeper brackets. Names and
 * values pass through `encode`; the delimiters do not (`space` is the one
 * spaceDelimited uses, `%20` unless the caller encodes the whole value later).
 */
export function formPairs(name: string, value: unknown, options: { style: string; explode?: boolean; encode: (text: string) => string; space?: string }): [string, string][] {
  const { style, encode } = options;
  const explode = options.explode ?? style === "form";
  if (style === "deepObject") return deepObjectPairs(name, value).map(([key, item]) => [key, encode(item)]);
  const delimiter = style === "spaceDelimited" ? (options.space ?? "%20") : style === "pipeDelimited" ? "|" : ",";
  if (Array.isArray(value)) {
    if (explode) return value.map((item) => [name, encode(scalarText(item))]);
    return [[name, value.map((item) => encode(scalarText(item))).join(delimiter)]];
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (explode) return entries.map(([key, item]) => [key, encode(scalarText(item))]);
    return [[name, entries.flatMap(([key, item]) => [encode(key), encode(scalarText(item))]).join(delimiter)]];
  }
  return [[name, encode(scalarText(value))]];
}

/** `filter[color]=red`, `filter[size][]=…`: the bracket notation deepObject uses, one level per nesting. */
function deepObjectPairs(name: string, value: unknown): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => deepObjectPairs(`${name}[${isPlainObject(item) ? index : ""}]`, item));
  if (isPlainObject(value)) return Object.entries(value).flatMap(([key, item]) => (item === undefined ? [] : deepObjectPairs(`${name}[${key}]`, item)));
  return [[name, scalarText(value)]];
}

/** A value inside a serialised parameter: primitives as text, `null` as empty, anything nested as JSON. */
function scalarText(value: unknown): string {
  if (value === null) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}
