import { execFile } from "node:child_process";
import { access, constants } from "node:fs/promises";

/** Where Debian's `bubblewrap` package puts the binary. */
export const DEFAULT_BWRAP_PATH = "/usr/bin/bwrap";

/**
 * The command line that runs `argv` under bubblewrap: the whole filesystem
 * read-only, the working directory writable, a private `/tmp`, `/dev` and
 * `/proc`, no network (a new, empty network namespace) and its own PID
 * namespace, ended if toolsmith dies.
 */
export function bubblewrapArgv(options: { bwrapPath: string; workingDirectory: string; argv: readonly string[] }): string[] {
  const cwd = options.workingDirectory;
  return [
    options.bwrapPath,
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
    "--tmpfs", "/tmp",
    // After the tmpfs, so a working directory under /tmp is bound over it.
    "--bind", cwd, cwd,
    "--unshare-net",
    "--unshare-pid",
    "--unshare-ipc",
    "--die-with-parent",
    "--chdir", cwd,
    "--",
    ...options.argv,
  ];
}

/** Whether sandboxing works here, and why not when it does not. */
export type SandboxCheck = { ok: true } | { ok: false; reason: string };

const checks = new Map<string, Promise<SandboxCheck>>();

/**
 * Checks once per binary that bubblewrap is installed and can create the
 * namespaces it needs (some containers forbid user namespaces).
 */
export function checkBubblewrap(bwrapPath: string = DEFAULT_BWRAP_PATH): Promise<SandboxCheck> {
  let check = checks.get(bwrapPath);
  if (!check) {
    check = (async (): Promise<SandboxCheck> => {
      try {
        await access(bwrapPath, constants.X_OK);
      } catch {
        return { ok: false, reason: `bubblewrap is not installed (no executable at ${bwrapPath}). Install it with "apt-get install bubblewrap", or turn sandboxing off.` };
      }
      const argv = bubblewrapArgv({ bwrapPath, workingDirectory: "/", argv: ["/bin/true"] });
      return new Promise((resolve) => {
        execFile(argv[0]!, argv.slice(1), { timeout: 10_000 }, (error, _stdout, stderr) => {
          if (!error) resolve({ ok: true });
          else resolve({ ok: false, reason: `bubblewrap is installed but cannot create its sandbox here (${(stderr || error.message).trim()}). This host or container forbids the namespaces it needs; run without sandboxing only if you trust the commands.` });
        });
      });
    })();
    checks.set(bwrapPath, check);
  }
  return check;
}
