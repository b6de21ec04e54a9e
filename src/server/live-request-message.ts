import type { LiveRequest } from "../agents/live-request-queue.js";
import type { Blob, Content } from "../content/content.js";
import { setOwnField } from "../content/own-field.js";
import { isPlainObject } from "../tools/tool-result.js";
import { LIVE_CLOSE, LiveCloseError } from "./live-close.js";

/** The fields of a LiveRequest message, in ADK Python's spelling, with toolsmith's (`LiveRequest`'s) name for each. */
const FIELDS: Readonly<Record<string, keyof LiveRequest>> = {
  content: "content",
  blob: "blob",
  activity_start: "activityStart",
  activityStart: "activityStart",
  activity_end: "activityEnd",
  activityEnd: "activityEnd",
  close: "close",
};

const EXAMPLE = 'Send one of {"content": {"role": "user", "parts": [{"text": "Hi"}]}}, {"blob": {"mime_type": "audio/pcm;rate=16000", "data": "<base64>"}}, {"activity_start": {}}, {"activity_end": {}}, {"close": true}.';

/** Base64, standard or URL-safe (pydantic writes Python's bytes URL-safe), padded or not. */
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Keys whose values are the developer's data (a call's arguments, a tool's result): their keys are never renamed. */
const PAYLOAD_KEYS = new Set(["args", "response"]);

/**
 * One text frame of a `/run_live` client as the {@link LiveRequest} to queue, read as ADK Python reads its
 * `LiveRequest` JSON: `content`, `blob`, `activity_start`, `activity_end` or `close`, snake_case or camelCase at
 * every level (inside a content too: `inline_data`, `function_response`), `null` and `close: false` taken as
 * absent (what a pydantic `model_dump_json()` writes for the fields not set). A message that is not JSON, names an
 * unknown field, sets none or more than one, or carries a field of the wrong shape is refused with a
 * {@link LiveCloseError} (1007) saying what was wrong.
 */
export function parseLiveRequestMessage(text: string): LiveRequest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    refuse(`A message is not JSON (${(error as Error).message}). ${EXAMPLE}`);
  }
  if (!isPlainObject(value)) refuse(`A message must be a JSON object. ${EXAMPLE}`);
  const given: Array<[keyof LiveRequest, unknown]> = [];
  for (const [key, field] of Object.entries(value)) {
    const name = Object.hasOwn(FIELDS, key) ? FIELDS[key] : undefined;
    if (!name) refuse(`A message has no field "${key}". ${EXAMPLE}`);
    if (field === null || field === undefined || (name === "close" && field === false)) continue;
    given.push([name, field]);
  }
  if (given.length !== 1) refuse(given.length === 0 ? `A message sets none of its fields. ${EXAMPLE}` : `A message sets ${given.map(([name]) => name).join(" and ")}; set one per message.`);
  const [name, field] = given[0]!;
  switch (name) {
    case "content":
      return { content: readContent(field) };
    case "blob":
      return { blob: readBlob(field) };
    case "activityStart":
    case "activityEnd":
      if (!isPlainObject(field) || Object.keys(field).length > 0) refuse(`A message's ${name} must be an empty object: {"${name === "activityStart" ? "activity_start" : "activity_end"}": {}}.`);
      return { [name]: {} };
    default:
      if (field !== true) refuse(`A message's close must be true, not ${JSON.stringify(field)}.`);
      return { close: true };
  }
}

function readContent(value: unknown): Content {
  if (!isPlainObject(value)) refuse('A message\'s content must be an object: {"role": "user", "parts": [{"text": "Hi"}]}.');
  const content = camelCased(value) as Record<string, unknown>;
  const { role, parts } = content;
  if (!Array.isArray(parts) || parts.length === 0 || !parts.every(isPlainObject)) refuse('A message\'s content needs a list of parts such as [{"text": "Hi"}].');
  if (role !== undefined && typeof role !== "string") refuse("A message's content.role must be a string (user, the default).");
  return { ...content, role: role ?? "user", parts } as Content;
}

function readBlob(value: unknown): Blob {
  if (!isPlainObject(value)) refuse('A message\'s blob must be an object: {"mime_type": "audio/pcm;rate=16000", "data": "<base64>"}.');
  const { mimeType, data, displayName, ...rest } = camelCased(value) as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) refuse(`A message's blob has no field "${unknown}"; it takes mime_type, data and display_name.`);
  if (typeof mimeType !== "string" || mimeType === "") refuse('A message\'s blob needs its mime_type, such as "audio/pcm;rate=16000" or "image/jpeg".');
  if (typeof data !== "string" || !BASE64.test(data)) refuse("A message's blob needs its data as a base64 string.");
  if (displayName !== undefined && typeof displayName !== "string") refuse("A message's blob.display_name must be a string.");
  return { mimeType, data, ...(displayName === undefined ? {} : { displayName }) };
}

/** Deeper than this outside a call's arguments and a tool's result, a message is refused rather than walked. */
const MAX_DEPTH = 32;

/** Every key in camelCase and every `null` left out, but inside a call's arguments and a tool's result. */
function camelCased(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) refuse(`A message nests more than ${MAX_DEPTH} levels deep outside function arguments and results.`);
  if (Array.isArray(value)) return value.map((item) => camelCased(item, depth + 1));
  if (!isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (inner === null) continue;
    const name = key.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
    setOwnField(result, name, PAYLOAD_KEYS.has(name) ? inner : camelCased(inner, depth + 1));
  }
  return result;
}

function refuse(message: string): never {
  throw new LiveCloseError(LIVE_CLOSE.INVALID_MESSAGE, "INVALID_LIVE_REQUEST", message);
}
