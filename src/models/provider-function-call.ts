import type { FunctionCall } from "../content/content.js";
import type { LlmRequest } from "./llm-request.js";
import { restoreArguments } from "./schema/restore-arguments.js";

/**
 * A function call as the provider sent it, mapped back for the runner: the
 * arguments parsed from JSON when they came as text, and nulls for optional
 * fields turned into absent ones (see `restoreArguments`) using the schema the
 * tool declared. Arguments that are not a JSON object are kept under
 * `_unparsed_arguments`, so the runner's check refuses them and the model is
 * told to try again.
 */
export function providerFunctionCall(request: LlmRequest, call: { id?: string; name: string; args: unknown }): FunctionCall {
  const parsed = typeof call.args === "string" ? parseJson(call.args) : call.args;
  const args = isRecord(parsed) ? parsed : { _unparsed_arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args) };
  const declaration = request.functionDeclarations.find((entry) => entry.name === call.name);
  return { ...(call.id ? { id: call.id } : {}), name: call.name, args: restoreArguments(declaration?.parameters, args) };
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
