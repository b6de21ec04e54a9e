import { realpath } from "node:fs/promises";
import { ConfigurationError, ToolsmithError } from "../../../errors/toolsmith-error.js";
import { positiveOption, refuseUnhonouredOptions } from "../../../errors/unhonoured-option.js";
import type { ExecutionResult } from "../../../environment/base-environment.js";
import { placeInWorkingDir } from "../../../environment/confined-files.js";
import { executionResult, LOCAL_ENVIRONMENT_OPTIONS, LocalEnvironment, type CommandRequest, type LocalEnvironmentOptions } from "../../../environment/local-environment.js";
import { runCommand } from "../../../platform/run-command.js";
import { checkBubblewrap, checkedReadOnlyPaths, DEFAULT_BWRAP_PATH } from "./bubblewrap.js";
import { sandboxEnvironment } from "./sandbox-environment.js";
import { checkedLimits, type SandboxLimits } from "./sandbox-limits.js";
import { createPidsCgroup } from "./pids-cgroup.js";
import { sandboxedArgv, sandboxLimitHit } from "./sandboxed-command.js";

/** Options of {@link SandboxedEnvironment}: `LocalEnvironment`'s, and the sandbox's. */
export interface SandboxedEnvironmentOptions extends LocalEnvironmentOptions {
  /**
   * Variables set in the commands' environment, over the sandbox's own (`PATH` of the system's directories,
   * `HOME=/tmp`, the locale and `TERM`). Unlike `LocalEnvironment`'s, they are not laid over `process.env`: no host
   * variable reaches a command unless named in {@link SandboxedEnvironmentOptions.envAllowList}.
   */
  envVars?: Record<string, string>;
  /** Names of host variables passed through to the commands (say `["HF_TOKEN"]`); by default none beyond the locale and `TERM`. */
  envAllowList?: readonly string[];
  /** Where bubblewrap is. Default `/usr/bin/bwrap`. */
  bwrapPath?: string;
  /** What each command may use; each field left out keeps its default (256 processes, 2 GiB of memory and 1 GiB files per process, 60 s of CPU per process, a 512 MiB `/tmp`). */
  limits?: SandboxLimits;
  /** Absolute host paths shown read-only at the same place, for programs installed outside `/usr` (say `["/opt/node"]`). */
  readOnlyPaths?: readonly string[];
}

const SANDBOX_OPTIONS = ["envAllowList", "bwrapPath", "limits", "readOnlyPaths"];

/** A file's folders made, then the file written from standard input: run inside the sandbox, so its links resolve there. */
const WRITE_FILE_SCRIPT = 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1"';

/**
 * ADK's environment with its commands under bubblewrap: each command sees only the working directory (read-write,
 * at its real path), a private `/tmp` and `/dev/shm`, the system's programs and libraries (read-only) and
 * `readOnlyPaths`; it has no network, none of the host's environment variables (but `envAllowList`'s), and runs
 * under the sandbox limits (processes, memory, file size, CPU time), which a result names in `stderr` when one is
 * hit. `writeFile` writes from inside the sandbox too, so a link a command left in the working directory cannot
 * lead a write to the host's files; `readFile` checks the file it opened is inside the working directory. A command a
 * signal ends inside the sandbox has the exit code 128 plus the signal's number, as bubblewrap reports it (`LocalEnvironment`
 * gives minus the number); the time limit's kill is `-9` in both.
 *
 * `initialize()` checks that bubblewrap works here and refuses (`SANDBOX_UNAVAILABLE`) when it does not: nothing
 * ever runs unsandboxed.
 *
 * @example
 * ```ts
 * const environment = new SandboxedEnvironment({ limits: { cpuTimeSeconds: 10 } });
 * await environment.initialize();
 * const { exitCode, stdout } = await environment.execute("python3 -c 'print(6 * 7)'", 30);
 * await environment.close();
 * ```
 */
export class SandboxedEnvironment extends LocalEnvironment {
  readonly #bwrapPath: string;
  readonly #limits: Required<SandboxLimits>;
  readonly #readOnlyPaths: readonly string[];
  readonly #envAllowList: readonly string[] | undefined;
  /** The working directory's real path, which the sandbox shows (bubblewrap binds real paths). */
  #realWorkingDir: string | undefined;

  constructor(options: SandboxedEnvironmentOptions = {}) {
    // A misspelt sandbox option would leave commands with less isolation than meant: refused by name.
    refuseUnhonouredOptions("SandboxedEnvironment", options, [...LOCAL_ENVIRONMENT_OPTIONS, ...SANDBOX_OPTIONS]);
    positiveOption("SandboxedEnvironment", options.maxOutputBytes, 1, "maxOutputBytes");
    const { envAllowList, bwrapPath, limits, readOnlyPaths, ...local } = options;
    super(local);
    this.#bwrapPath = bwrapPath ?? DEFAULT_BWRAP_PATH;
    this.#limits = checkedLimits(limits);
    this.#readOnlyPaths = checkedReadOnlyPaths(readOnlyPaths);
    this.#envAllowList = envAllowList;
  }

  /** Checks that bubblewrap works here (else `SANDBOX_UNAVAILABLE`), then makes the working directory as `LocalEnvironment` does. */
  override async initialize(): Promise<void> {
    const check = await checkBubblewrap(this.#bwrapPath);
    if (!check.ok) {
      throw new ConfigurationError("SANDBOX_UNAVAILABLE", `SandboxedEnvironment cannot run commands here: ${check.reason} It never runs them unsandboxed; use LocalEnvironment if you trust the commands.`);
    }
    await super.initialize();
    this.#realWorkingDir = await realpath(this.workingDir);
  }

  /** Writes a file inside the working directory from inside the sandbox (making its folders); a path that leaves it as written is refused (`PATH_REFUSED`). */
  override async writeFile(filePath: string, content: string | Uint8Array): Promise<void> {
    this.assertInitialized();
    const target = placeInWorkingDir(this.#realWorkingDir!, filePath);
    const result = await this.#runSandboxed(["/bin/sh", "-c", WRITE_FILE_SCRIPT, "sh", target], { workingDir: this.#realWorkingDir!, maxOutputBytes: 10_000, abortSignal: new AbortController().signal }, content);
    if (result.exitCode !== 0) {
      throw new ToolsmithError("IO", `${filePath} could not be written in the sandbox (exit code ${result.exitCode}): ${result.stderr.trim() || "no message"}. A link out of the working directory leads to a read-only or private place there; write a path inside it.`);
    }
  }

  /** Runs one command under bubblewrap with the sandbox's environment and limits. */
  protected override runInWorkingDir(command: string, request: CommandRequest): Promise<ExecutionResult> {
    return this.#runSandboxed(["/bin/sh", "-c", command], { ...request, workingDir: this.#realWorkingDir! });
  }

  async #runSandboxed(argv: readonly string[], request: CommandRequest, input?: string | Uint8Array): Promise<ExecutionResult> {
    const cgroup = await createPidsCgroup(this.#limits.processes);
    try {
      // Given to bubblewrap itself rather than as --setenv, so an allowed secret does not sit in a command line any host user can read in `ps`.
      const env = sandboxEnvironment({ hostEnv: process.env, allowList: this.#envAllowList, env: this.envVars });
      const outcome = await runCommand({ argv: sandboxedArgv({ bwrapPath: this.#bwrapPath, workingDirectory: request.workingDir, readOnlyPaths: this.#readOnlyPaths, limits: this.#limits, argv }, cgroup), env, cwd: request.workingDir, timeoutMs: request.timeoutMs, maxOutputBytes: request.maxOutputBytes, abortSignal: request.abortSignal, input });
      const result = executionResult(outcome);
      const limit = await sandboxLimitHit(outcome, result.exitCode, this.#limits, cgroup);
      return limit ? { ...result, stderr: `${result.stderr}${result.stderr && !result.stderr.endsWith("\n") ? "\n" : ""}Sandbox limit ${limit.limit} reached: ${limit.message}` } : result;
    } finally {
      await cgroup?.remove();
    }
  }
}
