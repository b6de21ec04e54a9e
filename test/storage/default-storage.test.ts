/**
 * The one default store: SQLite in .toolsmith/toolsmith.db when a SQLite
 * driver works, otherwise memory with one printed line. The command-line
 * cases run the real `toolsmith` in a fresh folder, from a copy of this
 * project whose node_modules lacks better-sqlite3 (what a user who installed
 * only toolsmith has), under Node 20 and under Node 24. The bin runs the
 * sources (SOURCE_NODE_FLAGS); the packed package's own run is in
 * test/package.
 */
import { spawn } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_DATABASE_URI, defaultStorage, getText } from "../../src/index.js";
import { SqliteSessionService, sqliteDriverAvailability, type SqliteDriverAvailability } from "../../src/sqlite/index.js";
import { nodeBinary, runNode } from "../support/node-binary.js";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";
import { tempDir } from "../support/temp-dir.js";

const repositoryRoot = new URL("../../", import.meta.url).pathname;
const dir = tempDir();
const node24 = nodeBinary(24);
const hereHasNodeSqlite = sqliteDriverAvailability()["node:sqlite"].available;
const noNodeSqliteHere = hereHasNodeSqlite ? ` (skipped: ${process.version} has node:sqlite)` : "";

const works = { available: true } as const;
const notInstalled = { available: false, reason: "better-sqlite3 is not installed", fix: "npm install better-sqlite3" } as const;
const noNodeSqlite = { available: false, reason: "this Node (v20.19.0) has no node:sqlite", fix: "run Node 22.13+" } as const;

describe("defaultStorage", () => {
  it("is the SQLite file, with nothing to say, when either driver works", () => {
    const cases: SqliteDriverAvailability[] = [
      { "better-sqlite3": works, "node:sqlite": works },
      { "better-sqlite3": notInstalled, "node:sqlite": works },
      { "better-sqlite3": works, "node:sqlite": noNodeSqlite },
    ];
    for (const drivers of cases) expect(defaultStorage({ drivers })).toEqual({ uri: DEFAULT_DATABASE_URI });
  });

  it("is memory, with one line saying that sessions are lost, why, and how to keep them, when neither driver works", () => {
    expect(defaultStorage({ drivers: { "better-sqlite3": notInstalled, "node:sqlite": noNodeSqlite } })).toEqual({
      uri: "memory://",
      notice:
        "sessions are kept in memory and lost on exit: this Node (v20.19.0) has no node:sqlite and better-sqlite3 is not installed. To keep them, run Node 22.13+ or npm install better-sqlite3.",
    });
    const rebuild = { available: false, reason: "better-sqlite3 does not load on Node v20.19.0 (it was built for another Node)", fix: "npm rebuild better-sqlite3" } as const;
    expect(defaultStorage({ drivers: { "better-sqlite3": rebuild, "node:sqlite": noNodeSqlite } }).notice).toBe(
      "sessions are kept in memory and lost on exit: this Node (v20.19.0) has no node:sqlite and better-sqlite3 does not load on Node v20.19.0 (it was built for another Node). To keep them, run Node 22.13+ or npm rebuild better-sqlite3.",
    );
  });

  it("asks this process's drivers when none are given", () => {
    expect(defaultStorage()).toEqual({ uri: DEFAULT_DATABASE_URI }); // better-sqlite3 is installed here, and node:sqlite runs the Node 24 run
  });
});

/** A copy of this project (sources, bin, examples) whose node_modules holds everything but better-sqlite3. */
function projectWithoutBetterSqlite3(): string {
  const root = join(dir, "project");
  if (existsSync(root)) return root;
  for (const part of ["src", "bin", "examples"]) cpSync(join(repositoryRoot, part), join(root, part), { recursive: true });
  copyFileSync(join(repositoryRoot, "package.json"), join(root, "package.json"));
  mkdirSync(join(root, "node_modules"));
  for (const name of readdirSync(join(repositoryRoot, "node_modules"))) {
    if (name !== "better-sqlite3" && !name.startsWith(".")) symlinkSync(join(repositoryRoot, "node_modules", name), join(root, "node_modules", name));
  }
  return root;
}

/** `toolsmith run <weather agent> --replay` in a fresh working folder, with the given Node and its flags. */
async function toolsmithRun(options: { project: string; node?: string; nodeFlags?: string[]; cwd?: string; lines: string[]; extra?: string[] }) {
  const cwd = options.cwd ?? mkdtempSync(join(dir, "cwd-"));
  const replay = join(cwd, "replay.json");
  writeFileSync(replay, JSON.stringify(options.lines));
  // From the sources, as the suite tests the code as it stands (the copy has no dist/, and the package test rebuilds the repository's).
  const args = [...SOURCE_NODE_FLAGS, ...(options.nodeFlags ?? []), join(options.project, "bin", "toolsmith.mjs"), "run", join(options.project, "examples", "weather-sentiment"), "--replay", replay, ...(options.extra ?? [])];
  return { cwd, ...(await runNode({ node: options.node, args, cwd })) };
}

const notes = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("note: sessions"));
const sessionIdOf = (stdout: string) => /session (\S+) \(continue it later/.exec(stdout)![1]!;

describe("toolsmith in a project that installed only toolsmith", () => {
  it.skipIf(hereHasNodeSqlite)(`on Node 20 keeps sessions in memory and says so in one line${noNodeSqliteHere}`, async () => {
    const run = await toolsmithRun({ project: projectWithoutBetterSqlite3(), lines: ["weather in Paris"] });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("weather_sentiment_agent: The weather in Paris is sunny");
    expect(notes(run.stderr)).toEqual([
      `note: sessions are kept in memory and lost on exit: this Node (${process.version}) has no node:sqlite and better-sqlite3 is not installed. To keep them, run Node 22.13+ or npm install better-sqlite3.`,
    ]);
    expect(existsSync(join(run.cwd, ".toolsmith", "toolsmith.db"))).toBe(false);
  });

  it.skipIf(hereHasNodeSqlite)(`on Node 20 refuses an explicit sqlite:// URI with DRIVER_MISSING (exit 3), writing nothing${noNodeSqliteHere}`, async () => {
    const cwd = mkdtempSync(join(dir, "cwd-"));
    const path = join(cwd, "kept", "toolsmith.db");
    const run = await toolsmithRun({ project: projectWithoutBetterSqlite3(), cwd, lines: ["weather in Paris"], extra: ["--session-service-uri", `sqlite://${path}`] });
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      `toolsmith: ${path} needs a SQLite driver, and there is none here: this Node (${process.version}) has no node:sqlite and better-sqlite3 is not installed; nothing was written. To fix: run Node 22.13+ or npm install better-sqlite3.\n`,
    );
    expect(existsSync(join(cwd, "kept"))).toBe(false);
  });

  it.skipIf(hereHasNodeSqlite)(`on Node 20, toolsmith api-server prints the same one line at start${noNodeSqliteHere}`, async () => {
    const cwd = mkdtempSync(join(dir, "cwd-"));
    const project = projectWithoutBetterSqlite3();
    const child = spawn(process.execPath, [...SOURCE_NODE_FLAGS, join(project, "bin", "toolsmith.mjs"), "api-server", join(project, "examples"), "--port", "0"], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk) => {
          stdout += chunk;
          // The notes are written right after the line that gives the address.
          if (stdout.includes("API server at")) setTimeout(resolve, 300);
        });
        child.on("exit", (code) => reject(new Error(`api-server exited (${code}): ${stderr}`)));
      });
    } finally {
      child.kill("SIGINT");
    }
    expect(notes(stderr)).toEqual([expect.stringMatching(/^note: sessions are kept in memory and lost on exit: this Node \(v20\.\d+\.\d+\) has no node:sqlite and better-sqlite3 is not installed\./)]);
  });

  it.skipIf(!node24.path)(`on Node 24 keeps sessions in .toolsmith/toolsmith.db through node:sqlite, and a later run resumes them${node24.skipped}`, async () => {
    const project = projectWithoutBetterSqlite3();
    const first = await toolsmithRun({ project, node: node24.path, lines: ["weather in Paris"] });
    expect(first.code, first.stderr).toBe(0);
    expect(notes(first.stderr)).toEqual([]);
    expect(first.stderr).not.toMatch(/ExperimentalWarning/);
    const sessionId = sessionIdOf(first.stdout);
    const second = await toolsmithRun({ project, node: node24.path, cwd: first.cwd, lines: ["Sunny weather is good"], extra: ["--resume", sessionId] });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`session ${sessionId}`);
    // Read back here, through better-sqlite3: the same file, whichever driver wrote it.
    const stored = new SqliteSessionService({ path: join(first.cwd, ".toolsmith", "toolsmith.db"), driver: "better-sqlite3" });
    const session = await stored.getSession({ appName: "weather-sentiment", userId: "user", sessionId });
    await stored.close();
    expect(session!.events.filter((event) => event.author === "user").map((event) => getText(event.content))).toEqual(["weather in Paris", "Sunny weather is good"]);
  });

  it.skipIf(!node24.path)(`on Node 24 with node:sqlite turned off, says which flag to drop${node24.skipped}`, async () => {
    const run = await toolsmithRun({ project: projectWithoutBetterSqlite3(), node: node24.path, nodeFlags: ["--no-experimental-sqlite"], lines: ["weather in Paris"] });
    expect(run.code, run.stderr).toBe(0);
    expect(notes(run.stderr)).toEqual([
      `note: sessions are kept in memory and lost on exit: node:sqlite is turned off in this Node (${node24.path ? node24.version : ""}, --no-experimental-sqlite) and better-sqlite3 is not installed. To keep them, drop --no-experimental-sqlite or npm install better-sqlite3.`,
    ]);
    expect(existsSync(join(run.cwd, ".toolsmith", "toolsmith.db"))).toBe(false);
  });
});

describe("toolsmith/sqlite without better-sqlite3", () => {
  it("imports, and tells which driver is missing and how to get one", async () => {
    const script = `
      const sqlite = await import("./src/sqlite/index.ts");
      console.log(JSON.stringify({ availability: sqlite.sqliteDriverAvailability(), preferred: sqlite.preferredSqliteDriver() ?? null }));
    `;
    const run = await runNode({ args: ["--import", "tsx", "--input-type=module", "-e", script], cwd: projectWithoutBetterSqlite3() });
    expect(run.code, run.stderr).toBe(0);
    const { availability, preferred } = JSON.parse(run.stdout) as { availability: SqliteDriverAvailability; preferred: string | null };
    expect(availability["better-sqlite3"]).toEqual(notInstalled);
    expect(preferred).toBe(hereHasNodeSqlite ? "node:sqlite" : null);
  });
});

describe("toolsmith with better-sqlite3 installed", () => {
  it("keeps sessions in .toolsmith/toolsmith.db of the working folder and prints no note", async () => {
    const run = await toolsmithRun({ project: repositoryRoot, lines: ["weather in Paris"] });
    expect(run.code, run.stderr).toBe(0);
    expect(notes(run.stderr)).toEqual([]);
    const stored = new SqliteSessionService({ path: join(run.cwd, ".toolsmith", "toolsmith.db") });
    const session = await stored.getSession({ appName: "weather-sentiment", userId: "user", sessionId: sessionIdOf(run.stdout) });
    await stored.close();
    expect(getText(session!.events[0]!.content)).toBe("weather in Paris");
  });
});
