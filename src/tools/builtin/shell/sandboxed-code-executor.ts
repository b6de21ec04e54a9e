import { isAbsolute } from "node:path";
import { ConfigurationError } from "../../../errors/toolsmith-error.js";
import { positiveOption, refuseUnhonouredOptions } from "../../../errors/unhonoured-option.js";
import { logger } from "../../../logging/logger.js";
import type { RunCommandResult } from "../../../platform/run-command.js";
import { BaseCodeExecutor, CodeExecutionLanguage, type CodeExecutionResult, type ExecuteCodeParams } from "../../code-executors/base-code-executor.js";
import type { OutputFileLimits } from "../../code-executors/code-files.js";
import { runInFreshFolder } from "../../code-executors/unsafe-local-code-executor.js";
import { checkBubblewrap, checkedReadOnlyPaths, DEFAULT_BWRAP_PATH, SYSTEM_DIRECTORIES } from "./bubblewrap.js";
import { createPidsCgroup, type PidsCgroup } from "./pids-cgroup.js";
import { SANDBOX_PATH, sandboxEnvironment } from "./sandbox-environment.js";
import { checkedLimits, limitOfExitCode, processLimitHit, type SandboxLimits } from "./sandbox-limits.js";
import { sandboxedArgv } from "./sandboxed-command.js";
import { trimTrailing } from "../../../platform/trim-runs.js";

/** Options of {@link SandboxedCodeExecutor}: those of `UnsafeLocalCodeExecutor`, and the sandbox's. */
export interface SandboxedCodeExecutorOptions {
  /** Seconds a run may take; then everything it started is killed. Default 30. */
  timeoutSeconds?: number;
  /** The program that runs JavaScript: a name looked up on the sandbox's PATH (the system's directories), or an absolute path the sandbox shows. Default `node`. */
  commandPath?: string;
  /**
   * The program that runs Python, as {@link commandPath}. Default `python3`, which in the sandbox is the system's
   * (`/usr/bin/python3`), never a pyenv or virtualenv one from the host user's PATH: for those, give the
   * interpreter's absolute path and its install folder in {@link readOnlyPaths}.
   */
  pythonCommandPath?: string;
  /** The program that runs shell code, as {@link commandPath}. Default `bash`. */
  shellCommandPath?: string;
  /** Where bubblewrap is. Default `/usr/bin/bwrap`. */
  bwrapPath?: string;
  /** What the code may use; each field left out keeps its default (256 processes, 2 GiB of memory and 1 GiB files per process, 60 s of CPU per process, a 512 MiB `/tmp`). */
  limits?: SandboxLimits;
  /** Absolute host paths shown read-only at the same place, for interpreters or libraries installed outside `/usr` (say `["/opt/python3.12"]`). */
  readOnlyPaths?: readonly string[];
  /** Values set on top of the sandbox's own environment (`PATH`, `HOME=/tmp`, the locale and `TERM`); an `undefined` value removes a variable. */
  env?: NodeJS.ProcessEnv;
  /** Names of host variables passed through to the code (say `["HF_TOKEN"]`); by default none beyond the locale and `TERM`. */
  envAllowList?: readonly string[];
  /** Bytes of standard output and error kept together; more is dropped and the output says so. Default 1,000,000. */
  maxOutputBytes?: number;
  /** Files the code writes that are read back (and saved as artifacts): at most this many. Default 100. */
  maxOutputFiles?: number;
  /** … and at most this many bytes in all. Default 10 MiB. */
  maxOutputFileBytes?: number;
}

const OPTIONS = ["timeoutSeconds", "commandPath", "pythonCommandPath", "shellCommandPath", "bwrapPath", "limits", "readOnlyPaths", "env", "envAllowList", "maxOutputBytes", "maxOutputFiles", "maxOutputFileBytes"];


/**
 * ADK's local code executor under bubblewrap, for the model's code: JavaScript
 * with Node, Python with `python3`, shell code with `bash`, each run in a fresh
 * temporary folder holding the script and the input files, as
 * `UnsafeLocalCodeExecutor` runs them and with the same result. The code sees
 * only that folder (read-write, its working directory), a private `/tmp` and
 * `/dev/shm` (in memory, `limits.tmpSizeBytes` each), the system's programs
 * and libraries (read-only) and {@link SandboxedCodeExecutorOptions.readOnlyPaths};
 * it has no network, none of the host's environment variables, and runs under
 * the sandbox limits (processes, memory, file size, CPU time; the process
 * count is held by a pids cgroup where this process may make one). Every
 * process it starts ends with the run; links it leaves in the folder are not
 * followed when the files are read back.
 *
 * It never runs code unsandboxed: where bubblewrap is missing or cannot make
 * its sandbox, each run answers with `stderr` saying so, and nothing runs.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({ name: "calculator", model, codeExecutor: new SandboxedCodeExecutor() });
 * ```
 */
export class SandboxedCodeExecutor extends BaseCodeExecutor {
  private readonly timeoutSeconds: number;
  private readonly commands: Record<"node" | "python" | "shell", { path: string; option: string }>;
  private readonly bwrapPath: string;
  private readonly limits: Required<SandboxLimits>;
  private readonly readOnlyPaths: readonly string[];
  private readonly env: NodeJS.ProcessEnv | undefined;
  private readonly envAllowList: readonly string[] | undefined;
  private readonly maxOutputBytes: number;
  private readonly outputFileLimits: OutputFileLimits;
  #warnedUnavailable = false;

  constructor(options: SandboxedCodeExecutorOptions = {}) {
    super();
    // A misspelt sandbox option (readonlyPaths, limit) would leave the code with less isolation than meant: refused by name.
    refuseUnhonouredOptions("SandboxedCodeExecutor", options, OPTIONS);
    this.timeoutSeconds = positiveOption("SandboxedCodeExecutor", options.timeoutSeconds, 30, "timeoutSeconds");
    this.bwrapPath = options.bwrapPath ?? DEFAULT_BWRAP_PATH;
    this.limits = checkedLimits(options.limits);
    this.readOnlyPaths = checkedReadOnlyPaths(options.readOnlyPaths);
    this.env = options.env;
    this.envAllowList = options.envAllowList;
    this.commands = {
      node: { path: this.shownCommand(options.commandPath, "node", "commandPath"), option: "commandPath" },
      python: { path: this.shownCommand(options.pythonCommandPath, "python3", "pythonCommandPath"), option: "pythonCommandPath" },
      shell: { path: this.shownCommand(options.shellCommandPath, "bash", "shellCommandPath"), option: "shellCommandPath" },
    };
    this.maxOutputBytes = positiveOption("SandboxedCodeExecutor", options.maxOutputBytes, 1_000_000, "maxOutputBytes");
    this.outputFileLimits = { maxFiles: positiveOption("SandboxedCodeExecutor", options.maxOutputFiles, 100, "maxOutputFiles"), maxTotalBytes: positiveOption("SandboxedCodeExecutor", options.maxOutputFileBytes, 10 * 1024 ** 2, "maxOutputFileBytes") };
  }

  async executeCode({ invocationContext, codeExecutionInput }: ExecuteCodeParams): Promise<CodeExecutionResult> {
    const command = this.commandFor(codeExecutionInput.language);
    if (command === undefined) return { stdout: "", stderr: `Unsupported language: ${codeExecutionInput.language}`, outputFiles: [] };
    const check = await checkBubblewrap(this.bwrapPath);
    if (!check.ok) return this.unavailable(check.reason);
    const abortSignal = invocationContext.abortSignal;
    const limits = this.limits;
    const cgroup = await createPidsCgroup(limits.processes);
    try {
      return await runInFreshFolder({
        program: [command.path],
        input: codeExecutionInput,
        timeoutSeconds: this.timeoutSeconds,
        maxOutputBytes: this.maxOutputBytes,
        limits: this.outputFileLimits,
        abortSignal,
        // Given to bubblewrap itself rather than as --setenv, so an allowed secret does not sit in a command line any host user can read in `ps`.
        env: sandboxEnvironment({ hostEnv: process.env, allowList: this.envAllowList, env: this.env }),
        wrap: (argv, folder) => sandboxedArgv({ bwrapPath: this.bwrapPath, workingDirectory: folder, readOnlyPaths: this.readOnlyPaths, limits, argv }, cgroup),
        endNote: (outcome) => this.endNote(outcome, command, cgroup),
      });
    } finally {
      await cgroup?.remove();
    }
  }

  /** What the code is told (and the developer warned of, once) when the sandbox cannot run it. */
  private unavailable(reason: string): CodeExecutionResult {
    const stderr =
      `Sandboxed code execution is unavailable, so the code was not run. ${reason} ` +
      `SandboxedCodeExecutor never runs code outside its sandbox: install bubblewrap (apt-get install bubblewrap) on a host or container that allows unprivileged user namespaces, or set bwrapPath to where it is installed.`;
    if (!this.#warnedUnavailable) {
      this.#warnedUnavailable = true;
      logger.warn(stderr);
    }
    return { stdout: "", stderr, outputFiles: [] };
  }

  /** The limit the run hit, or that the sandbox has no such interpreter, in words for standard error. */
  private async endNote(outcome: RunCommandResult, command: { path: string; option: string }, cgroup: PidsCgroup | undefined): Promise<string | undefined> {
    // Python ignores SIGXFSZ, so a file over the limit is its "[Errno 27] File too large" error rather than the signal's exit code.
    const fileTooLarge = outcome.exitCode !== 0 && /file too large/i.test(outcome.stderr) ? limitOfExitCode(128 + 25, this.limits) : undefined;
    const limit = limitOfExitCode(outcome.exitCode ?? -1, this.limits) ?? fileTooLarge ?? processLimitHit(await cgroup?.refusedForks(), outcome.output, this.limits);
    if (limit) return `Sandbox limit ${limit.limit} reached: ${limit.message}`;
    // prlimit's "failed to execute python3", or sh's "exec: python3: not found" where there is no prlimit.
    const missing = outcome.exitCode === 127 && (outcome.stderr.includes(`failed to execute ${command.path}:`) || outcome.stderr.includes(`exec: ${command.path}: not found`));
    if (missing) {
      return `The sandbox has no ${command.path} to run the code (it looks on ${SANDBOX_PATH} and sees only the system's directories and readOnlyPaths). Install it under /usr, or set ${command.option} to its absolute path and add its install folder to readOnlyPaths.`;
    }
    return undefined;
  }

  private commandFor(language: CodeExecutionLanguage): { path: string; option: string } | undefined {
    switch (language) {
      case CodeExecutionLanguage.JAVASCRIPT:
        return this.commands.node;
      case CodeExecutionLanguage.PYTHON:
        return this.commands.python;
      case CodeExecutionLanguage.SHELL:
        return this.commands.shell;
      default:
        return undefined;
    }
  }

  /** A program as given, refused when it is an absolute path the sandbox does not show (it would fail at every run). */
  private shownCommand(path: string | undefined, fallback: string, option: string): string {
    if (path === undefined) return fallback;
    if (path.length === 0 || (!isAbsolute(path) && path.includes("/"))) {
      throw new ConfigurationError("INVALID_SANDBOX_OPTION", `SandboxedCodeExecutor's ${option} is ${JSON.stringify(path)}; give a program's name, looked up on the sandbox's PATH, or its absolute path.`);
    }
    const shown = !isAbsolute(path) || [...SYSTEM_DIRECTORIES, ...this.readOnlyPaths].some((directory) => path === directory || path.startsWith(`${trimTrailing(directory, "/")}/`));
    if (!shown) {
      throw new ConfigurationError(
        "INVALID_SANDBOX_OPTION",
        `SandboxedCodeExecutor's ${option} is ${path}, which the sandbox does not show: it shows only ${SYSTEM_DIRECTORIES.join(", ")} and readOnlyPaths. Add the folder the program is installed in to readOnlyPaths (its install prefix, not a pyenv or nvm shim).`,
      );
    }
    return path;
  }
}



