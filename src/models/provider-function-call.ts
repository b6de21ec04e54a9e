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

/** The wrapper some OpenAI models call instead of calling several functions at once: it becomes those calls. */
const PARALLEL_WRAPPER = "multi_tool_use.parallel";

/**
 * The calls inside a `multi_tool_use.parallel` wrapper, each with its own id
 * (`<wrapper id>_<n>`) and the `functions.` prefix removed; any other call as it is.
 */
export function expandParallelWrapper(call: { id: string; name: string; args: string }): { id: string; name: string; args: unknown }[] {
  if (call.name !== PARALLEL_WRAPPER) return [call];
  const parsed = parseJson(call.args) as { tool_uses?: { recipient_name?: unknown; parameters?: unknown }[] } | undefined;
  if (!Array.isArray(parsed?.tool_uses)) return [call];
  return parsed.tool_uses.map((use, index) => ({ id: `${call.id}_${index}`, name: String(use.recipient_name ?? "").replace(/^functions\./, ""), args: use.parameters ?? {} }));
}

function parseJson(text: string): unknown {
  return text.trim() === "" ? {} : parseJsonOrUndefined(text);
}

/** JSON text parsed, or undefined when it is not JSON (a provider's body or a model's arguments cannot be trusted to be). */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
