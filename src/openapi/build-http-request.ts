import type { OperationShape } from "./describe-operations.js";
import type { AppliedAuth } from "./openapi-auth.js";

/** A request ready for `fetch`. */
export interface HttpRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | FormData;
}

/**
 * The HTTP request for a call: path parameters substituted, query, header and
 * cookie parameters serialised by their style (form, simple, deepObject,
 * pipe- and space-delimited), the body encoded as its media type, and the
 * authentication added.
 */
export function buildHttpRequest(options: { shape: OperationShape; baseUrl: string; args: Record<string, unknown>; auth: AppliedAuth; headers?: Record<string, string> }): HttpRequest {
  const { shape, args, auth } = options;
  let path = shape.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = { ...options.headers };
  const cookies: [string, string][] = [];
  let body: HttpRequest["body"];

  for (const input of shape.inputs) {
    const value = args[input.property];
    if (value === undefined) continue;
    if (input.location === "path") path = path.split(`{${input.name}}`).join(serializePathValue(value, input.style, input.explode));
    else if (input.location === "query") appendQuery(query, input.name, value, input.style ?? "form", input.explode ?? (input.style ?? "form") === "form");
    else if (input.location === "header") headers[input.name] = serializeSimple(value, input.explode ?? false);
    else if (input.location === "cookie") cookies.push([input.name, serializeSimple(value, false)]);
    else body = encodeBody(value, shape.bodyMediaType, headers);
  }
  for (const [name, value] of auth.query) query.append(name, value);
  Object.assign(headers, auth.headers);
  cookies.push(...auth.cookies);
  if (cookies.length) headers.Cookie = cookies.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");
  if (shape.accept && !Object.keys(headers).some((name) => name.toLowerCase() === "accept")) headers.Accept = shape.accept;

  const queryText = query.toString();
  const url = `${options.baseUrl.replace(/\/+$/, "")}${path}${queryText ? `?${queryText}` : ""}`;
  return { url, method: shape.method.toUpperCase(), headers, body };
}

function serializePathValue(value: unknown, style = "simple", explode = false): string {
  const simple = serializeSimple(value, explode);
  const encoded = simple.split(",").map(encodeURIComponent).join(",");
  if (style === "label") return `.${encoded}`;
  if (style === "matrix") return `;${encoded}`;
  return encoded;
}

function serializeSimple(value: unknown, explode: boolean): string {
  if (Array.isArray(value)) return value.map(String).join(",");
  if (typeof value === "object" && value !== null) {
    return Object.entries(value)
      .map(([key, item]) => (explode ? `${key}=${String(item)}` : `${key},${String(item)}`))
      .join(",");
  }
  return String(value);
}

function appendQuery(query: URLSearchParams, name: string, value: unknown, style: string, explode: boolean): void {
  if (Array.isArray(value)) {
    if (explode) for (const item of value) query.append(name, String(item));
    else query.append(name, value.map(String).join(style === "pipeDelimited" ? "|" : style === "spaceDelimited" ? " " : ","));
    return;
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    if (style === "deepObject") for (const [key, item] of entries) query.append(`${name}[${key}]`, String(item));
    else if (explode) for (const [key, item] of entries) query.append(key, String(item));
    else query.append(name, entries.map(([key, item]) => `${key},${String(item)}`).join(","));
    return;
  }
  query.append(name, String(value));
}

function encodeBody(value: unknown, mediaType: string | undefined, headers: Record<string, string>): string | FormData {
  if (mediaType === "application/x-www-form-urlencoded") {
    headers["Content-Type"] = mediaType;
    const form = new URLSearchParams();
    for (const [key, item] of Object.entries((value ?? {}) as Record<string, unknown>)) form.append(key, typeof item === "object" ? JSON.stringify(item) : String(item));
    return form.toString();
  }
  if (mediaType === "multipart/form-data") {
    // fetch sets the multipart Content-Type with its boundary itself.
    const form = new FormData();
    for (const [key, item] of Object.entries((value ?? {}) as Record<string, unknown>)) form.append(key, typeof item === "object" ? JSON.stringify(item) : String(item));
    return form;
  }
  if (mediaType && !/json/.test(mediaType)) {
    headers["Content-Type"] = mediaType;
    return typeof value === "string" ? value : JSON.stringify(value);
  }
  headers["Content-Type"] = mediaType ?? "application/json";
  return JSON.stringify(value);
}
