import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigurationError } from "../../errors/toolsmith-error.js";
import { positiveOption, refuseUnhonouredOptions } from "../../errors/unhonoured-option.js";
import { logger } from "../../logging/logger.js";
import type { RunCommandResult } from "../../platform/run-command.js";
import { BaseCodeExecutor, CodeExecutionLanguage, type CodeExecutionInput, type CodeExecutionResult, type ExecuteCodeParams } from "./base-code-executor.js";
import { readOutputFiles, writeFilesInto, type OutputFileLimits } from "./code-files.js";

/** Options of {@link UnsafeLocalCodeExecutor}: ADK's four, and toolsmith's limits on what a run gives back. */
export interface UnsafeLocalCodeExecutorOptions {
  /** Seconds a run may take; then everything it started is killed. Default 30. */
  timeoutSeconds?: number;
  /** The program that runs JavaScript. Default this Node (`process.execPath`). */
  commandPath?: string;
  /** The program that runs Python. Default `python3`. */
  pythonCommandPath?: string;
  /** The program that runs shell code. Default `bash`. */
  shellCommandPath?: string;
  /** Bytes of standard output and error kept together; more is dropped and the output says so. Default 1,000,000. */
  maxOutputBytes?: number;
  /** Files the code writes that are read back (and saved as artifacts): at most this many. Default 100. */
  maxOutputFiles?: number;
  /** … and at most this many bytes in all. Default 10 MiB. */
  maxOutputFileBytes?: number;
}

const OPTIONS = ["timeoutSeconds", "commandPath", "pythonCommandPath", "shellCommandPath", "maxOutputBytes", "maxOutputFiles", "maxOutputFileBytes"];

/** File endings of each language's script, as ADK's executor names them. */
const SCRIPT_ENDING: Partial<Record<CodeExecutionLanguage, string>> = {
  [CodeExecutionLanguage.JAVASCRIPT]: ".js",
  [CodeExecutionLanguage.PYTHON]: ".py",
  [CodeExecutionLanguage.SHELL]: ".sh",
  [CodeExecutionLanguage.POWERSHELL]: ".ps1",
  [CodeExecutionLanguage.WINDOWS_CMD]: ".bat",
};

/**
 * ADK's executor that runs code on this machine, unsandboxed: JavaScript with
 * Node, Python with `python3`, shell code with `bash`, each run in a fresh
 * temporary folder (its current directory) holding the script and the input
 * files, with the process's environment. What the code writes in the folder
 * comes back as output files; the folder is removed afterwards.
 *
 * **It gives the model's code everything this process may do.** Use it only
 * for code you trust; for the model's code use `SandboxedCodeExecutor`
 * (`toolsmith/tools`), which runs the same way under bubblewrap.
 *
 * Beyond ADK's: the time limit and an abort of the run end every process the
 * code started (its process group), not just the first; output is capped;
 * links the code leaves are not followed when the files are read back.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({ name: "calculator", model, codeExecutor: new UnsafeLocalCodeExecutor() });
 * ```
 */
export class UnsafeLocalCodeExecutor extends BaseCodeExecutor {
  private readonly timeoutSeconds: number;
  private readonly nodeCommandPath: string;
  private readonly pythonCommandPath: string;
  private readonly shellCommandPath: string;
  private readonly maxOutputBytes: number;
  private readonly outputFileLimits: OutputFileLimits;
  #warned = false;

  constructor(options: UnsafeLocalCodeExecutorOptions = {}) {
    super();
    refuseUnhonouredOptions("UnsafeLocalCodeExecutor", options, OPTIONS);
    this.timeoutSeconds = positiveOption("UnsafeLocalCodeExecutor", options.timeoutSeconds, 30, "timeoutSeconds");
    this.nodeCommandPath = options.commandPath ?? process.execPath;
    this.pythonCommandPath = options.pythonCommandPath ?? "python3";
    this.shellCommandPath = options.shellCommandPath ?? "bash";
    this.maxOutputBytes = positiveOption("UnsafeLocalCodeExecutor", options.maxOutputBytes, 1_000_000, "maxOutputBytes");
    this.outputFileLimits = { maxFiles: positiveOption("UnsafeLocalCodeExecutor", options.maxOutputFiles, 100, "maxOutputFiles"), maxTotalBytes: positiveOption("UnsafeLocalCodeExecutor", options.maxOutputFileBytes, 10 * 1024 ** 2, "maxOutputFileBytes") };
  }

  async executeCode({ invocationContext, codeExecutionInput }: ExecuteCodeParams): Promise<CodeExecutionResult> {
    const { language } = codeExecutionInput;
    const program = this.programFor(language);
    if (program === undefined) return { stdout: "", stderr: `Unsupported language: ${language}`, outputFiles: [] };
    if (!this.#warned) {
      this.#warned = true;
      logger.warn("UnsafeLocalCodeExecutor runs the model's code on this machine with no sandbox: it can do anything this process can. Use SandboxedCodeExecutor (toolsmith/tools) for code you do not trust.");
    }
    return runInFreshFolder({ program, input: codeExecutionInput, timeoutSeconds: this.timeoutSeconds, maxOutputBytes: this.maxOutputBytes, limits: this.outputFileLimits, abortSignal: invocationContext.abortSignal, env: process.env });
  }

  /** The program and its first arguments for a language, or `undefined` when it cannot run it. */
  private programFor(language: CodeExecutionLanguage): string[] | undefined {
    switch (language) {
      case CodeExecutionLanguage.JAVASCRIPT:
        return [this.nodeCommandPath];
      case CodeExecutionLanguage.PYTHON:
        return [this.pythonCommandPath];
      case CodeExecutionLanguage.SHELL:
        return /^(powershell|pwsh)(\.exe)?$/i.test(this.shellCommandPath.split(/[\\/]/).at(-1) ?? "") ? [this.shellCommandPath, ...POWERSHELL_ARGUMENTS] : [this.shellCommandPath];
      case CodeExecutionLanguage.POWERSHELL:
        return ["pwsh", ...POWERSHELL_ARGUMENTS];
      case CodeExecutionLanguage.WINDOWS_CMD:
        return ["cmd.exe", "/D", "/c"];
      default:
        return undefined;
    }
  }
}

const POWERSHELL_ARGUMENTS = ["-NoLogo", "-NoProfile", "-ExecutionPolicy", "Bypass", "-File"];

/** What a run's standard error says when the agent's run was cancelled before its code started, or while it ran. */
export const CANCELLED_BEFORE_START = "Code execution was stopped: the run was cancelled before the code started.";
export const CANCELLED_WHILE_RUNNING = "Code execution was stopped: the run was cancelled.";

/** A run of {@link runInFreshFolder}: the program that runs the script, and how the command line is wrapped. */
export interface FreshFolderRun extends Omit<ScriptRun, "argv" | "folder" | "script"> {
  /** The program and its first arguments; the script's path and ADK's arguments follow. */
  program: string[];
  /** The command line that runs `argv` with the folder as its place (a sandbox wraps it); default `argv` itself. */
  wrap?: (argv: string[], folder: string) => string[];
}

/**
 * Writes the code (as `script.<ending>`) and the input files into a fresh temporary folder, runs it there with
 * {@link runAndCollect}, and removes the folder afterwards: how the local executors, sandboxed or not, run code.
 */
export async function runInFreshFolder(run: FreshFolderRun): Promise<CodeExecutionResult> {
  const { program, wrap, ...rest } = run;
  // A signal that fired before the run starts would never fire again for it.
  if (run.abortSignal?.aborted) return { stdout: "", stderr: CANCELLED_BEFORE_START, outputFiles: [] };
  // The real path: a folder under a linked /tmp would otherwise not contain the files read back by their path.
  const folder = await realpath(await mkdtemp(join(tmpdir(), "toolsmith-code-")));
  try {
    const script = `script${SCRIPT_ENDING[run.input.language]}`;
    await writeFile(join(folder, script), run.input.code);
    await writeFilesInto(folder, run.input.inputFiles ?? []);
    const argv = [...program, join(folder, script), ...commandLineArguments(run.input.args)];
    return await runAndCollect({ ...rest, argv: wrap ? wrap(argv, folder) : argv, folder, script });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** A run of a script already written into its folder, and what it left there read back. */
export interface ScriptRun {
  argv: string[];
  folder: string;
  /** The script's name in the folder, not read back as an output file. */
  script: string;
  input: CodeExecutionInput;
  timeoutSeconds: number;
  maxOutputBytes: number;
  limits: OutputFileLimits;
  abortSignal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** Words on how the run ended that only the caller knows (a sandbox's limit it hit), added to standard error. */
  endNote?: (outcome: RunCommandResult) => Promise<string | undefined>;
}

/**
 * Runs the script and gives ADK's result: its standard output and error (with a line saying so when it timed out,
 * was stopped, exited non-zero with nothing on standard error, or wrote more than was kept), and the files it left
 * in its folder other than the script and the input files.
 */
export async function runAndCollect(run: ScriptRun): Promise<CodeExecutionResult> {
  let outcome;
  try {
    // Loaded when code first runs: the root entry point loads no child_process (test/root-entry.test.ts).
    const { runCommand } = await import("../../platform/run-command.js");
    outcome = await runCommand({ argv: run.argv, cwd: run.folder, timeoutMs: run.timeoutSeconds * 1000, maxOutputBytes: run.maxOutputBytes, abortSignal: run.abortSignal, env: run.env });
  } catch (error) {
    return { stdout: "", stderr: `Process error: ${(error as Error).message}\n`, outputFiles: [] };
  }
  let { stdout, stderr } = outcome;
  if (outcome.timedOut) stderr += `\nCode execution timed out after ${run.timeoutSeconds} seconds.`;
  else if (run.abortSignal?.aborted) stderr += `${stderr ? "\n" : ""}${CANCELLED_WHILE_RUNNING}`;
  else if (outcome.exitCode !== 0 && !stderr) stderr = outcome.exitCode === undefined ? `Ended by signal ${outcome.signal}` : `Exit code ${outcome.exitCode}`;
  const note = await run.endNote?.(outcome);
  if (note) stderr += `${stderr ? "\n" : ""}${note}`;
  if (outcome.truncated) stdout += `\n[Output cut at ${run.maxOutputBytes} bytes.]`;
  const skip = new Set([run.script, ...(run.input.inputFiles ?? []).map((file) => file.name.split("\\").join("/").replace(/^\.\//, ""))]);
  const { files, left } = await readOutputFiles(run.folder, skip, run.limits);
  if (left.length > 0) stdout += `\n[Files not kept, over the limit of ${run.limits.maxFiles} files or ${run.limits.maxTotalBytes} bytes: ${left.join(", ")}.]`;
  return { stdout, stderr, outputFiles: files };
}

/** ADK's arguments as a command line: a list as given, `{ out: "a.txt" }` as `--out a.txt`. */
export function commandLineArguments(args: CodeExecutionInput["args"]): string[] {
  if (args === undefined || args === null) return [];
  if (Array.isArray(args)) return args.map(String);
  return Object.entries(args).flatMap(([key, value]) => [`--${key}`, String(value)]);
}

