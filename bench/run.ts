/**
 * `npm run bench`: toolsmith and @google/adk side by side in one process, each
 * with a scripted model, so the figures are framework time only; then the
 * toolsmith-only tables (model adapters, storage, built-in tools).
 *
 * Then the JSON Schema validators compared (bench/validators.ts) and the
 * packed package beside the Vercel AI SDK and @google/adk: import time and
 * installed size (bench/package.ts).
 *
 * `-- --quick` runs fewer iterations. Each table group can be run alone with
 * `-- --<group>-only` or left out with `-- --skip-<group>`, where the groups
 * are `frameworks` (W1 to W5, model adapters, storage), `builtin` (generating
 * its 50,000-file tree takes minutes), `validators` and `package` (both take a
 * few minutes: they run the suite's validation tests once per library, and
 * install three packages from the registry).
 */
import { adk } from "./adk-framework.js";
import { builtinToolsBench } from "./builtin-tools.js";
import { adkMcpTurns, toolsmithMcpTurns } from "./mcp-calls.js";
import { modelRows } from "./models.js";
import { packageRows } from "./package.js";
import { printTable } from "./print-table.js";
import { serverLoad } from "./server-load.js";
import { storageBenchmarks } from "./storage-workloads.js";
import { toolsmith } from "./toolsmith-framework.js";
import { compareValidators } from "./validators/compare.js";
import { heapPerSession, overheadPerModelTurn, parallelWallTime } from "./workloads.js";

const quick = process.argv.includes("--quick");
const GROUPS = ["frameworks", "builtin", "validators", "package"] as const;
const only = GROUPS.filter((group) => process.argv.includes(`--${group}-only`));
const runsGroup = (group: (typeof GROUPS)[number]) => (only.length ? only.includes(group) : !process.argv.includes(`--skip-${group}`));
const runs = quick ? 30 : 300;
const sessionCount = quick ? 500 : 5_000;
const fmt = (value: number, digits = 1) => value.toFixed(digits);

// Silence ADK's per-run info logging so it does not count against it as terminal I/O.
const log = console.log;
console.info = () => undefined;
console.debug = () => undefined;

if (runsGroup("frameworks")) {
  const rows: string[][] = [["workload", "toolsmith", "@google/adk", "ratio (adk / toolsmith)"]];
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

  const mcpTurns = quick ? 4 : 11; // few: ADK starts a server process for every call
  const w5t = await toolsmithMcpTurns(mcpTurns);
  const w5a = await adkMcpTurns(mcpTurns);
  rows.push([`W5 agent turn with one MCP stdio call, median (ms, ${mcpTurns - 1} turns)`, fmt(w5t.median, 2), fmt(w5a.median, 2), fmt(w5a.median / w5t.median)]);
  rows.push([`W5 agent turn with one MCP stdio call, p95 (ms)`, fmt(w5t.p95, 2), fmt(w5a.p95, 2), fmt(w5a.p95 / w5t.p95)]);

  // toolsmith only: the HTTP server under 200 concurrent /run_sse conversations (ADK's server is not comparable in-process).
  const w4 = await serverLoad({ concurrency: 200, rounds: quick ? 1 : 5 });
  if (w4.problems.length) throw new Error(`server load test found problems: ${w4.problems.slice(0, 3).join("; ")}`);
  rows.push([`W4 server, 200 concurrent /run_sse, runs/s (${w4.conversations} runs)`, fmt(w4.runsPerSecond), "-", "-"]);
  rows.push(["W4 server, 200 concurrent /run_sse, p95 latency (ms)", fmt(w4.p95Ms), "-", "-"]);
  printTable(rows, log);

  // Model adapters: toolsmith only (ADK has no counterpart to compare with).
  log("");
  printTable([["model adapters (local server)", "median", "p95"], ...(await modelRows(quick ? 100 : 300))], log);
  log("");
  printTable(await storageBenchmarks({ quick }), log);
}
if (runsGroup("builtin")) {
  log("");
  printTable(await builtinToolsBench({ quick }), log);
}
if (runsGroup("validators")) {
  log("");
  const { rows, failures } = await compareValidators({ quick });
  printTable(rows, log);
  for (const [label, failed] of failures) if (failed.length) log(`${label} fails: ${failed.join("; ")}`);
}
if (runsGroup("package")) {
  log("");
  printTable(await packageRows({ quick }), log);
}
log(`\nnode ${process.version}, ${process.platform}/${process.arch}`);
