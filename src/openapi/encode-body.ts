import { Buffer } from "node:buffer";
import { randomUUID } from "node:crypto";
import { isUploadFile } from "./file-input.js";
import { formPairs, isPlainObject, serializeContentValue } from "./serialize-parameter.js";

/** How one property of a form or multipart body is sent: the operation's encoding object for it. */
export interface PropertyEncoding {
  contentType?: string;
  style?: string;
  explode?: boolean;
  allowReserved?: boolean;
}

/** The request body of an operation, as the toolset sends it. */
export interface RequestBodyShape {
  mediaType: string;
  /** The media type's `encoding`, by property name (form and multipart bodies). */
  encoding: Record<string, PropertyEncoding>;
  /** Properties whose schema is a file (`format: binary`/`byte`, or 3.1's `contentMediaType`/`contentEncoding`). */
  fileProperties: string[];
  /** A multipart body's file properties with their schemas as the document gives them; the tool asks for an artifact or base64 instead. */
  fileSchemas: Record<string, Record<string, unknown>>;
}

/**
 * The body as its media type says: `application/x-www-form-urlencoded`
 * fields serialised like query parameters by their encoding's style (form,
 * exploded, by default), `multipart/form-data` as one part per property
 * (array items as repeated parts, objects as JSON parts, files as file
 * parts, or text parts by the encoding's style when it names one), JSON as
 * JSON, and other types as text. Sets `Content-Type`. A multipart body is
 * bytes, since its file parts are.
 */
export function encodeBody(value: unknown, body: RequestBodyShape, headers: Record<string, string>): string | Uint8Array {
  if (body.mediaType === "application/x-www-form-urlencoded" && isPlainObject(value)) {
    headers["Content-Type"] = body.mediaType;
    return urlEncodedForm(value, body.encoding);
  }
  if (body.mediaType === "multipart/form-data" && isPlainObject(value)) {
    const boundary = `toolsmith-${randomUUID()}`;
    headers["Content-Type"] = `multipart/form-data; boundary=${boundary}`;
    return multipartForm(value, body, boundary);
  }
  headers["Content-Type"] = body.mediaType;
  if (/json/i.test(body.mediaType)) return JSON.stringify(value);
  return typeof value === "string" ? value : JSON.stringify(value);
}

function urlEncodedForm(value: Record<string, unknown>, encoding: Record<string, PropertyEncoding>): string {
  // The form encoding of HTML: percent-encoding with spaces as "+".
  const encode = (text: string) => encodeURIComponent(text).replace(/%20/g, "+");
  const pairs: [string, string][] = [];
  for (const [name, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const field = encoding[name] ?? {};
    if (field.contentType && typeof item !== "string") pairs.push([name, serializeContentValue(item, field.contentType)]);
    else pairs.push(...formPairs(name, item, { style: field.style ?? "form", explode: field.explode, encode: (text) => text, space: " " }));
  }
  // OpenAPI 3.1.1 (Appendix: form-urlencoded): the style's output, delimiters included, is then form-encoded as a whole.
  return pairs.map(([name, text]) => `${encode(name)}=${encode(text)}`).join("&");
}

function multipartForm(value: Record<string, unknown>, body: RequestBodyShape, boundary: string): Uint8Array {
  const parts: Buffer[] = [];
  const part = (name: string, content: string | Uint8Array, options: { contentType?: string; filename?: string; transferEncoding?: string }) => {
    const disposition = `form-data; name="${quoted(name)}"${options.filename !== undefined ? `; filename="${quoted(options.filename)}"` : ""}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${options.contentType ? `Content-Type: ${options.contentType}\r\n` : ""}${options.transferEncoding ? `Content-Transfer-Encoding: ${options.transferEncoding}\r\n` : ""}\r\n`;
    parts.push(Buffer.from(head, "utf8"), typeof content === "string" ? Buffer.from(content, "utf8") : Buffer.from(content), Buffer.from("\r\n"));
  };
  for (const [name, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const field = body.encoding[name] ?? {};
    const isFile = body.fileProperties.includes(name);
    if (field.style && !field.contentType && !isFile) {
      // OpenAPI 3.1 applies an encoding's style to multipart fields too: each resulting pair is a text part.
      for (const [partName, text] of formPairs(name, item, { style: field.style, explode: field.explode, encode: (text) => text, space: " " })) part(partName, text, {});
      continue;
    }
    // OpenAPI: an array is sent as one part per item under the same name.
    for (const entry of Array.isArray(item) && !/json/i.test(field.contentType ?? "") ? item : [item]) {
      if (isUploadFile(entry)) {
        // Bytes as they are; a field the schema says is base64 carries the base64 text, marked as such.
        const content = entry.base64Encoded ? Buffer.from(entry.bytes).toString("base64") : entry.bytes;
        part(name, content, { contentType: entry.contentType ?? singleType(field.contentType) ?? "application/octet-stream", filename: entry.filename, ...(entry.base64Encoded ? { transferEncoding: "base64" } : {}) });
      } else if (isFile && typeof entry === "string") part(name, entry, { contentType: singleType(field.contentType) ?? "application/octet-stream", filename: name });
      else if (typeof entry === "object" && entry !== null) part(name, serializeContentValue(entry, field.contentType ?? "application/json"), { contentType: field.contentType ?? "application/json" });
      else part(name, entry === null ? "" : String(entry), { contentType: field.contentType });
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return new Uint8Array(Buffer.concat(parts));
}

/** The encoding's content type when it names one concrete type (not a list, not a wildcard such as `image/*`). */
function singleType(contentType: string | undefined): string | undefined {
  return contentType && !contentType.includes(",") && !contentType.includes("*") ? contentType.trim() : undefined;
}

/** A name inside a quoted Content-Disposition parameter, escaped as the HTML standard's multipart encoding does. */
function quoted(text: string): string {
  return text.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
