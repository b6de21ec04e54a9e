/**
 * `npm run bench`: toolsmith and @google/adk side by side in one process, each
 * with a scripted model, so the figures are framework time only.
 */
import { adk } from "./adk-framework.js";
import { builtinToolsBench } from "./builtin-tools.js";
import { toolsmith } from "./toolsmith-framework.js";
import { heapPerSession, overheadPerModelTurn, parallelWallTime } from "./workloads.js";

const quick = process.argv.includes("--quick");
// `npm run bench -- --builtin-only` runs only the built-in tools' figures; `--skip-builtin` leaves them out.
const builtinOnly = process.argv.includes("--builtin-only");
const skipBuiltin = process.argv.includes("--skip-builtin");
const runs = quick ? 30 : 300;
const sessionCount = quick ? 500 : 5_000;
const rows: string[][] = [["workload", "toolsmith", "@google/adk", "ratio (adk / toolsmith)"]];
const fmt = (value: number, digits = 1) => value.toFixed(digits);

// Silence ADK's per-run info logging so it does not count against it as terminal I/O.
const log = console.log;
const quiet = () => { console.info = () => undefined; console.debug = () => undefined; };
quiet();

function printTable(table: string[][]) {
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  for (const row of table) log(row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd());
}

if (!builtinOnly) {
  const w1t = await overheadPerModelTurn(toolsmith, runs, 10);
  const w1a = await overheadPerModelTurn(adk, runs, 10);
  rows.push([`W1 overhead per model turn, median (µs, ${runs} runs)`, fmt(w1t.median), fmt(w1a.median), fmt(w1a.median / w1t.median)]);
  rows.push([`W1 overhead per model turn, p95 (µs)`, fmt(w1t.p95), fmt(w1a.p95), fmt(w1a.p95 / w1t.p95)]);

  const w2t = await parallelWallTime(toolsmith, 100, 10);
  const w2a = await parallelWallTime(adk, 100, 10);
  rows.push(["W2 100 parallel 10 ms calls, wall (ms)", fmt(w2t), fmt(w2a), fmt(w2a / w2t)]);

  const w3t = await heapPerSession(toolsmith, sessionCount);
  const w3a = await heapPerSession(adk, sessionCount);
  rows.push([`W3 heap per session (bytes, ${sessionCount} sessions)`, fmt(w3t, 0), fmt(w3a, 0), fmt(w3a / w3t)]);

  printTable(rows);
}
if (!skipBuiltin) {
  if (!builtinOnly) log("");
  printTable(await builtinToolsBench({ quick }));
}
log(`\nnode ${process.version}, ${process.platform}/${process.arch}`);
