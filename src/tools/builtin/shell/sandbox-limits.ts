import { ConfigurationError } from "../../../errors/toolsmith-error.js";
import { existsSync } from "node:fs";

/** What a sandboxed command may use; each limit applies to every process it starts. */
export interface SandboxLimits {
  /** The most processes (and threads) running at once; default 256. Stops a fork bomb. */
  processes?: number;
  /** Memory each process may allocate (its data segment and private writable mappings, `RLIMIT_DATA`); default 2 GiB. */
  memoryBytes?: number;
  /** The largest file a process may write; default 1 GiB. Writing past it ends the process (`SIGXFSZ`). */
  fileSizeBytes?: number;
  /** CPU seconds each process may use; default 60. Past it the process is ended (`SIGXCPU`). */
  cpuTimeSeconds?: number;
  /** The size of the private `/tmp`, which is held in memory; default 512 MiB. */
  tmpSizeBytes?: number;
}

/** The limits a sandboxed command runs under unless the developer sets others. */
export const DEFAULT_SANDBOX_LIMITS: Required<SandboxLimits> = {
  processes: 256,
  memoryBytes: 2 * 1024 ** 3,
  fileSizeBytes: 1024 ** 3,
  cpuTimeSeconds: 60,
  tmpSizeBytes: 512 * 1024 ** 2,
};

/**
 * The program and arguments that set the limits inside the sandbox and then
 * run `argv`: `prlimit` from util-linux where the system has it, else the
 * shell's `ulimit`. They are set inside, after bubblewrap made the user
 * namespace, because the process limit counts a user's processes in their
 * namespace: set outside, it would count every process the developer runs.
 */
export function limitedArgv(limits: Required<SandboxLimits>, argv: readonly string[]): string[] {
  const prlimit = ["/usr/bin/prlimit", "/bin/prlimit"].find((path) => existsSync(path));
  if (prlimit) {
    return [
      prlimit,
      `--nproc=${limits.processes}`,
      `--data=${limits.memoryBytes}`,
      `--fsize=${limits.fileSizeBytes}`,
      // The hard limit one second later, so the process first gets SIGXCPU, which names the cause, rather than SIGKILL.
      `--cpu=${limits.cpuTimeSeconds}:${limits.cpuTimeSeconds + 1}`,
      "--",
      ...argv,
    ];
  }
  // POSIX sh has no portable flag for processes (bash says -u, dash -p): ask for either, and stop if neither works.
  const ulimit =
    `ulimit -d ${Math.floor(limits.memoryBytes / 1024)} -f ${Math.floor(limits.fileSizeBytes / 512)} -t ${limits.cpuTimeSeconds} && ` +
    `{ ulimit -u ${limits.processes} 2>/dev/null || ulimit -p ${limits.processes}; } || exit 125; exec "$@"`;
  return ["/bin/sh", "-c", ulimit, "sh", ...argv];
}

/**
 * The limit a sandboxed command's exit code says it hit. bubblewrap, like the
 * shell, reports a process ended by a signal as 128 plus the signal's number:
 * 152 is `SIGXCPU` (CPU time), 153 `SIGXFSZ` (file size).
 */
export function limitOfExitCode(exitCode: number, limits: Required<SandboxLimits>): { limit: keyof SandboxLimits; message: string } | undefined {
  if (exitCode === 128 + 24) {
    return { limit: "cpuTimeSeconds", message: `The command was stopped: it used its CPU-time limit of ${limits.cpuTimeSeconds} s. Make it do less work, or raise limits.cpuTimeSeconds.` };
  }
  if (exitCode === 128 + 25) {
    return { limit: "fileSizeBytes", message: `The command was stopped: it tried to write a file larger than the file-size limit of ${limits.fileSizeBytes} bytes. Write less, or raise limits.fileSizeBytes.` };
  }
  return undefined;
}

/**
 * Whether a sandboxed command was refused new processes: the cgroup counts
 * refusals where there is one; else the shell's message says so (bash's
 * "fork: retry: Resource temporarily unavailable", dash's "Cannot fork").
 */
export function processLimitHit(refusedForks: number | undefined, output: string, limits: Required<SandboxLimits>): { limit: keyof SandboxLimits; message: string } | undefined {
  const hit = refusedForks !== undefined ? refusedForks > 0 : /fork: (retry: )?Resource temporarily unavailable|Cannot fork/.test(output);
  if (!hit) return undefined;
  return { limit: "processes", message: `The command hit the process limit of ${limits.processes}: new processes were refused${refusedForks ? ` ${refusedForks} times` : ""}. Start fewer processes at once, or raise limits.processes.` };
}

/** The limits given, each field checked and the others at their defaults; an unknown limit or one below 1 is refused. */
export function checkedLimits(limits: SandboxLimits | undefined): Required<SandboxLimits> {
  const checked = { ...DEFAULT_SANDBOX_LIMITS };
  for (const [name, value] of Object.entries(limits ?? {}) as [keyof SandboxLimits, unknown][]) {
    if (value === undefined) continue;
    if (!Object.hasOwn(DEFAULT_SANDBOX_LIMITS, name)) {
      throw new ConfigurationError("INVALID_SANDBOX_OPTION", `limits.${name} is not a sandbox limit. Use ${Object.keys(DEFAULT_SANDBOX_LIMITS).join(", ")}.`);
    }
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
      throw new ConfigurationError("INVALID_SANDBOX_OPTION", `limits.${name} is ${JSON.stringify(value)}; give a whole number of at least 1 (the default is ${DEFAULT_SANDBOX_LIMITS[name]}).`);
    }
    checked[name] = value;
  }
  return checked;
}
