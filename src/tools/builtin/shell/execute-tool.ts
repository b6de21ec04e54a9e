import { existsSync } from "node:fs";
import { constants } from "node:os";
import { ConfigurationError } from "../../../errors/toolsmith-error.js";
import { FunctionTool } from "../../function-tool.js";
import type { Tool } from "../../tool.js";
import type { Backend } from "../filesystem/backend.js";
import { errorResult } from "../tool-status.js";
import { bubblewrapArgv, checkBubblewrap, DEFAULT_BWRAP_PATH } from "./bubblewrap.js";
import { runCommand } from "./run-command.js";

/** Options of {@link createExecuteTool}. */
export interface ExecuteToolOptions {
  /** Commands run in this backend's real directory (a `FilesystemBackend`, or a composite whose default is one). */
  backend: Backend;
  /** Default 120,000 ms; the whole process group is killed when it passes. */
  timeoutMs?: number;
  /** Default 100,000 bytes of combined output; more is dropped and `truncated: true` returned. */
  maxOutputBytes?: number;
  /** Run under bubblewrap: no network, everything read-only except the working directory. Default false. */
  sandbox?: boolean;
  /** Default `/usr/bin/bwrap`. */
  bwrapPath?: string;
  /** The environment of the command; default the process's. */
  env?: NodeJS.ProcessEnv;
}

/** The shell commands run in: bash where the machine has it (seed 002's messages are bash's), else sh. */
export function findShell(): { path: string; name: "bash" | "sh" } {
  for (const path of ["/bin/bash", "/usr/bin/bash"]) if (existsSync(path)) return { path, name: "bash" };
  return { path: "/bin/sh", name: "sh" };
}

/** A time limit as seed 002 writes it (Python's float seconds): 120 s is `120.0s`, 1.5 s `1.5s`. */
export function secondsText(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds.toFixed(1) : String(seconds)}s`;
}

/**
 * `execute(command)`, as seed 002's local execute tool: runs a shell command
 * in the backend's directory and answers `{status, output, exit_code,
 * truncated}`, `status` being `"error"` for a non-zero exit; after the time
 * limit, `output: "Command timed out after 120.0s"` and `exit_code: -1` (what
 * it printed before is kept in `partial_output`). Commands run in bash where
 * the machine has it, else in sh, and the description says which. With
 * `sandbox: true` it runs under bubblewrap and, when bubblewrap is missing or
 * cannot work on this host, answers with an error saying so rather than
 * running unsandboxed. A backend without a directory is refused when the
 * tool is made.
 */
export function createExecuteTool(options: ExecuteToolOptions): Tool {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxOutputBytes = options.maxOutputBytes ?? 100_000;
  const bwrapPath = options.bwrapPath ?? DEFAULT_BWRAP_PATH;
  const cwd = options.backend.workingDirectory;
  if (cwd === undefined) {
    throw new ConfigurationError(
      "NO_WORKING_DIRECTORY",
      "execute needs a backend with a real directory to run commands in, and this backend keeps files elsewhere (session state or a store). Use new FilesystemBackend({ rootDirectory }) as the backend, or a CompositeBackend whose default is one.",
    );
  }
  const shell = findShell();
  return new FunctionTool({
    name: "execute",
    description: `Executes a shell command (${shell.name}) in the workspace and returns its output and exit code (stdout and stderr, at most ${maxOutputBytes} bytes). Commands are stopped after ${Math.round(timeoutMs / 1000)} s.${options.sandbox ? " There is no network access, and only the workspace is writable." : ""}`,
    parameters: { type: "object", properties: { command: { type: "string", description: "The shell command to execute." } }, required: ["command"] },
    execute: async (args, context) => {
      const command = String(args.command);
      if (!command.trim()) return errorResult("command is empty. Give a shell command to run.");
      // The shell is started under its bare name, so its messages read "bash: foo: command not found" as in the seed.
      let argv = [shell.path, "-c", command];
      let argv0: string | undefined = shell.name;
      if (options.sandbox) {
        const check = await checkBubblewrap(bwrapPath);
        if (!check.ok) return errorResult(`The command did not run: sandboxed execution is unavailable. ${check.reason}`, { code: "SANDBOX_UNAVAILABLE" });
        // bubblewrap looks the bare name up on PATH inside the sandbox (it has no --argv0 before 0.9).
        argv = bubblewrapArgv({ bwrapPath, workingDirectory: cwd, argv: [(options.env ?? process.env).PATH ? shell.name : shell.path, "-c", command] });
        argv0 = undefined;
      }
      try {
        const result = await runCommand({ argv, argv0, cwd, timeoutMs, maxOutputBytes, abortSignal: context.abortSignal, env: options.env });
        if (result.timedOut) {
          return { status: "error", output: `Command timed out after ${secondsText(timeoutMs)}`, exit_code: -1, truncated: result.truncated, partial_output: result.output };
        }
        // A command ended by a signal has no exit code; as Python's subprocess, it is the signal's number, negated.
        const exitCode = result.exitCode ?? (result.signal ? -(constants.signals[result.signal as NodeJS.Signals] ?? 1) : -1);
        return { status: exitCode === 0 ? "success" : "error", output: result.output, exit_code: exitCode, truncated: result.truncated, ...(result.signal ? { signal: result.signal } : {}) };
      } catch (error) {
        return errorResult(`The command could not be started: ${(error as Error).message}.`);
      }
    },
  });
}
