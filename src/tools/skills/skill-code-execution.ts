import { mkdir, mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { FileContentEncoding, isBaseCodeExecutor, type BaseCodeExecutor, type CodeExecutionFile, type CodeExecutionInput, type CodeExecutionLanguage } from "../code-executors/base-code-executor.js";
import { fileBytes } from "../code-executors/code-files.js";
import type { ToolContext } from "../tool-context.js";
import { materializeOutputFiles } from "./materialize-output-files.js";
import { executorArguments } from "./skill-script-code.js";
import { RunSkillInlineScriptErrorCode } from "./run-skill-inline-script-error-code.js";

/**
 * Where the files scripts write are kept (ADK's `outputDirectory`): the folder given (made when missing), else a
 * private temporary folder made on the first run and kept for the toolset's life. A script's output file names
 * are the script's to choose, so they are never resolved against the program's own working directory.
 */
export class ScriptOutputFolder {
  readonly #given: string | undefined;
  #temporary: Promise<string> | undefined;

  constructor(given: string | undefined) {
    this.#given = given;
  }

  /** The folder as the model is told it (`shown`), and its real path, where files are written. */
  async get(): Promise<{ shown: string; real: string }> {
    if (this.#given !== undefined) {
      const shown = resolve(this.#given);
      await mkdir(shown, { recursive: true });
      return { shown, real: await realpath(shown) };
    }
    this.#temporary ??= mkdtemp(join(tmpdir(), "toolsmith-skill-output-")).then((made) => realpath(made));
    try {
      const real = await this.#temporary;
      return { shown: real, real };
    } catch (error) {
      this.#temporary = undefined;
      throw error;
    }
  }
}

/**
 * The code executor of the agent calling the tool (its `localCodeExecutor`): its `codeExecutor` unless that is
 * Gemini's BuiltInCodeExecutor, which runs the model's code on Google's side and cannot be given a skill's files.
 */
export function agentCodeExecutor(agent: unknown): BaseCodeExecutor | undefined {
  const executor = typeof agent === "object" && agent !== null ? (agent as { localCodeExecutor?: unknown }).localCodeExecutor : undefined;
  return isBaseCodeExecutor(executor) && typeof executor.executeCode === "function" ? executor : undefined;
}

/** ADK's answer when no code executor can run a script. */
export const NO_CODE_EXECUTOR = { error: "No code executor configured.", error_code: RunSkillInlineScriptErrorCode.NO_CODE_EXECUTOR } as const;

/** The most text of output files put in one result; files past it are named, with their size, and read from the output folder. */
const INLINE_TEXT_CHARS = 32 * 1024;

/**
 * Runs code through the executor and gives ADK's result, `{ stdout, stderr, outputFiles, outputDirectory }`: the
 * files the code wrote are copied into the output folder ({@link materializeOutputFiles}) and named as written.
 * Text files are given with their content while they fit in 32 KiB together; binary files and the rest are named
 * with their size only (ADK puts every file's content, images in base64, in the result the model reads). Files
 * refused are listed under `refusedOutputFiles`. An executor that throws, or an output folder that cannot be
 * made, gives ADK's `EXECUTION_ERROR` with `failure` before the reason.
 */
export async function executeKeepingFiles(request: { executor: BaseCodeExecutor; input: CodeExecutionInput; context: ToolContext; output: ScriptOutputFolder; failure: string }): Promise<Record<string, unknown>> {
  try {
    const result = await request.executor.executeCode({ invocationContext: request.context.invocationContext, codeExecutionInput: request.input });
    const folder = await request.output.get();
    const { written, refused } = await materializeOutputFiles(result.outputFiles ?? [], folder.real);
    return { ...result, outputFiles: describeOutputFiles(written), outputDirectory: folder.shown, ...(refused.length > 0 ? { refusedOutputFiles: refused } : {}) };
  } catch (error) {
    return { error: `${request.failure}: ${(error as Error).message}`, error_code: RunSkillInlineScriptErrorCode.EXECUTION_ERROR };
  }
}

function describeOutputFiles(files: readonly CodeExecutionFile[]): Array<CodeExecutionFile | { name: string; mimeType: string; sizeBytes: number }> {
  let budget = INLINE_TEXT_CHARS;
  return files.map((file) => {
    if (file.contentEncoding !== FileContentEncoding.BASE64 && file.content.length <= budget) {
      budget -= file.content.length;
      return file;
    }
    return { name: file.name, mimeType: file.mimeType, sizeBytes: fileBytes(file).byteLength };
  });
}

/** ADK's answer to a call paused for a person's confirmation (the run shows its own placeholder while it waits). */
const CONFIRMATION_REQUIRED = { partial: "This tool call needs external confirmation before completion." } as const;

/**
 * `run_skill_inline_script`: code the model wrote, run through the executor only once a person confirmed this
 * call, as ADK's `enforceConfirmation`: the first call asks (the hint shows the code; the payload is ADK's
 * `{ language, scriptContent }`) and runs nothing; a "no" answers `CONFIRMATION_REJECTED`; a "yes" runs it.
 * With no executor it answers `NO_CODE_EXECUTOR` before asking anyone.
 */
export async function runInlineScript(request: { args: Record<string, unknown>; context: ToolContext; executor: BaseCodeExecutor | undefined; output: ScriptOutputFolder }): Promise<Record<string, unknown>> {
  const { args, context, executor } = request;
  const scriptContent = typeof args.script_content === "string" ? args.script_content : "";
  const language = typeof args.language === "string" ? args.language : "";
  if (scriptContent === "") return { error: "Script content is required.", error_code: RunSkillInlineScriptErrorCode.MISSING_SCRIPT_CONTENT };
  if (language === "") return { error: "Language is required.", error_code: RunSkillInlineScriptErrorCode.MISSING_LANGUAGE };
  if (!executor) return { ...NO_CODE_EXECUTOR };
  const confirmation = context.toolConfirmation;
  if (!confirmation) {
    context.requestConfirmation({
      hint: `Confirmation is required before executing an inline skill script. The agent requested to run the following ${language} script in the code executor. Only approve if you trust its contents:\n\n${scriptContent}`,
      payload: { language, scriptContent },
    });
    return { ...CONFIRMATION_REQUIRED };
  }
  if (confirmation.confirmed !== true) return { error: "Inline script execution was not confirmed and was rejected.", error_code: RunSkillInlineScriptErrorCode.CONFIRMATION_REJECTED };
  return executeKeepingFiles({
    executor,
    input: { code: scriptContent, language: language as CodeExecutionLanguage, inputFiles: [], ...(args.args === undefined ? {} : { args: executorArguments(args.args) }) },
    context,
    output: request.output,
    failure: "Failed to execute inline script",
  });
}
