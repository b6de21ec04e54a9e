import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);
const repositoryRoot = new URL("../../", import.meta.url).pathname;
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** What a command printed and how it ended. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end, never throwing for a non-zero exit: the caller looks at the code. */
export async function runCommand(file: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await execFileAsync(file, [...args], { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string; killed?: boolean };
    if (typeof failed.code !== "number") throw error;
    return { code: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/**
 * Packs the repository as `npm publish` would (its prepack script builds
 * `dist/` and the web UI), into `destination`; returns the tarball's path.
 */
export async function packRepository(destination: string): Promise<string> {
  const { stdout } = await execFileAsync(npm, ["pack", "--json", "--pack-destination", destination], { cwd: repositoryRoot, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 });
  // npm prints the build's own output before the JSON list of packed files.
  const listed = JSON.parse(stdout.slice(stdout.indexOf("[\n"))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return join(destination, listed[0]!.filename);
}

/** The paths inside a packed tarball. */
export async function tarballFiles(tarball: string): Promise<string[]> {
  const { stdout } = await execFileAsync("tar", ["-tzf", tarball]);
  return stdout.split("\n").filter(Boolean).map((path) => path.replace(/^package\//, ""));
}

/**
 * A new, empty ESM project in `dir` (as `npm init` would make one) with the
 * given packages installed from the tarball and the npm registry, as a user's
 * project gets them. `overrides` go into its package.json first, for packages
 * that install only with some of their dependencies pinned (`@google/adk`).
 */
export async function createProject(dir: string, packages: readonly string[], options: { overrides?: Record<string, string> } = {}): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const manifest = { name: "a-user-project", version: "1.0.0", private: true, type: "module", ...(options.overrides ? { overrides: options.overrides } : {}) };
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  await npmInstall(dir, packages);
}

/** `npm install` in a user's project, with the registry and nothing of the repository's own node_modules. */
export async function npmInstall(dir: string, packages: readonly string[]): Promise<void> {
  const result = await runCommand(npm, ["install", "--no-audit", "--no-fund", "--loglevel=error", ...packages], { cwd: dir, timeoutMs: 300_000 });
  if (result.code !== 0) throw new Error(`npm install ${packages.join(" ")} failed in ${dir}:\n${result.stderr}`);
}

/** Bytes under a folder, counting each file once (hard links and all). */
export function folderBytes(dir: string): number {
  let total = 0;
  const seen = new Set<number>();
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const info = statSync(full);
        if (seen.has(info.ino)) continue;
        seen.add(info.ino);
        total += info.size;
      }
    }
  };
  walk(dir);
  return total;
}

/** The packages in a project's node_modules (scoped ones as `@scope/name`). */
export function installedPackages(dir: string): string[] {
  const root = join(dir, "node_modules");
  const names: string[] = [];
  for (const entry of readdirSync(root)) {
    if (entry.startsWith(".")) continue;
    if (entry.startsWith("@")) for (const scoped of readdirSync(join(root, entry))) names.push(`${entry}/${scoped}`);
    else names.push(entry);
  }
  return names.sort();
}

/**
 * Every package installed in a project, nested copies included (a second
 * version of a package counts again), as `name@version`.
 */
export function allInstalledPackages(dir: string): string[] {
  const found: string[] = [];
  const visit = (modules: string) => {
    let entries: string[];
    try {
      entries = readdirSync(modules);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.startsWith(".")) continue;
      const folders = entry.startsWith("@") ? readdirSync(join(modules, entry)).map((scoped) => join(modules, entry, scoped)) : [join(modules, entry)];
      for (const folder of folders) {
        try {
          const { name, version } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { name: string; version: string };
          found.push(`${name}@${version}`);
        } catch {
          continue; // not a package (a stray folder)
        }
        visit(join(folder, "node_modules"));
      }
    }
  };
  visit(join(dir, "node_modules"));
  return found.sort();
}

/** A long-running command (a server) and what it has printed so far. */
export interface StartedCommand {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `pattern` in the output; rejects if the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Interrupts it (Ctrl-C) and resolves with its exit code. */
  stop(): Promise<number | null>;
}

/** Starts a command that keeps running until interrupted. */
export function startCommand(file: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): StartedCommand {
  const child = spawn(file, [...args], { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    output: () => output,
    waitFor: (pattern, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output);
          if (!match) return false;
          cleanup();
          resolve(match);
          return true;
        };
        const onData = () => check();
        const onExit = () => {
          if (!check()) {
            cleanup();
            reject(new Error(`exited before printing ${pattern}:\n${output}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`did not print ${pattern} within ${timeoutMs} ms:\n${output}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          child.stdout!.off("data", onData);
          child.stderr!.off("data", onData);
          child.off("exit", onExit);
        };
        child.stdout!.on("data", onData);
        child.stderr!.on("data", onData);
        child.once("exit", onExit);
        check();
      }),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
      return exited;
    },
  };
}

/** The `src` and `href` targets an HTML page references on its own server (no scheme, no protocol-relative URL). */
export function localAssets(html: string): string[] {
  const targets = [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
  return targets.filter((target) => !/^([a-z]+:|\/\/|#)/i.test(target));
}

/** toolsmith's version, from the repository's package.json. */
export function repositoryVersion(): string {
  return (JSON.parse(readFileSync(join(repositoryRoot, "package.json"), "utf8")) as { version: string }).version;
}

/** The README's first ```ts block under a heading. */
export function readmeBlock(heading: string): string {
  const readme = readFileSync(join(repositoryRoot, "README.md"), "utf8");
  const start = readme.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`README has no heading "${heading}"`);
  const open = readme.indexOf("```ts\n", start);
  return readme.slice(open + 6, readme.indexOf("\n```", open + 6) + 1);
}
