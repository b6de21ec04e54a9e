import type { FunctionResponse } from "../content/content.js";
import { compileArgumentsCheck } from "../tools/json-schema-validator.js";
import type { JsonSchema } from "../tools/tool.js";
import { pauseReasonOf } from "./paused-call.js";

/**
 * The person's answer to an `adk_request_input` question, as ADK reads it: `{result: value}` as `value`, text in it
 * parsed as JSON unless the question's schema takes text; any other response as it is.
 */
export function unwrapAnswer(response: Record<string, unknown> | undefined, schema: JsonSchema | undefined): unknown {
  if (!response || Object.keys(response).length !== 1 || !("result" in response)) return response;
  const value = response.result;
  if (typeof value !== "string" || takesText(schema)) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function takesText(schema: JsonSchema | undefined): boolean {
  if (!schema || typeof schema !== "object") return false;
  const type = (schema as { type?: unknown }).type;
  if (type === "string" || (Array.isArray(type) && type.includes("string"))) return true;
  return ["anyOf", "oneOf"].some((key) => Array.isArray((schema as Record<string, unknown>)[key]) && ((schema as Record<string, JsonSchema[]>)[key]!).some(takesText));
}

/** Why a structured answer misses the question's schema (the question then stays open), or nothing. */
export function answerMismatch(id: string, value: unknown, schema: JsonSchema | undefined): string | undefined {
  if (!schema || typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const checked = compileArgumentsCheck(schema, `answer to ${id}`)(value as Record<string, unknown>);
  if (checked.ok) return undefined;
  const problems = checked.issues.map((issue) => (issue.field ? `${issue.field}: ${issue.problem}` : issue.problem)).join("; ");
  return `The answer to "${id}" does not match the responseSchema its question gave: ${problems}. The question is still waiting: answer in that shape, or wrap a bare value as {"result": …}.`;
}

/** The schema an `adk_request_input` call gave its answer (`response_schema`), if any. */
export function responseSchemaOf(args: Record<string, unknown> | undefined): JsonSchema | undefined {
  return (args?.response_schema as JsonSchema | null | undefined) ?? undefined;
}

/**
 * Whether a question's latest response answers it: not the paused placeholder it holds while it waits, and not an
 * answer its schema refused (the question stays open after one).
 */
export function answersQuestion(questionId: string, args: Record<string, unknown> | undefined, latest: FunctionResponse | undefined): boolean {
  if (!latest || pauseReasonOf(latest.response) !== undefined) return false;
  const schema = responseSchemaOf(args);
  return answerMismatch(questionId, unwrapAnswer(latest.response, schema), schema) === undefined;
}
