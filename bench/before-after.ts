/**
 * `npm run bench:before-after [-- --ref <commit>] [--quick]`: W1, W2 and W3
 * (see README.md) on toolsmith as it was at `ref` and as it is now, in one
 * run: each tree in child processes of its own, taking turns, so that drift
 * of the machine falls on both alike.
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
import { heapPerSession, overheadPerModelTurn, parallelWallTime, percentile, type Framework } from "./workloads.js";

const LAYERS_BASE = "e924bd8";
const refIndex = process.argv.indexOf("--ref");
const ref = refIndex > 0 ? process.argv[refIndex + 1]! : LAYERS_BASE;
const quick = process.argv.includes("--quick");
const rounds = quick ? 2 : 7;
const runs = quick ? 30 : 300;
const sessionCount = quick ? 500 : 2_000;
const repository = new URL("../", import.meta.url).pathname;

/** The tree at `ref`, unpacked beside this one, with this checkout's dependencies. */
function checkoutOf(commit: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "toolsmith-before-"));
  execFileSync("sh", ["-c", `git -C "${repository}" archive "${commit}" | tar -x -C "${dir}"`]);
  symlinkSync(join(repository, "node_modules"), join(dir, "node_modules"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const median = (values: number[]) => percentile([...values].sort((left, right) => left - right), 0.5);

/** What one child process measured on one tree. */
interface Figures {
  w1: number;
  w1p95: number;
  w2: number;
  w3: number;
}

/** In a child: measure the framework module given, print the figures as JSON. */
async function measureChild(frameworkModule: string): Promise<void> {
  const { toolsmith } = (await import(pathToFileURL(frameworkModule).href)) as { toolsmith: Framework };
  // Warm up, so module loading and the JIT fall outside the measurement.
  await overheadPerModelTurn(toolsmith, 10, 10);
  const w1 = await overheadPerModelTurn(toolsmith, runs, 10);
  const figures: Figures = { w1: w1.median, w1p95: w1.p95, w2: await parallelWallTime(toolsmith, 100, 10), w3: await heapPerSession(toolsmith, sessionCount) };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

/** Each tree is measured in processes of its own: in one process, code the two share (zod, Node's internals) would see both and favour neither fairly. */
function measureInChild(frameworkModule: string): Figures {
  const args = ["--expose-gc", "--import", "tsx", new URL(import.meta.url).pathname, "--child", frameworkModule, ...(quick ? ["--quick"] : [])];
  const output = execFileSync(process.execPath, args, { cwd: repository, encoding: "utf8" });
  return JSON.parse(output.trim().split("\n").at(-1)!) as Figures;
}

const childIndex = process.argv.indexOf("--child");
if (childIndex > 0) {
  await measureChild(process.argv[childIndex + 1]!);
} else {
  const old = checkoutOf(ref);
  try {
    const trees: Array<[string, string]> = [
      ["before", join(old.dir, "bench/toolsmith-framework.ts")],
      ["after", join(repository, "bench/toolsmith-framework.ts")],
    ];
    const figures = new Map<string, Figures[]>(trees.map(([name]) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      // Alternate which one goes first, so a trend in the machine favours neither.
      for (const [name, module] of round % 2 === 0 ? trees : [...trees].reverse()) figures.get(name)!.push(measureInChild(module));
    }
    const of = (name: string, key: keyof Figures) => median(figures.get(name)!.map((entry) => entry[key]));
    // The spread of the per-round ratios says how much of a difference is the machine's noise.
    const ratios = (key: keyof Figures) => figures.get("after")!.map((entry, round) => entry[key] / figures.get("before")![round]![key]).sort((left, right) => left - right);
    const row = (label: string, key: keyof Figures, digits = 1) => [
      label,
      of("before", key).toFixed(digits),
      of("after", key).toFixed(digits),
      (of("after", key) / of("before", key)).toFixed(2),
      `${ratios(key)[0]!.toFixed(2)}–${ratios(key).at(-1)!.toFixed(2)}`,
    ];
    console.log(`toolsmith at ${ref} (before) and at this checkout (after), each in its own process, median of ${rounds} rounds, Node ${process.version}, ${process.platform}/${process.arch}`);
    printTable([
      ["workload", "before", "after", "after / before", "range over rounds"],
      row(`W1 overhead per model turn, median (µs, ${runs} conversations)`, "w1"),
      row("W1 overhead per model turn, p95 (µs)", "w1p95"),
      row("W2 100 parallel 10 ms calls, wall (ms)", "w2"),
      row(`W3 heap per session (bytes, ${sessionCount} sessions)`, "w3", 0),
    ]);
  } finally {
    old.remove();
  }
}
