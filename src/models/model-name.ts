/** A Vertex AI resource name of a publisher's model: `projects/…/locations/…/publishers/…/models/<model>`. */
const RESOURCE_NAME = /^projects\/[^/]+\/locations\/[^/]+\/publishers\/[^/]+\/models\/(.+)$/;

/** The model's own name: `gemini-2.0-flash-001` from a Vertex AI resource name, any other name as it is. */
export function extractModelName(modelName: string): string {
  return RESOURCE_NAME.exec(modelName)?.[1] ?? modelName;
}

/**
 * Whether a model name is Gemini 2 or later, as ADK reads it: the name (or the model a Vertex AI resource name ends
 * with) is `gemini-<version>…` with a version of dotted whole numbers whose first is 2 or more. `gemini-2.5-flash`,
 * `gemini-3-pro-preview` and `projects/p/locations/l/publishers/google/models/gemini-2.0-flash-001` are;
 * `gemini-1.5-pro`, `gemini-pro`, `gemini-live-2.5-flash` and `models/gemini-2.5-flash` are not.
 *
 * @example
 * ```ts
 * import { isGemini2OrAbove } from "toolsmith";
 *
 * isGemini2OrAbove("gemini-2.5-flash"); // true
 * isGemini2OrAbove("gemini-1.5-pro"); // false
 * ```
 */
export function isGemini2OrAbove(modelName: string | undefined): boolean {
  if (!modelName) return false;
  const name = extractModelName(modelName);
  if (!name.startsWith("gemini-")) return false;
  const version = name.slice("gemini-".length).split("-", 1)[0]!;
  return /^\d+(\.\d+)*$/.test(version) && Number.parseInt(version, 10) >= 2;
}

/**
 * Whether a model name is a Gemini 3.x Flash Live model (`gemini-3.1-flash-live-preview`), as ADK reads it: such a
 * model takes text as realtime input and calls tools one turn at a time, and its live connection is driven so.
 *
 * @example
 * ```ts
 * import { isGemini3xFlashLive } from "toolsmith";
 *
 * isGemini3xFlashLive("gemini-3.1-flash-live-preview"); // true
 * isGemini3xFlashLive("gemini-live-2.5-flash"); // false
 * ```
 */
export function isGemini3xFlashLive(modelName: string | undefined): boolean {
  if (!modelName) return false;
  const name = extractModelName(modelName);
  return name.startsWith("gemini-3.") && name.includes("-flash-live");
}
