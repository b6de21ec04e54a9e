import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** A control group of its own for one command, capping how many processes it may hold. */
export interface PidsCgroup {
  /** The cgroup's directory; a process joins by writing its pid to `cgroup.procs`. */
  directory: string;
  /** How many times a process in the cgroup was refused a new process because of the limit (`pids.events`). */
  refusedForks(): Promise<number>;
  /** Removes the cgroup once its processes are gone (retrying while the kernel reaps them). */
  remove(): Promise<void>;
}

/** Where the pids controller of this process's cgroup lives, on cgroup v1 or v2. */
function pidsControllerDirectory(): string | undefined {
  let lines: string[];
  try {
    lines = readFileSync("/proc/self/cgroup", "utf8").split("\n");
  } catch {
    return undefined;
  }
  for (const line of lines) {
    const [, controllers, path] = line.split(":");
    if (controllers?.split(",").includes("pids") && path !== undefined) {
      const directory = join("/sys/fs/cgroup/pids", path);
      if (existsSync(join(directory, "cgroup.procs"))) return directory;
    }
  }
  const unified = lines.find((line) => line.startsWith("0::"))?.slice(3);
  if (unified === undefined) return undefined;
  for (const root of ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"]) {
    const directory = join(root, unified);
    try {
      if (readFileSync(join(directory, "cgroup.subtree_control"), "utf8").split(/\s+/).includes("pids")) return directory;
    } catch {
      // Not mounted here, or not ours to read.
    }
  }
  return undefined;
}

/**
 * Makes a pids cgroup holding at most `maxProcesses` processes, or answers
 * `undefined` when this process may not (the usual case for a user without
 * delegated cgroups). It is what limits processes when toolsmith runs as root:
 * the kernel does not apply `RLIMIT_NPROC` to processes of the host's root
 * user, even inside a user namespace, and a fork bomb would exhaust the
 * host's process ids.
 */
export async function createPidsCgroup(maxProcesses: number): Promise<PidsCgroup | undefined> {
  const parent = pidsControllerDirectory();
  if (!parent) return undefined;
  const directory = join(parent, `toolsmith-${randomUUID()}`);
  try {
    await mkdir(directory);
  } catch {
    return undefined;
  }
  const remove = async () => {
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        await rmdir(directory);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  try {
    await writeFile(join(directory, "pids.max"), String(maxProcesses));
  } catch {
    await remove();
    return undefined;
  }
  const refusedForks = async () => {
    try {
      return Number(/^max (\d+)$/m.exec(await readFile(join(directory, "pids.events"), "utf8"))?.[1] ?? 0);
    } catch {
      return 0;
    }
  };
  return { directory, refusedForks, remove };
}

/** `argv`, started by a shell that first moves itself into the cgroup, so everything it starts is counted. */
export function inCgroupArgv(cgroup: PidsCgroup, argv: readonly string[]): string[] {
  return ["/bin/sh", "-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"', cgroup.directory, ...argv];
}
