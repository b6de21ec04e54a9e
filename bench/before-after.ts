/**
 * `npm run bench:before-after [-- --ref <commit>] [--quick]`: W1, W2 and W3
 * (see README.md) on toolsmith as it was at `ref` and as it is now, in one
 * process, measured in turns so that drift of the machine falls on both alike.
 *
 * The old tree comes from `git archive` of `ref` into a temporary folder that
 * shares this checkout's node_modules; its own bench/toolsmith-framework.ts
 * drives its own src/. The default ref is the last commit before the layers
 * step (issue 13), which moved the agent core without meaning to change speed.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { printTable } from "./print-table.js";
import { toolsmith as current } from "./toolsmith-framework.js";
import { heapPerSession, overheadPerModelTurn, parallelWallTime, type Framework } from "./workloads.js";

const LAYERS_BASE = "e924bd8";
const refIndex = process.argv.indexOf("--ref");
const ref = refIndex > 0 ? process.argv[refIndex + 1]! : LAYERS_BASE;
const quick = process.argv.includes("--quick");
const rounds = quick ? 2 : 5;
const runs = quick ? 30 : 100;
const sessionCount = quick ? 500 : 2_000;
const repository = new URL("../", import.meta.url).pathname;

/** The tree at `ref`, unpacked beside this one, with this checkout's dependencies. */
function checkoutOf(commit: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "toolsmith-before-"));
  execFileSync("sh", ["-c", `git -C "${repository}" archive "${commit}" | tar -x -C "${dir}"`]);
  symlinkSync(join(repository, "node_modules"), join(dir, "node_modules"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)]!;

const old = checkoutOf(ref);
try {
  const before = (await import(pathToFileURL(join(old.dir, "bench/toolsmith-framework.ts")).href)) as { toolsmith: Framework };
  const frameworks: Array<[string, Framework]> = [
    ["before", before.toolsmith],
    ["after", current],
  ];
  const figures = new Map<string, { w1: number[]; w1p95: number[]; w2: number[]; w3: number[] }>(frameworks.map(([name]) => [name, { w1: [], w1p95: [], w2: [], w3: [] }]));
  // Warm both up once, so neither pays the module loading and the JIT inside a measurement.
  for (const [, framework] of frameworks) await overheadPerModelTurn(framework, 10, 10);
  for (let round = 0; round < rounds; round++) {
    // Alternate which one goes first, so a trend in the machine favours neither.
    const ordered = round % 2 === 0 ? frameworks : [...frameworks].reverse();
    for (const [name, framework] of ordered) {
      const entry = figures.get(name)!;
      const w1 = await overheadPerModelTurn(framework, runs, 10);
      entry.w1.push(w1.median);
      entry.w1p95.push(w1.p95);
      entry.w2.push(await parallelWallTime(framework, 100, 10));
      entry.w3.push(await heapPerSession(framework, sessionCount));
    }
  }
  const [b, a] = [figures.get("before")!, figures.get("after")!];
  const row = (label: string, beforeValue: number, afterValue: number, digits = 1) => [label, beforeValue.toFixed(digits), afterValue.toFixed(digits), (afterValue / beforeValue).toFixed(2)];
  console.log(`toolsmith at ${ref} (before) and at this checkout (after), median of ${rounds} rounds, Node ${process.version}, ${process.platform}/${process.arch}`);
  printTable([
    ["workload", "before", "after", "after / before"],
    row(`W1 overhead per model turn, median (µs, ${runs} conversations)`, median(b.w1), median(a.w1)),
    row("W1 overhead per model turn, p95 (µs)", median(b.w1p95), median(a.w1p95)),
    row("W2 100 parallel 10 ms calls, wall (ms)", median(b.w2), median(a.w2)),
    row(`W3 heap per session (bytes, ${sessionCount} sessions)`, median(b.w3), median(a.w3), 0),
  ]);
} finally {
  old.remove();
}
