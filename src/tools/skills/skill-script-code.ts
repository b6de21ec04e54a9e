import { extname } from "node:path";
import { CodeExecutionLanguage, type CodeExecutionFile, type CodeExecutionInput } from "../code-executors/base-code-executor.js";
import { fileFromBytes } from "../code-executors/code-files.js";
import type { Skill } from "./skill.js";
import { skillFiles } from "./skill-resource.js";

/**
 * Script endings a code executor runs, by language: ADK's (`.ts` with ts-node, `.ps1`, `.bat`, `.cmd`), and
 * `.bash`, `.mjs`, `.cjs`, which toolsmith's script runner runs too.
 */
const LANGUAGE_BY_ENDING: Record<string, CodeExecutionLanguage> = {
  ".py": CodeExecutionLanguage.PYTHON,
  ".js": CodeExecutionLanguage.JAVASCRIPT,
  ".cjs": CodeExecutionLanguage.JAVASCRIPT,
  ".mjs": CodeExecutionLanguage.JAVASCRIPT,
  ".ts": CodeExecutionLanguage.TYPESCRIPT,
  ".sh": CodeExecutionLanguage.SHELL,
  ".bash": CodeExecutionLanguage.SHELL,
  ".ps1": CodeExecutionLanguage.POWERSHELL,
  ".bat": CodeExecutionLanguage.WINDOWS_CMD,
  ".cmd": CodeExecutionLanguage.WINDOWS_CMD,
};

/** The endings {@link executorLanguageOf} knows, for messages. */
export const EXECUTOR_SCRIPT_ENDINGS = Object.keys(LANGUAGE_BY_ENDING);

/** The language a code executor runs a skill's script in, by its ending; `undefined` when none does. */
export function executorLanguageOf(scriptPath: string): CodeExecutionLanguage | undefined {
  const ending = extname(scriptPath).toLowerCase();
  return Object.hasOwn(LANGUAGE_BY_ENDING, ending) ? LANGUAGE_BY_ENDING[ending] : undefined;
}

/**
 * The code a code executor is given to run a skill's script, as ADK's wrapper: the script is one of the input
 * files, so the wrapper runs it from the folder the code runs in, as the main program, with the command-line
 * arguments. The path is quoted for each language (ADK pastes it in as it is).
 */
export function wrapperCode(scriptPath: string, language: CodeExecutionLanguage): string {
  const relative = `./${scriptPath}`;
  const windows = `.\\${scriptPath.split("/").join("\\")}`;
  switch (language) {
    case CodeExecutionLanguage.PYTHON:
      return `import runpy\nrunpy.run_path(${JSON.stringify(relative)}, run_name='__main__')`;
    case CodeExecutionLanguage.JAVASCRIPT:
      // An ES module cannot be required on Node 20: it is imported, and its failure is the run's.
      return scriptPath.toLowerCase().endsWith(".mjs")
        ? `import(${JSON.stringify(relative)}).catch((error) => { console.error(error); process.exitCode = 1; });`
        : `require(${JSON.stringify(relative)});`;
    case CodeExecutionLanguage.TYPESCRIPT:
      return `require('ts-node/register');\nrequire(${JSON.stringify(relative)});`;
    case CodeExecutionLanguage.SHELL:
      return `source '${relative.split("'").join(`'\\''`)}' "$@"`;
    case CodeExecutionLanguage.POWERSHELL:
      return `& '${windows.split("'").join("''")}' @args`;
    case CodeExecutionLanguage.WINDOWS_CMD:
      return `call "${windows}" %*`;
    default:
      throw new Error(`No wrapper runs ${language} scripts.`);
  }
}

/** Every file of the skill as an input file of the run, by its path in the skill's folder (`scripts/run.py`), encoded as ADK encodes it by its ending. */
export function skillInputFiles(skill: Skill): CodeExecutionFile[] {
  return [...skillFiles(skill)].map(([name, content]) => fileFromBytes(name, typeof content === "string" ? Buffer.from(content, "utf8") : content));
}

/**
 * The model's `args` as a code execution's arguments: a list as it is, an object's text, numbers and booleans as
 * they are (given as `--key value`), any other value as JSON (ADK's executor would pass `[object Object]`).
 */
export function executorArguments(args: unknown): CodeExecutionInput["args"] {
  if (Array.isArray(args)) return args.map(String);
  if (typeof args !== "object" || args === null) return {};
  const flat: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(args)) {
    flat[key] = typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? value : JSON.stringify(value);
  }
  return flat;
}
