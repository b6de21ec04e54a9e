import { existsSync } from "node:fs";
import { constants } from "node:os";
import { isAbsolute } from "node:path";
import { ConfigurationError } from "../../../errors/toolsmith-error.js";
import { FunctionTool } from "../../function-tool.js";
import type { Tool } from "../../tool.js";
import type { Backend } from "../filesystem/backend.js";
import { errorResult } from "../tool-status.js";
import { checkBubblewrap, checkedReadOnlyPaths, DEFAULT_BWRAP_PATH } from "./bubblewrap.js";
import { createPidsCgroup, type PidsCgroup } from "./pids-cgroup.js";
import { runCommand } from "../../../platform/run-command.js";
import { sandboxEnvironment } from "./sandbox-environment.js";
import { checkedLimits, limitOfExitCode, processLimitHit, type SandboxLimits } from "./sandbox-limits.js";
import { sandboxedArgv } from "./sandboxed-command.js";
import { endSentence } from "../../../errors/sentence.js";
import { refuseUnhonouredOptions } from "../../../errors/unhonoured-option.js";

/** Options of {@link createExecuteTool}. */
export interface ExecuteToolOptions {
  /** Commands run in this backend's real directory (a `FilesystemBackend`, or a composite whose default is one). */
  backend: Backend;
  /** Default 120,000 ms; the whole process group is killed when it passes. */
  timeoutMs?: number;
  /** Default 100,000 bytes of combined output; more is dropped and `truncated: true` returned. */
  maxOutputBytes?: number;
  /**
   * Run under bubblewrap, showing the command only the workspace (read-write),
   * the system directories (read-only), a private `/tmp` and its own `/proc`
   * and `/dev`; no network, a cleared environment, and {@link limits}.
   * Default false.
   */
  sandbox?: boolean;
  /** Default `/usr/bin/bwrap`. */
  bwrapPath?: string;
  /**
   * Without the sandbox, the whole environment of the command (default the
   * process's). In the sandbox, values set on top of the sandbox's own
   * environment (`PATH`, `HOME=/tmp`, the locale and `TERM`); an `undefined`
   * value removes a variable. Nothing else of the host's reaches a sandboxed
   * command.
   */
  env?: NodeJS.ProcessEnv;
  /** In the sandbox, names of host variables passed through to the command (say `["NPM_TOKEN"]`); by default none beyond the locale and `TERM`. */
  envAllowList?: readonly string[];
  /** In the sandbox, absolute host paths shown read-only at the same place, for tools installed outside `/usr` (say `["/opt/node"]`). */
  readOnlyPaths?: readonly string[];
  /** In the sandbox, what the command may use; each field left out keeps its default (256 processes, 2 GiB of memory and 1 GiB files per process, 60 s of CPU per process, a 512 MiB `/tmp`). */
  limits?: SandboxLimits;
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

/** Runs one shell command as the `execute` tool does, answering in its result shape. */
export interface CommandRunner {
  /** The shell commands run in (`bash`, or `sh` where there is no bash). */
  readonly shellName: "bash" | "sh";
  /** What a sandboxed command may reach and use, for a tool's description; empty without the sandbox. */
  readonly sandboxNote: string;
  /** Runs `command` in the workspace; `readOnlyPaths` are shown to this command too (read-only in the sandbox). */
  run(command: string, options: { abortSignal?: AbortSignal; readOnlyPaths?: readonly string[] }): Promise<Record<string, unknown>>;
}

/**
 * The machinery behind `execute`, for any tool that runs commands where the
 * agent runs them (skills' scripts do): the same workspace, limits, time
 * limit, output cap and, when configured, the bubblewrap sandbox, which it
 * never falls back from. A backend without a directory is refused.
 */
export function createCommandRunner(options: ExecuteToolOptions): CommandRunner {
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
  const limits = checkedLimits(options.limits);
  const readOnlyPaths = checkedReadOnlyPaths(options.readOnlyPaths);
  const sandboxEnv = options.sandbox ? sandboxEnvironment({ hostEnv: process.env, allowList: options.envAllowList, env: options.env }) : undefined;
  const shell = findShell();
  const sandboxNote = `${options.sandbox ? ` There is no network access; only the workspace and /tmp exist besides the system's programs, and only they are writable. Each process may use ${limits.cpuTimeSeconds} s of CPU and write files of at most ${Math.round(limits.fileSizeBytes / 1024 ** 2)} MiB.` : ""}`;
  const run: CommandRunner["run"] = async (command, runOptions) => {
    // The shell is started under its bare name, so its messages read "bash: foo: command not found" as in the seed.
    let argv = [shell.path, "-c", command];
    let argv0: string | undefined = shell.name;
    let env = options.env;
    let cgroup: PidsCgroup | undefined;
    if (options.sandbox) {
      const check = await checkBubblewrap(bwrapPath);
      if (!check.ok) return errorResult(`The command did not run: sandboxed execution is unavailable. ${check.reason} Or turn sandboxing off, if you trust the commands.`, { code: "SANDBOX_UNAVAILABLE" });
      // The shell is looked up by its bare name on the sandbox's PATH, so it names itself "bash" (bubblewrap has no --argv0 before 0.9).
      cgroup = await createPidsCgroup(limits.processes);
      argv = sandboxedArgv({ bwrapPath, workingDirectory: cwd, readOnlyPaths: [...readOnlyPaths, ...(runOptions.readOnlyPaths ?? [])], limits, argv: [shell.name, "-c", command] }, cgroup);
      argv0 = undefined;
      // bubblewrap is started with the sandbox's environment rather than given --clearenv and --setenv: an allowed
      // secret passed as --setenv would sit in bubblewrap's command line, which any host user can read in `ps`.
      env = sandboxEnv;
    }
    try {
      const result = await runCommand({ argv, argv0, cwd, timeoutMs, maxOutputBytes, abortSignal: runOptions.abortSignal, env });
      const processLimit = options.sandbox ? processLimitHit(await cgroup?.refusedForks(), result.output, limits) : undefined;
      if (result.timedOut) {
        return { status: "error", output: `Command timed out after ${secondsText(timeoutMs)}`, exit_code: -1, truncated: false, ...(processLimit ?? {}) };
      }
      // A command ended by a signal has no exit code; as Python's subprocess, it is the signal's number, negated.
      const exitCode = result.exitCode ?? (result.signal ? -(constants.signals[result.signal as NodeJS.Signals] ?? 1) : -1);
      const limit = options.sandbox ? (limitOfExitCode(exitCode, limits) ?? processLimit) : undefined;
      // A command that hit a limit failed at what it set out to do, even when its last process exited 0 (a fork bomb's shell does).
      return { status: exitCode === 0 && !limit ? "success" : "error", output: result.output, exit_code: exitCode, truncated: result.truncated, ...(limit ?? {}) };
    } catch (error) {
      return notRun(`The command could not be started: ${endSentence((error as Error).message)}`);
    } finally {
      await cgroup?.remove();
    }
  };
  return { shellName: shell.name, sandboxNote, run };
}

/**
 * `execute(command)`, as seed 002's local execute tool: runs a shell command
 * in the backend's directory and answers exactly `{status, output, exit_code,
 * truncated}`, `status` being `"error"` for a non-zero exit (a command ended
 * by a signal has the signal's number, negated, as its exit code); after the
 * time limit, `output: "Command timed out after 120.0s"` and `exit_code: -1`,
 * as the seed (what it printed before is dropped). A sandboxed command that
 * hits one of its limits adds `limit` and `message` naming it. Commands run in bash where
 * the machine has it, else in sh, and the description says which. With
 * `sandbox: true` it runs under bubblewrap and, when bubblewrap is missing or
 * cannot work on this host, answers with an error saying so rather than
 * running unsandboxed. A backend without a directory is refused when the
 * tool is made.
 */
export function createExecuteTool(options: ExecuteToolOptions): Tool {
  // A misspelt sandbox option would run commands on the host unsandboxed: refused by name instead.
  refuseUnhonouredOptions("createExecuteTool", options, ["backend", "timeoutMs", "maxOutputBytes", "sandbox", "bwrapPath", "env", "envAllowList", "readOnlyPaths", "limits"]);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxOutputBytes = options.maxOutputBytes ?? 100_000;
  const runner = createCommandRunner(options);
  return new FunctionTool({
    name: "execute",
    description: `Executes a shell command (${runner.shellName}) in the workspace and returns its output and exit code (stdout and stderr, at most ${maxOutputBytes} bytes). Commands are stopped after ${Math.round(timeoutMs / 1000)} s.${runner.sandboxNote}`,
    parameters: { type: "object", properties: { command: { type: "string", description: "The shell command to execute." } }, required: ["command"] },
    execute: async (args, context) => {
      const command = String(args.command);
      if (!command.trim()) return notRun("command is empty. Give a shell command to run.");
      return runner.run(command, { abortSignal: context.abortSignal });
    },
  });
}

/** A command that did not run, in the same four keys as one that did (exit code -1, as a timeout). */
function notRun(output: string): Record<string, unknown> {
  return { status: "error", output, exit_code: -1, truncated: false };
}


