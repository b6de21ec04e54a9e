import type { RunCommandResult } from "../../../platform/run-command.js";
import { bubblewrapArgv } from "./bubblewrap.js";
import { inCgroupArgv, type PidsCgroup } from "./pids-cgroup.js";
import { limitedArgv, limitOfExitCode, processLimitHit, type SandboxLimits } from "./sandbox-limits.js";

/** What {@link sandboxedArgv} runs: `argv` in `workingDirectory` under bubblewrap, with the limits. */
export interface SandboxedCommandRequest {
  bwrapPath: string;
  /** The workspace, shown read-write at its real path and made the working directory. */
  workingDirectory: string;
  readOnlyPaths: readonly string[];
  limits: Required<SandboxLimits>;
  argv: readonly string[];
}

/**
 * The command line that runs `argv` in the sandbox: bubblewrap around the limits (set inside, see `limitedArgv`),
 * started inside `cgroup` (a pids cgroup made for this command, where this process may make one) when there is one.
 * Every sandboxed command toolsmith runs (the `execute` tool, the sandboxed code executor and environment) is made here.
 */
export function sandboxedArgv(request: SandboxedCommandRequest, cgroup: PidsCgroup | undefined): string[] {
  const argv = bubblewrapArgv({ bwrapPath: request.bwrapPath, workingDirectory: request.workingDirectory, readOnlyPaths: request.readOnlyPaths, tmpSizeBytes: request.limits.tmpSizeBytes, argv: limitedArgv(request.limits, request.argv) });
  return cgroup ? inCgroupArgv(cgroup, argv) : argv;
}

/** The sandbox limit a finished command hit, by its exit code or the processes it was refused, if any. */
export async function sandboxLimitHit(outcome: RunCommandResult, exitCode: number, limits: Required<SandboxLimits>, cgroup: PidsCgroup | undefined): Promise<{ limit: keyof SandboxLimits; message: string } | undefined> {
  return limitOfExitCode(exitCode, limits) ?? processLimitHit(await cgroup?.refusedForks(), outcome.output, limits);
}
