import type { Backend, BackendContext } from "../filesystem/backend.js";
import { loadOptionalPeer } from "../../../platform/load-optional-peer.js";
import { secondsText } from "../shell/execute-tool.js";
import { readBackendFiles, saveChanges, savedChangesResult, toSandboxPath, WORKSPACE, type FileNotSaved } from "./workspace-files.js";

/** Options of {@link runSimulatedBash}. */
export interface SimulatedBashRun {
  backend: Backend;
  context: BackendContext;
  command: string;
  /** A directory relative to the workspace (`src`, `.`), as Heimdall's `cwd`. */
  cwd?: string;
  timeoutMs: number;
  maxOutputBytes: number;
  abortSignal?: AbortSignal;
}

type JustBash = typeof import("just-bash");

let justBash: Promise<JustBash> | undefined;

function loadJustBash(): Promise<JustBash> {
  justBash ??= loadOptionalPeer({ load: () => import("just-bash"), packageName: "just-bash", neededFor: 'execution: "wasm" (execute_bash)' });
  justBash.catch(() => (justBash = undefined));
  return justBash;
}

/**
 * Runs a command in just-bash, a bash written in TypeScript: no process is
 * started and no host file is reached. The backend's files are copied into an
 * in-memory filesystem at `/workspace` (the command starts there), and the
 * files it changed are written back through the backend afterwards. Answers
 * the local `execute` tool's shape: `{status, output, exit_code, truncated}`.
 */
export async function runSimulatedBash(run: SimulatedBashRun): Promise<Record<string, unknown>> {
  const { Bash, InMemoryFs } = await loadJustBash();
  const before = await readBackendFiles(run.backend, run.context);
  const initial: Record<string, Uint8Array> = {};
  for (const [path, bytes] of before) initial[toSandboxPath(path)] = bytes;
  const fs = new InMemoryFs(initial);
  await fs.mkdir(WORKSPACE, { recursive: true });
  const bash = new Bash({
    fs,
    cwd: WORKSPACE,
    env: { HOME: WORKSPACE },
    // just-bash's own output limit ends the command (exit 126); this one only bounds memory, and output is cut at maxOutputBytes below.
    executionLimits: { maxExecutionTimeMs: run.timeoutMs, maxOutputSize: Math.max(run.maxOutputBytes * 10, 16 * 1024 ** 2) },
  });
  const cwd = run.cwd ? resolveCwd(run.cwd) : WORKSPACE;
  if (cwd === undefined) {
    return { status: "error", output: `cwd ${JSON.stringify(run.cwd)} is outside the workspace. Give a directory relative to ${WORKSPACE}, such as "src" or ".".`, exit_code: 1, truncated: false };
  }
  const timeout = AbortSignal.timeout(run.timeoutMs);
  const signal = run.abortSignal ? AbortSignal.any([run.abortSignal, timeout]) : timeout;
  const result = await bash.exec(run.command, { cwd, signal });
  const { written, removed, skipped } = await changedFiles(fs, before);
  const saved = await saveChanges({ backend: run.backend, context: run.context, written, removed, skipped });
  // Whichever fires first, the abort signal or just-bash's own deadline (exit 124 and its message), it is the time limit.
  if (timeout.aborted || (result.exitCode === 124 && result.stderr.includes("exceeded execution deadline"))) {
    return { status: "error", output: `Command timed out after ${secondsText(run.timeoutMs)}`, exit_code: -1, truncated: false, ...savedChangesResult(saved) };
  }
  const combined = Buffer.from(result.stdout + result.stderr);
  const truncated = combined.byteLength > run.maxOutputBytes;
  // Cut at the cap without leaving half a character (the decoder would turn it into a 3-byte U+FFFD).
  const output = truncated ? new TextDecoder().decode(combined.subarray(0, run.maxOutputBytes)).replace(/\uFFFD$/, "") : combined.toString("utf8");
  return { status: result.exitCode === 0 ? "success" : "error", output, exit_code: result.exitCode, truncated, ...savedChangesResult(saved) };
}

/** A cwd relative to the workspace, refused when `..` would leave it. */
function resolveCwd(cwd: string): string | undefined {
  const parts: string[] = [];
  for (const part of cwd.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return [WORKSPACE, ...parts].join("/");
}

type InMemoryFsInstance = InstanceType<JustBash["InMemoryFs"]>;

/** The files under the workspace that differ from what was copied in, those gone, and links (never followed out). */
async function changedFiles(fs: InMemoryFsInstance, before: Map<string, Uint8Array>) {
  const written: [string, Uint8Array][] = [];
  const skipped: FileNotSaved[] = [];
  const present = new Set<string>();
  for (const path of fs.getAllPaths()) {
    if (!path.startsWith(`${WORKSPACE}/`)) continue;
    const stat = await fs.lstat(path);
    if (stat.isSymbolicLink) {
      skipped.push({ path, reason: "it is a symbolic link; links are not saved" });
      continue;
    }
    if (!stat.isFile) continue;
    present.add(path);
    const bytes = await fs.readFileBuffer(path);
    const original = before.get(path.slice(WORKSPACE.length));
    if (!original || Buffer.compare(Buffer.from(original), Buffer.from(bytes)) !== 0) written.push([path, bytes]);
  }
  const removed = [...before.keys()].map(toSandboxPath).filter((path) => !present.has(path));
  return { written, removed, skipped };
}
