/**
 * This machine's Node (20) has no node:sqlite, so the storage suites that run
 * over each SQLite driver run a second time here, in vitest under Node 24 from
 * the npm registry. Under Node 24 the node:sqlite blocks run and the
 * better-sqlite3 ones skip (its addon is built for Node 20's ABI).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sqliteDriverAvailability } from "../../src/sqlite/index.js";
import { nodeBinary, runNode } from "../support/node-binary.js";
import { tempDir } from "../support/temp-dir.js";

const repositoryRoot = new URL("../../", import.meta.url).pathname;
const hereHasNodeSqlite = sqliteDriverAvailability()["node:sqlite"].available;
// When this Node has node:sqlite the suites already ran over it in this run.
const node24 = hereHasNodeSqlite ? undefined : nodeBinary(24);
const dir = tempDir();

interface VitestResults {
  numFailedTests: number;
  testResults: Array<{ name: string; assertionResults: Array<{ fullName: string; status: string }> }>;
}

describe.skipIf(!node24?.path)(`the SQLite suites under Node 24${hereHasNodeSqlite ? " (skipped: this Node runs them over node:sqlite itself)" : (node24?.skipped ?? "")}`, () => {
  it("pass over node:sqlite: session conformance, memory search with FTS5, bad files, driver choice", async () => {
    const output = join(dir, "results.json");
    const run = await runNode({
      node: node24!.path,
      args: ["node_modules/vitest/vitest.mjs", "run", "--config", "test/storage/node-sqlite.vitest.config.ts", "--reporter=json", `--outputFile=${output}`],
      cwd: repositoryRoot,
      timeoutMs: 240_000,
    });
    const results = JSON.parse(readFileSync(output, "utf8")) as VitestResults;
    const tests = results.testResults.flatMap((file) => file.assertionResults);
    const failed = tests.filter((test) => test.status === "failed").map((test) => test.fullName);
    expect(failed, run.stderr).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    const passed = (pattern: RegExp) => tests.filter((test) => test.status === "passed" && pattern.test(test.fullName)).length;
    // Counted, so that a suite skipped by mistake fails here rather than passing quietly: every test each conformance file defines.
    const defined = (file: string) => readFileSync(new URL(`../support/${file}`, import.meta.url), "utf8").match(/^ {4}it\(/gm)?.length;
    expect(passed(/SqliteSessionService over node:sqlite \(session service conformance\)/)).toBe(defined("session-service-conformance.ts"));
    expect(passed(/SqliteMemoryService over node:sqlite \(memory service conformance\)/)).toBe(defined("memory-service-conformance.ts"));
    expect(passed(/SQLite files toolsmith cannot use, over node:sqlite/)).toBe(6);
    expect(passed(/choosing a SQLite driver/)).toBe(5);
    expect(tests.filter((test) => test.status === "passed" && /over better-sqlite3/.test(test.fullName))).toEqual([]);
  }, 300_000);
});
