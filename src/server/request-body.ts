import type { Content } from "../content/content.js";
import { HttpError } from "./http-error.js";

/** The request's JSON body as an object; an empty body is `{}`. Malformed JSON is a 400 that says where. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, "MALFORMED_JSON", `The request body is not valid JSON (${(error as Error).message}). Send a JSON object.`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HttpError(400, "INVALID_BODY", "The request body must be a JSON object.");
  }
  return value as Record<string, unknown>;
}

/** A required string field, read as camelCase or as ADK Python's snake_case. */
export function requiredString(body: Record<string, unknown>, name: string): string {
  const value = body[name] ?? body[snakeCase(name)];
  if (typeof value !== "string" || value === "") throw new HttpError(400, "INVALID_BODY", `"${name}" is required and must be a non-empty string.`);
  return value;
}

/** An optional object field (camelCase or snake_case). */
export function optionalObject(body: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const value = body[name] ?? body[snakeCase(name)];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw new HttpError(400, "INVALID_BODY", `"${name}" must be a JSON object.`);
  return value as Record<string, unknown>;
}

/** The `newMessage` of a run request: content with a list of parts; role defaults to `user`. */
export function optionalMessage(body: Record<string, unknown>): Content | undefined {
  const message = optionalObject(body, "newMessage");
  if (!message) return undefined;
  const parts = message.parts;
  if (!Array.isArray(parts) || parts.some((part) => typeof part !== "object" || part === null || Array.isArray(part))) {
    throw new HttpError(400, "INVALID_BODY", '"newMessage.parts" must be a list of parts such as [{"text": "Hello"}].');
  }
  return { role: typeof message.role === "string" ? message.role : "user", parts } as Content;
}

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
