/**
 * Real processes on both SQLite drivers: better-sqlite3 under this Node (20),
 * node:sqlite under Node 24 from the npm registry (see test/support/node-binary.ts).
 * Each worker opens the file afresh, as a restarted server would.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeBinary, runNode } from "../support/node-binary.js";
import { tempDir } from "../support/temp-dir.js";

const WORKER = "test/storage/workers/sqlite-file-worker.ts";
const repositoryRoot = new URL("../../", import.meta.url).pathname;
const node24 = nodeBinary(24);
const node22 = nodeBinary(22);
const dir = tempDir();

interface WorkerOutput {
  driver: string;
  node: string;
  state: Record<string, unknown>;
  said: string[];
  found: string[];
}

/** Runs the worker under `node` (this process's Node by default) with `--import tsx`, as a fresh process. */
async function worker(options: { node?: string; path: string; driver?: string; create?: boolean; say?: string; query: string }): Promise<WorkerOutput> {
  const { node, ...argument } = options;
  const run = await runNode({ node, args: ["--import", "tsx", WORKER, JSON.stringify(argument)], cwd: repositoryRoot });
  expect(run, run.stderr).toMatchObject({ code: 0 });
  return JSON.parse(run.stdout) as WorkerOutput;
}

describe("a session stored by one process is there after a restart", () => {
  it("over better-sqlite3, process after process", async () => {
    const path = join(dir, "restart-better.db");
    const first = await worker({ path, driver: "better-sqlite3", create: true, say: "I drink espresso every morning", query: "espresso" });
    expect(first).toMatchObject({ driver: "better-sqlite3", said: ["I drink espresso every morning"] });
    const second = await worker({ path, driver: "better-sqlite3", say: "My cat is called Miso", query: "cat" });
    const third = await worker({ path, query: "espresso morning" });
    expect(third.driver).toBe("better-sqlite3"); // unforced, this Node prefers the installed package
    expect(second.said).toEqual(["I drink espresso every morning", "My cat is called Miso"]);
    expect(third).toMatchObject({ state: { "user:name": "Ada", turns: 2, "by:better-sqlite3": true }, said: second.said, found: ["I drink espresso every morning"] });
  });

  it.skipIf(!node24.path)(`over node:sqlite under Node 24, process after process${node24.skipped}`, async () => {
    const path = join(dir, "restart-node.db");
    const first = await worker({ node: node24.path, path, driver: "node:sqlite", create: true, say: "I drink espresso every morning", query: "espresso" });
    expect(first).toMatchObject({ driver: "node:sqlite", node: expect.stringMatching(/^v24\./), said: ["I drink espresso every morning"], found: ["I drink espresso every morning"] });
    await worker({ node: node24.path, path, driver: "node:sqlite", say: "My cat is called Miso", query: "cat" });
    // Unforced: the better-sqlite3 in node_modules is built for Node 20 and does not load under 24, so node:sqlite is chosen.
    const third = await worker({ node: node24.path, path, query: "cats" });
    expect(third).toMatchObject({
      driver: "node:sqlite",
      state: { "user:name": "Ada", turns: 2, "by:node:sqlite": true },
      said: ["I drink espresso every morning", "My cat is called Miso"],
      found: ["My cat is called Miso"], // FTS5's Porter stemmer: "cats" finds "cat"
    });
  });
});

describe.skipIf(!node24.path)(`one file, both drivers${node24.skipped}`, () => {
  it("is written through better-sqlite3, extended through node:sqlite, and read back through better-sqlite3", async () => {
    const path = join(dir, "both.db");
    await worker({ path, driver: "better-sqlite3", create: true, say: "Book a table in Lisbon", query: "lisbon" });
    const underNode24 = await worker({ node: node24.path, path, driver: "node:sqlite", say: "Make it for two people", query: "lisbon table" });
    expect(underNode24).toMatchObject({ driver: "node:sqlite", said: ["Book a table in Lisbon", "Make it for two people"], found: ["Book a table in Lisbon"] });
    const back = await worker({ path, driver: "better-sqlite3", say: "At eight", query: "people" });
    expect(back).toMatchObject({
      driver: "better-sqlite3",
      state: { "user:name": "Ada", turns: 3, "by:better-sqlite3": true, "by:node:sqlite": true },
      said: ["Book a table in Lisbon", "Make it for two people", "At eight"],
      found: ["Make it for two people"],
    });
  });

  it("is created through node:sqlite and read through better-sqlite3 with the same schema", async () => {
    const path = join(dir, "created-by-node.db");
    await worker({ node: node24.path, path, driver: "node:sqlite", create: true, say: "Remind me about the dentist", query: "dentist" });
    const read = await worker({ path, driver: "better-sqlite3", query: "dentist" });
    expect(read).toMatchObject({ driver: "better-sqlite3", state: { turns: 1, "by:node:sqlite": true }, said: ["Remind me about the dentist"], found: ["Remind me about the dentist"] });
  });
});

describe.skipIf(!node22.path)(`node:sqlite on Node 22${node22.skipped}`, () => {
  it("opens a file without printing Node 22's ExperimentalWarning for SQLite, and lets other warnings through", async () => {
    const script = `
      const { SqliteSessionService } = await import("./src/sqlite/index.ts");
      const service = new SqliteSessionService({ path: ${JSON.stringify(join(dir, "node22.db"))}, driver: "node:sqlite" });
      await service.createSession({ appName: "a", userId: "u", sessionId: "s" });
      console.log(JSON.stringify({ node: process.version, events: (await service.getSession({ appName: "a", userId: "u", sessionId: "s" })).events.length }));
      await service.close();
      process.emitWarning("some other feature", "ExperimentalWarning");
    `;
    const run = await runNode({ node: node22.path, args: ["--import", "tsx", "--input-type=module", "-e", script], cwd: repositoryRoot });
    expect(run, run.stderr).toMatchObject({ code: 0 });
    expect(JSON.parse(run.stdout)).toEqual({ node: expect.stringMatching(/^v22\./), events: 0 });
    expect(run.stderr).not.toMatch(/SQLite is an experimental feature/);
    expect(run.stderr).toMatch(/ExperimentalWarning: some other feature/);
  });
});
