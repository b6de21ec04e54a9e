import { mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { constants, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ToolsmithError } from "../errors/toolsmith-error.js";
import { positiveOption, refuseUnhonouredOptions } from "../errors/unhonoured-option.js";
import { logger } from "../logging/logger.js";
import type { RunCommandResult } from "../platform/run-command.js";
import { BaseEnvironment, type ExecutionResult } from "./base-environment.js";
import { readFileInside, writeFileInside } from "./confined-files.js";

/** Options of {@link LocalEnvironment}: ADK's, and how much output toolsmith keeps. */
export interface LocalEnvironmentOptions {
  /**
   * The working directory, made by `initialize()` if missing and never removed by `close()`. Without it, a
   * temporary one is made by `initialize()` and removed by `close()`. A relative path is taken from the current
   * directory when the environment is made.
   */
  workingDir?: string;
  /** Variables set over `process.env` for every command. */
  envVars?: Record<string, string>;
  /** Bytes of standard output and error a command's result keeps together; more is read and dropped (`truncated: true`). Default 10 MiB. */
  maxOutputBytes?: number;
}

/** The option names {@link LocalEnvironment} takes (a subclass adds its own). */
export const LOCAL_ENVIRONMENT_OPTIONS: readonly string[] = ["workingDir", "envVars", "maxOutputBytes"];
const TEMP_WORKSPACE_PREFIX = "adk_workspace_";

/** One command of {@link LocalEnvironment.execute}, checked: where it runs, its limits, and the signal `close()` stops it with. */
export interface CommandRequest {
  workingDir: string;
  /** Milliseconds it may take; without it, no limit. */
  timeoutMs?: number;
  maxOutputBytes: number;
  abortSignal: AbortSignal;
}

/**
 * ADK's `LocalEnvironment`: shell commands run as child processes of this one, as this process's user, in a
 * working directory, with no sandbox (for commands you do not trust, use `SandboxedEnvironment` from
 * `toolsmith/tools`). Where toolsmith goes beyond ADK's: a time limit (or `close()`) ends everything the command
 * started, not only its shell, and background processes it leaves are ended when it exits (they would hold its
 * output open); output is kept up to `maxOutputBytes`; files are confined by real paths, so a symbolic link cannot
 * lead `readFile` or `writeFile` outside the working directory; and `close()` stops running commands before it
 * removes a temporary working directory. Errors are `ToolsmithError`s with codes (`ENVIRONMENT_NOT_INITIALIZED`,
 * `PATH_REFUSED`), except a missing file, which rejects with Node's `ENOENT` error as in ADK.
 *
 * @example
 * ```ts
 * const environment = new LocalEnvironment();
 * await environment.initialize();
 * await environment.writeFile("notes/hello.txt", "hi");
 * const { stdout } = await environment.execute("cat notes/hello.txt", 10);
 * await environment.close();
 * ```
 */
export class LocalEnvironment extends BaseEnvironment {
  #workingDir: string | undefined;
  #autoCreated = false;
  readonly #envVars: Record<string, string> | undefined;
  readonly #maxOutputBytes: number;
  /** The commands running now, each with the way to stop it: `close()` stops them and waits for them. */
  readonly #running = new Map<Promise<unknown>, AbortController>();

  constructor(options: LocalEnvironmentOptions = {}) {
    super();
    refuseUnhonouredOptions("LocalEnvironment", options, LOCAL_ENVIRONMENT_OPTIONS);
    this.#workingDir = options.workingDir === undefined ? undefined : resolve(options.workingDir);
    this.#envVars = options.envVars;
    this.#maxOutputBytes = positiveOption("LocalEnvironment", options.maxOutputBytes, 10 * 1024 * 1024, "maxOutputBytes");
  }

  /** The absolute path of the working directory; before `initialize()` made a temporary one, `ENVIRONMENT_NOT_INITIALIZED`. */
  get workingDir(): string {
    if (this.#workingDir === undefined) throw new ToolsmithError("ENVIRONMENT_NOT_INITIALIZED", "`workingDir` is not set. Call initialize() first.");
    return this.#workingDir;
  }

  /** Makes the working directory (a temporary one when none was given). Calling it again does nothing more. */
  override async initialize(): Promise<void> {
    if (this.#workingDir === undefined) {
      this.#workingDir = await mkdtemp(join(tmpdir(), TEMP_WORKSPACE_PREFIX));
      this.#autoCreated = true;
      logger.debug(`Created temporary workspace: ${this.#workingDir}`);
    } else {
      await mkdir(this.#workingDir, { recursive: true });
    }
    this.initialized = true;
  }

  /** Stops the commands still running (and everything they started), then removes the working directory if `initialize()` made it. */
  override async close(): Promise<void> {
    for (const controller of this.#running.values()) controller.abort();
    await Promise.allSettled(this.#running.keys());
    if (this.#autoCreated && this.#workingDir !== undefined) {
      await rm(this.#workingDir, { recursive: true, force: true });
      logger.debug(`Removed temporary workspace: ${this.#workingDir}`);
      this.#workingDir = undefined;
      this.#autoCreated = false;
    }
    this.initialized = false;
  }

  /**
   * Runs `command` with `/bin/sh -c` in the working directory, with `process.env` and `envVars`. The command's
   * failure is its result (a non-zero `exitCode`); past `timeoutSeconds` everything it started is killed
   * (`timedOut: true`, `exitCode: -9`). A `timeoutSeconds` that is not a positive number is refused.
   */
  async execute(command: string, timeoutSeconds?: number): Promise<ExecutionResult> {
    this.assertInitialized();
    const timeoutMs = timeoutSeconds === undefined ? undefined : positiveTimeout(timeoutSeconds) * 1000;
    const workingDir = this.workingDir;
    await stat(workingDir).catch(() => {
      throw new ToolsmithError("NO_WORKING_DIRECTORY", `The working directory ${workingDir} no longer exists, so the command did not run. Call initialize() to make it again.`);
    });
    const controller = new AbortController();
    const running = this.runInWorkingDir(command, { workingDir, timeoutMs, maxOutputBytes: this.#maxOutputBytes, abortSignal: controller.signal });
    this.#running.set(running, controller);
    try {
      return await running;
    } finally {
      this.#running.delete(running);
    }
  }

  /** The bytes of a file inside the working directory; a path that leads outside, as written or through a symbolic link, is refused (`PATH_REFUSED`). */
  async readFile(filePath: string): Promise<Uint8Array> {
    this.assertInitialized();
    return readFileInside(this.workingDir, filePath);
  }

  /** Writes a file inside the working directory (no newline translation), making its folders; a path that leads outside is refused (`PATH_REFUSED`). */
  async writeFile(filePath: string, content: string | Uint8Array): Promise<void> {
    this.assertInitialized();
    await writeFileInside(this.workingDir, filePath, content);
  }

  /**
   * Runs one command in the working directory, as `execute` does once it has checked the environment: with
   * `/bin/sh -c`, `process.env` and `envVars`. A subclass overrides it to run commands elsewhere (a sandbox).
   */
  protected async runInWorkingDir(command: string, request: CommandRequest): Promise<ExecutionResult> {
    const { runCommand } = await import("../platform/run-command.js");
    const outcome = await runCommand({ argv: ["/bin/sh", "-c", command], env: { ...process.env, ...this.#envVars }, cwd: request.workingDir, timeoutMs: request.timeoutMs, maxOutputBytes: request.maxOutputBytes, abortSignal: request.abortSignal });
    return executionResult(outcome);
  }

  /** The `envVars` option, for a subclass that builds its commands' environment otherwise. */
  protected get envVars(): Record<string, string> | undefined {
    return this.#envVars;
  }
}

function positiveTimeout(timeoutSeconds: number): number {
  if (typeof timeoutSeconds !== "number" || !Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
    throw new ToolsmithError("INVALID_ARGUMENTS", `timeoutSeconds must be a positive number of seconds, or left out for no limit; it got ${String(timeoutSeconds)}.`);
  }
  return timeoutSeconds;
}

/** ADK's result from what `runCommand` saw: a signal's end as minus its number, as Python's `returncode` gives it. */
export function executionResult(outcome: RunCommandResult): ExecutionResult {
  const signalNumber = outcome.signal === undefined ? undefined : constants.signals[outcome.signal as NodeJS.Signals];
  const exitCode = outcome.exitCode ?? (signalNumber === undefined ? 0 : -signalNumber);
  return { exitCode, stdout: outcome.stdout, stderr: outcome.stderr, timedOut: outcome.timedOut, ...(outcome.truncated ? { truncated: true as const } : {}) };
}
