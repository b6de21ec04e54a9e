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

/**
 * `execute(command)`: runs a shell command in the backend's root and returns
 * its exit code and output. With `sandbox: true` it runs under bubblewrap and,
 * when bubblewrap is missing or cannot work on this host, answers with an
 * error saying so rather than running unsandboxed.
 */
export function createExecuteTool(options: ExecuteToolOptions): Tool {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxOutputBytes = options.maxOutputBytes ?? 100_000;
  const bwrapPath = options.bwrapPath ?? DEFAULT_BWRAP_PATH;
  return new FunctionTool({
    name: "execute",
    description: `Runs a shell command (sh -c) in the workspace root and returns its exit code and output (stdout and stderr, at most ${maxOutputBytes} bytes). Commands are stopped after ${Math.round(timeoutMs / 1000)} s.${options.sandbox ? " There is no network access, and only the workspace is writable." : ""}`,
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    execute: async (args, context) => {
      const cwd = options.backend.workingDirectory;
      if (cwd === undefined) return errorResult("Commands cannot run here: the files live in session state, not in a directory. Use the file tools instead.");
      const command = String(args.command);
      if (!command.trim()) return errorResult("command is empty. Give a shell command to run.");
      let argv = ["/bin/sh", "-c", command];
      if (options.sandbox) {
        const check = await checkBubblewrap(bwrapPath);
        if (!check.ok) return errorResult(`The command did not run: sandboxed execution is unavailable. ${check.reason}`, { code: "SANDBOX_UNAVAILABLE" });
        argv = bubblewrapArgv({ bwrapPath, workingDirectory: cwd, argv });
      }
      try {
        const result = await runCommand({ argv, cwd, timeoutMs, maxOutputBytes, abortSignal: context.abortSignal, env: options.env });
        if (result.timedOut) {
          return errorResult(`The command did not finish within ${timeoutMs / 1000} s and was stopped with everything it started. Run something shorter, or in smaller steps.`, {
            output: result.output,
            truncated: result.truncated,
          });
        }
        return { status: "success", exit_code: result.exitCode ?? null, ...(result.signal ? { signal: result.signal } : {}), output: result.output, truncated: result.truncated };
      } catch (error) {
        return errorResult(`The command could not be started: ${(error as Error).message}.`);
      }
    },
  });
}
