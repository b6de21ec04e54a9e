import type { OperationInput, OperationShape } from "./describe-operations.js";
import type { AppliedAuth } from "./openapi-auth.js";
import { encodeBody } from "./encode-body.js";
import { formPairs, isPlainObject, serializeContentValue } from "./serialize-parameter.js";
import { trimTrailing } from "../platform/trim-runs.js";

/** A request ready for `fetch`. */
export interface HttpRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/**
 * The HTTP request for a call: each parameter serialised by its `style` and
 * `explode` (or as its `content` media type), the body encoded as its media
 * type and encoding object say, and the authentication added.
 */
export function buildHttpRequest(options: { shape: OperationShape; path: string; baseUrl: string; args: Record<string, unknown>; auth: AppliedAuth; headers?: Record<string, string> }): HttpRequest {
  const { shape, path, args, auth } = options;
  const query: string[] = [];
  const headers: Record<string, string> = { ...options.headers };
  const cookies: [string, string][] = [];
  let body: HttpRequest["body"];

  for (const input of shape.inputs) {
    const value = args[input.property];
    if (value === undefined || input.location === "path") continue;
    if (input.location === "query") query.push(...queryPairs(input, value).map(([name, text]) => `${encodeQueryName(name)}=${text}`));
    else if (input.location === "header") headers[input.name] = serializeHeader(input, value);
    else if (input.location === "cookie") cookies.push(...cookiePairs(input, value));
    else body = encodeBody(value, shape.body!, headers);
  }
  for (const [name, value] of auth.query) query.push(`${encodeQueryName(name)}=${encodeQueryPart(value, false)}`);
  Object.assign(headers, auth.headers);
  cookies.push(...auth.cookies.map(([name, value]): [string, string] => [name, encodeURIComponent(value)]));
  if (cookies.length) headers.Cookie = cookies.map(([name, value]) => `${name}=${value}`).join("; ");
  if (shape.accept && !Object.keys(headers).some((name) => name.toLowerCase() === "accept")) headers.Accept = shape.accept;

  const url = `${trimTrailing(options.baseUrl, "/")}${path}${query.length ? `?${query.join("&")}` : ""}`;
  // OpenAPI never gives GET or HEAD a body; fetch would refuse one anyway.
  return { url, method: shape.method.toUpperCase(), headers, body: shape.method === "get" || shape.method === "head" ? undefined : body };
}

/**
 * The operation's path with its path parameters serialised into it (`path` for {@link buildHttpRequest}), or why
 * the arguments cannot make it. A value is percent-encoded, so it never adds a `/`; but a whole segment it makes
 * `.` or `..` would be resolved away by the URL (WHATWG URL also reads `%2e` as a dot), sending the request, with
 * its credentials, to another path than the operation's, even above the base URL's; an empty segment (`//`)
 * is merged by many servers and proxies likewise. Such values are refused, as the model can give the right one.
 */
export function fillPath(shape: OperationShape, args: Record<string, unknown>): { path: string } | { error: string } {
  let path = shape.path;
  for (const input of shape.inputs) {
    const value = args[input.property];
    if (input.location === "path" && value !== undefined) path = path.split(`{${input.name}}`).join(serializePath(input, value));
  }
  const written = shape.path.split("/");
  const filled = path.split("/");
  for (let index = 0; index < written.length; index++) {
    const segment = filled[index]!;
    if (segment === written[index] || !(segment === "" || isDotSegment(segment))) continue;
    const names = shape.inputs.filter((input) => input.location === "path" && written[index]!.includes(`{${input.name}}`)).map((input) => `"${input.name}"`);
    const given = names.length === 1 ? `path parameter ${names[0]}` : `path parameters ${names.join(" and ")}`;
    return segment === ""
      ? { error: `The ${given} made an empty segment of the path ${shape.path}, which servers may merge away, reaching another path. Give a value that is not empty.` }
      : { error: `The ${given} made the segment "${segment}" of the path ${shape.path}, which the URL resolves away, reaching another path. Give the value itself, not a relative path.` };
  }
  return { path };
}

/** `.` or `..`, with any dot written `%2e` (as WHATWG URL reads them). */
function isDotSegment(segment: string): boolean {
  return /^(?:\.|%2e){1,2}$/i.test(segment);
}

/**
 * A path parameter by the Style Values table: `simple` `3,4,5`, `label`
 * `.3,4,5` (exploded `.3.4.5`), `matrix` `;id=3,4,5` (exploded
 * `;id=3;id=4;id=5`); objects as `key,value` pairs, or `key=value` exploded.
 */
function serializePath(input: OperationInput, value: unknown): string {
  if (input.contentType) return encodeURIComponent(serializeContentValue(value, input.contentType));
  const style = input.style ?? "simple";
  const explode = input.explode ?? false;
  const encode = (text: string) => encodeURIComponent(text);
  if (style === "matrix") {
    const name = encode(input.name);
    if (Array.isArray(value)) return explode ? value.map((item) => `;${name}=${encode(String(item))}`).join("") : `;${name}=${value.map((item) => encode(String(item))).join(",")}`;
    if (isPlainObject(value)) {
      const entries = Object.entries(value);
      return explode ? entries.map(([key, item]) => `;${encode(key)}=${encode(String(item))}`).join("") : `;${name}=${entries.flatMap(([key, item]) => [encode(key), encode(String(item))]).join(",")}`;
    }
    // An empty string is `;id` in the table, without `=`.
    return value === "" ? `;${name}` : `;${name}=${encode(String(value))}`;
  }
  const separator = style === "label" && explode ? "." : ",";
  const prefix = style === "label" ? "." : "";
  if (Array.isArray(value)) return prefix + value.map((item) => encode(String(item))).join(separator);
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    return prefix + (explode ? entries.map(([key, item]) => `${encode(key)}=${encode(String(item))}`).join(separator) : entries.flatMap(([key, item]) => [encode(key), encode(String(item))]).join(","));
  }
  return prefix + encode(String(value));
}

/** The `name=value` pairs of a query parameter, values already percent-encoded with their delimiters kept. */
function queryPairs(input: OperationInput, value: unknown): [string, string][] {
  if (input.contentType) return [[input.name, encodeQueryPart(serializeContentValue(value, input.contentType), false)]];
  return formPairs(input.name, value, { style: input.style ?? "form", explode: input.explode, encode: (text) => encodeQueryPart(text, input.allowReserved ?? false) });
}

/**
 * Percent-encodes a query name or value. `allowReserved` keeps RFC 3986's
 * reserved characters as they are, as the parameter asks; `&`, `=`, `#` and
 * `+` are encoded even then, since they would change the query's structure.
 */
function encodeQueryPart(text: string, allowReserved: boolean): string {
  const encoded = encodeURIComponent(text);
  return allowReserved ? encoded.replace(/%(3A|2F|3F|5B|5D|40|21|24|27|28|29|2A|2C|3B)/gi, (escape) => decodeURIComponent(escape)) : encoded;
}

/** A query name, with the brackets of deepObject's `filter[color]` kept as the specification writes them. */
function encodeQueryName(name: string): string {
  return encodeURIComponent(name).replace(/%5B/gi, "[").replace(/%5D/gi, "]");
}

/** A header is always `simple`: `3,4,5`, `role,admin` or, exploded, `role=admin`. */
function serializeHeader(input: OperationInput, value: unknown): string {
  if (input.contentType) return serializeContentValue(value, input.contentType);
  if (Array.isArray(value)) return value.map(String).join(",");
  if (isPlainObject(value)) return Object.entries(value).map(([key, item]) => (input.explode ? `${key}=${String(item)}` : `${key},${String(item)}`)).join(",");
  return String(value);
}

/**
 * Cookies are `form`: `id=3,4,5`, or one cookie per item when exploded (the
 * default); an exploded object is one cookie per property. Values are
 * percent-encoded, as cookie values may not hold `;`, `,` or spaces raw.
 */
function cookiePairs(input: OperationInput, value: unknown): [string, string][] {
  if (input.contentType) return [[input.name, encodeURIComponent(serializeContentValue(value, input.contentType))]];
  return formPairs(input.name, value, { style: "form", explode: input.explode, encode: encodeURIComponent });
}
