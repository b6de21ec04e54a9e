import { execFile } from "node:child_process";
import { existsSync, lstatSync, readlinkSync } from "node:fs";
import { access, constants } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { ConfigurationError } from "../../../errors/toolsmith-error.js";

/** Where Debian's `bubblewrap` package puts the binary. */
export const DEFAULT_BWRAP_PATH = "/usr/bin/bwrap";

/**
 * The system directories a command needs to run, shown read-only. Where the
 * host's is a symlink (`/bin -> usr/bin` on merged-/usr systems) the sandbox
 * gets the same symlink, so paths resolve as they do on the host.
 */
export const SYSTEM_DIRECTORIES = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] as const;

/**
 * The parts of `/etc` programs need: the dynamic linker's cache, the
 * Debian alternatives `/usr/bin` links into, users and groups (so `id`, `ls -l`
 * and `whoami` work), name-service and time-zone settings, certificate
 * stores, and a few harmless descriptions of the system. The rest of `/etc`
 * stays hidden because it holds credentials and host configuration a command
 * has no business reading: `/etc/npmrc` and `/etc/pip.conf` may carry registry
 * tokens, `/etc/gitconfig` credential helpers, `/etc/environment` secrets,
 * `/etc/ssh` host keys, `/etc/shadow` password hashes.
 */
const ETC_ENTRIES = [
  "alternatives",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "passwd",
  "group",
  "nsswitch.conf",
  "host.conf",
  "hosts",
  "localtime",
  "timezone",
  "ssl",
  "ca-certificates",
  "ca-certificates.conf",
  "pki",
  "os-release",
  "debian_version",
  "mime.types",
  "magic",
  "magic.mime",
  "protocols",
  "services",
  "inputrc",
  "locale.alias",
] as const;

/** Options of {@link bubblewrapArgv}. */
export interface BubblewrapArgvOptions {
  bwrapPath: string;
  /** The workspace: shown read-write at its real path and made the working directory. Without it, the command starts in `/`. */
  workingDirectory?: string;
  /** Host paths shown read-only at the same place (tools installed outside `/usr`, such as `/opt/node`). */
  readOnlyPaths?: readonly string[];
  /** The size of the private `/tmp` (a tmpfs, held in memory). */
  tmpSizeBytes?: number;
  argv: readonly string[];
}

/**
 * The command line that runs `argv` under bubblewrap, showing the command only
 * the workspace (read-write), the system directories and the parts of `/etc`
 * it needs (read-only), a private `/tmp` and `/dev/shm`, and its own `/proc`
 * and `/dev`; nothing else is writable.
 * The host's home directories, `/tmp`, `/run`, `/var`, `/root`, sockets and
 * everything else are absent. Every namespace is new (so there is no network
 * and no way to signal host processes), the command gets a session of its own
 * (no `TIOCSTI` into a terminal), and it ends if toolsmith dies.
 */
export function bubblewrapArgv(options: BubblewrapArgvOptions): string[] {
  const cwd = options.workingDirectory;
  const argv = [options.bwrapPath, "--unshare-all", "--die-with-parent", "--new-session"];
  for (const directory of SYSTEM_DIRECTORIES) {
    const stat = lstatOrUndefined(directory);
    if (stat?.isSymbolicLink()) argv.push("--symlink", readlinkSync(directory), directory);
    else if (stat?.isDirectory()) argv.push("--ro-bind", directory, directory);
  }
  for (const entry of ETC_ENTRIES) argv.push("--ro-bind-try", `/etc/${entry}`, `/etc/${entry}`);
  argv.push("--proc", "/proc", "--dev", "/dev");
  if (options.tmpSizeBytes !== undefined) argv.push("--size", String(options.tmpSizeBytes));
  argv.push("--tmpfs", "/tmp");
  for (const path of options.readOnlyPaths ?? []) argv.push("--ro-bind", path, path);
  // After the tmpfs, so a workspace under /tmp is bound over it.
  if (cwd !== undefined) argv.push("--bind", cwd, cwd);
  // bubblewrap makes the root and /dev as tmpfs's with no size limit, which a command could write to (filling the
  // host's memory): both are made read-only, so the workspace, /tmp and a /dev/shm the size of /tmp (POSIX shared
  // memory and Python's multiprocessing need it) are all it may write.
  if (options.tmpSizeBytes !== undefined) argv.push("--size", String(options.tmpSizeBytes));
  argv.push("--tmpfs", "/dev/shm", "--remount-ro", "/dev", "--remount-ro", "/");
  argv.push("--chdir", cwd ?? "/", "--", ...options.argv);
  return argv;
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** `readOnlyPaths` as given, each checked to be an absolute path that exists here (a mistyped one would fail every command). */
export function checkedReadOnlyPaths(paths: readonly string[] | undefined): readonly string[] {
  for (const path of paths ?? []) {
    if (!isAbsolute(path) || !existsSync(path)) {
      throw new ConfigurationError("INVALID_SANDBOX_OPTION", `readOnlyPaths names ${JSON.stringify(path)}, which is not an absolute path that exists on this host. Give absolute paths of existing files or directories.`);
    }
  }
  return paths ?? [];
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
        return { ok: false, reason: `bubblewrap is not installed (no executable at ${bwrapPath}). Install it with "apt-get install bubblewrap".` };
      }
      const argv = bubblewrapArgv({ bwrapPath, argv: [existsSync("/bin/true") ? "/bin/true" : "/usr/bin/true"] });
      return new Promise((resolve) => {
        execFile(argv[0]!, argv.slice(1), { timeout: 10_000 }, (error, _stdout, stderr) => {
          if (!error) resolve({ ok: true });
          else resolve({ ok: false, reason: `bubblewrap is installed but cannot create its sandbox here (${(stderr || error.message).trim()}). This host or container forbids the user namespaces it needs.` });
        });
      });
    })();
    checks.set(bwrapPath, check);
  }
  return check;
}
