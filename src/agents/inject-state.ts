import type { Part } from "../content/content.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { ReadonlyContext } from "./readonly-context.js";

// `{key}` (any number of braces), or a graph workflow's `<x.field from node>` (ADK's source-node placeholder). A
// placeholder starts at the first brace of a run: tried from each brace, a long run of them took quadratic time.
const PLACEHOLDER = /(?<!\{)\{+([^{}]*)\}+|<\s*[A-Za-z_]\w*\.([A-Za-z_]\w*)\s+from\s+([A-Za-z_]\w*)\s*>/g;
const WORKFLOW_FIELD = /^[A-Za-z_]\w*\.([A-Za-z_]\w*)$/;
const STATE_NAME = /^(?:(?:app|user|temp):)?[A-Za-z_][A-Za-z0-9_]*$/;
const ARTIFACT_PREFIX = "artifact.";

/** Loads an artifact of the session by name, for `{artifact.name}`; `undefined` when it does not exist. */
export type ArtifactLoader = (filename: string) => Promise<Part | undefined>;

/**
 * Fills an instruction as ADK does: `{key}` with the state value (objects as
 * JSON), `{key?}` with the value or nothing, `{artifact.name}` with the
 * artifact's text (`{artifact.name?}` with nothing when it does not exist).
 * Braces around anything that is not a state name or an artifact (JSON
 * examples, say) are left as they are. As in ADK, any number of braces
 * make a placeholder (`{{key}}` is `{key}`), since ADK's samples write
 * both. Filled in
 * one pass, so text that comes from state or an artifact is never filled in
 * turn.
 */
export async function injectState(template: string, context: ReadonlyContext, loadArtifact?: ArtifactLoader): Promise<string> {
  const state = context.state;
  const pieces: Array<string | Promise<string>> = [];
  let last = 0;
  const scope = context.invocationContext.workflowInstructionScope;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const [raw, inner, sourceField, sourceNode] = match as unknown as [string, string | undefined, string | undefined, string | undefined];
    pieces.push(template.slice(last, match.index));
    last = match.index! + raw.length;
    if (inner === undefined) {
      // `<x.field from node>`: a field of an earlier node's output, in a workflow; else the text as it is.
      const output = scope?.outputsByNode[sourceNode!];
      pieces.push(isRecord(output) && sourceField! in output ? formatValue(output[sourceField!]) : raw);
      continue;
    }
    const optional = inner.endsWith("?");
    const key = (optional ? inner.slice(0, -1) : inner).trim();
    if (key.startsWith(ARTIFACT_PREFIX) && key.length > ARTIFACT_PREFIX.length) {
      pieces.push(artifactText(key.slice(ARTIFACT_PREFIX.length), optional, context, loadArtifact));
      continue;
    }
    if (!STATE_NAME.test(key)) {
      // In a workflow's agent node, `{input.field}` is a field of the node's input, as ADK fills it.
      const field = scope ? WORKFLOW_FIELD.exec(key)?.[1] : undefined;
      if (field !== undefined && isRecord(scope!.input) && field in scope!.input) pieces.push(formatValue(scope!.input[field]));
      else pieces.push(field !== undefined && optional ? "" : raw);
      continue;
    }
    if (!state.has(key)) {
      if (optional) {
        pieces.push("");
        continue;
      }
      throw new ConfigurationError(
        "MISSING_STATE_KEY",
        `The instruction of agent "${context.agentName}" uses {${key}}, but the session state has no "${key}". ` + `Set it before the run, or write {${key}?} to make it optional.`,
      );
    }
    pieces.push(formatValue(state.get(key)));
  }
  pieces.push(template.slice(last));
  return (await Promise.all(pieces)).join("");
}

function formatValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

async function artifactText(filename: string, optional: boolean, context: ReadonlyContext, loadArtifact: ArtifactLoader | undefined): Promise<string> {
  if (!loadArtifact) {
    throw new ConfigurationError("NO_ARTIFACT_SERVICE", `The instruction of agent "${context.agentName}" uses {artifact.${filename}}, but no artifact service is configured. Pass artifactService to the Runner.`);
  }
  const artifact = await loadArtifact(filename);
  if (!artifact) {
    if (optional) return "";
    throw new ConfigurationError(
      "MISSING_ARTIFACT",
      `The instruction of agent "${context.agentName}" uses {artifact.${filename}}, but the session has no artifact "${filename}". Save it before the run, or write {artifact.${filename}?} to make it optional.`,
    );
  }
  if (artifact.text !== undefined) return artifact.text;
  const { mimeType, data } = artifact.inlineData ?? {};
  if (data !== undefined && (mimeType?.startsWith("text/") || mimeType === "application/json")) return Buffer.from(data, "base64").toString("utf8");
  return JSON.stringify(artifact);
}
