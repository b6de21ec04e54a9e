import { extname } from "node:path";
import type { ToolContext } from "../tool-context.js";

/** The languages a skill's script may be in, by its file ending (ADK's names). */
export type ScriptLanguage = "python" | "shell" | "javascript";

const LANGUAGE_BY_ENDING: Record<string, ScriptLanguage> = { ".py": "python", ".sh": "shell", ".bash": "shell", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript" };

/** A script's language from its file ending; `undefined` when skills cannot run it. */
export function scriptLanguage(scriptPath: string): ScriptLanguage | undefined {
  const ending = extname(scriptPath).toLowerCase();
  return Object.hasOwn(LANGUAGE_BY_ENDING, ending) ? LANGUAGE_BY_ENDING[ending] : undefined;
}

/** The file endings {@link scriptLanguage} knows, for messages. */
export const SCRIPT_ENDINGS = Object.keys(LANGUAGE_BY_ENDING);

/** What {@link ScriptRunner} is asked to run. */
export interface ScriptRunRequest {
  /** The skill's name. */
  skillName: string;
  /** The script's path inside the skill's folder, such as `scripts/convert.py`. */
  scriptPath: string;
  language: ScriptLanguage;
  /** Command-line arguments after the script (`{ out: "a.txt" }` is given as `--out a.txt`). */
  args: readonly string[];
  /** Every file of the skill, by path inside its folder (`scripts/convert.py`, `references/guide.md`); the runner puts them where the script can read them. */
  files: ReadonlyMap<string, string | Uint8Array>;
  /** The call's context: its abort signal, state and session. */
  context: ToolContext;
}

/**
 * Runs a skill's script where the agent runs its commands. The deep agent
 * gives its `execution` (local, or the bubblewrap sandbox) through one; any
 * other place (a WebAssembly sandbox, a remote executor) plugs in by being
 * one. It answers with what the model sees, in the `execute` tool's shape
 * (`{status, output, exit_code, truncated}`) or an error result; it must not
 * run the script anywhere less isolated than the agent's own commands.
 */
export type ScriptRunner = (request: ScriptRunRequest) => Promise<Record<string, unknown>>;

/** ADK's `args` object as command-line arguments, as ADK's local executor passes them: `{ out: "a.txt", v: true }` is `--out a.txt --v true`. */
export function scriptArguments(args: Record<string, unknown> | undefined): string[] {
  return Object.entries(args ?? {}).flatMap(([key, value]) => [`--${key}`, typeof value === "string" ? value : JSON.stringify(value)]);
}
