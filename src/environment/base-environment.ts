import { ToolsmithError } from "../errors/toolsmith-error.js";

/**
 * What a shell command run in a {@link BaseEnvironment} did, as ADK's `ExecutionResult`: a command that succeeds
 * with no output gives `{exitCode: 0, stdout: "", stderr: "", timedOut: false}`.
 */
export interface ExecutionResult {
  /** The exit code; `0` on success. A command ended by a signal has minus the signal's number (`-9` for `SIGKILL`). */
  exitCode: number;
  /** What the command wrote on standard output, decoded as UTF-8 (`""` when nothing). */
  stdout: string;
  /** What the command wrote on standard error, decoded as UTF-8 (`""` when nothing). */
  stderr: string;
  /** Whether the command passed its time limit and was killed. */
  timedOut: boolean;
  /**
   * Present, and `true`, only when the command wrote more than the environment keeps (toolsmith's
   * `maxOutputBytes`): the rest was read and dropped. ADK keeps everything, however much.
   */
  truncated?: true;
}

/**
 * ADK's place for an agent's work: a working directory where shell commands run and files are read and written.
 * Construct it, call {@link BaseEnvironment.initialize} before first use, then {@link BaseEnvironment.execute},
 * {@link BaseEnvironment.readFile} and {@link BaseEnvironment.writeFile}, and {@link BaseEnvironment.close} when done.
 * toolsmith has `LocalEnvironment` (commands run as this process's user) and, in `toolsmith/tools`,
 * `SandboxedEnvironment` (commands run under bubblewrap); subclass it for another place (a container, a remote
 * machine).
 */
export abstract class BaseEnvironment {
  /** Whether {@link BaseEnvironment.initialize} has run (and {@link BaseEnvironment.close} not since): subclasses set and clear it. */
  protected initialized = false;

  /** Whether the environment has been initialized. */
  get isInitialized(): boolean {
    return this.initialized;
  }

  /** Makes the environment ready (its working directory, say). This one does nothing; subclasses make it idempotent and set `initialized`. */
  async initialize(): Promise<void> {}

  /** Releases what the environment holds. This one does nothing; subclasses make it idempotent and clear `initialized`. */
  async close(): Promise<void> {}

  /** The absolute path of the working directory. */
  abstract get workingDir(): string;

  /**
   * Runs a shell command in the working directory. A failing command is its result (a non-zero `exitCode`), not
   * an error; `timeoutSeconds` left out sets no limit.
   */
  abstract execute(command: string, timeoutSeconds?: number): Promise<ExecutionResult>;

  /** The bytes of a file, its path absolute or relative to the working directory. */
  abstract readFile(filePath: string): Promise<Uint8Array>;

  /** Writes a file (text as UTF-8), its path absolute or relative to the working directory, making its folders. */
  abstract writeFile(filePath: string, content: string | Uint8Array): Promise<void>;

  /** Throws `ENVIRONMENT_NOT_INITIALIZED` unless {@link BaseEnvironment.initialize} has run: call it first in every operation that needs the environment. */
  protected assertInitialized(): void {
    if (!this.initialized) throw new ToolsmithError("ENVIRONMENT_NOT_INITIALIZED", "Environment is not initialized. Call initialize() first.");
  }
}
