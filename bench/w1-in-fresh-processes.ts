/**
 * W1 with each framework in processes of its own. Measured once each in one shared process, the ratio to the floor
 * depended on chance: on this project's machine a process runs the same code at one of two speeds, about 1.6x apart,
 * for its whole life (the floor alone in a process read 0.65–0.75 µs a model turn in some processes and 1.05–1.33 in
 * others, 2026-11-28), and frameworks measured one after another in one process share the JIT's view of the code
 * they share (zod, the scripted model). Here every framework runs alone in a fresh process, `rounds` times, the
 * frameworks taking turns; each figure is the median of its processes' medians, printed with their range.
 *
 * Run as its own entry (bundled by `scripts/run-bundled.mjs`), it is one such process: it measures the framework
 * named on its command line and prints the figures as JSON.
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { adk } from "./adk-framework.js";
import { aiSdk } from "./ai-sdk-framework.js";
import { floor } from "./floor-framework.js";
import { leastAdk } from "./least-adk-framework.js";
import { startedAs } from "./started-as.js";
import { toolsmith } from "./toolsmith-framework.js";
import { overheadPerModelTurn, percentile, type Framework } from "./workloads.js";

/** The frameworks a process can measure, by the name given on its command line. */
const byKey: Record<string, Framework> = { floor, leastAdk, toolsmith, adk, aiSdk };

/** W1 of one process: as the target measures it (after 30 warm-up conversations), then in the steady state. */
export interface ProcessW1 {
  target: { median: number; p95: number };
  steady: { median: number; p95: number };
}

/** A framework's W1 over its processes: the median of their medians, and the smallest and largest of them. */
export interface W1AcrossProcesses {
  target: Spread;
  steady: Spread;
}

/** The median of some processes' figures, with the range they spanned. */
export interface Spread {
  median: number;
  least: number;
  most: number;
  processes: number;
}

/**
 * Measures each framework's W1 in `roundsOf(framework)` fresh processes, the frameworks taking turns round by round
 * (so that a slow spell of the machine falls on all of them), and returns the spread of each.
 */
export function w1InFreshProcesses(
  frameworks: readonly Framework[],
  options: { roundsOf: (framework: Framework) => number; runs: number; steadyWarmups: number },
): Map<Framework, W1AcrossProcesses> {
  const bundle = bundleThisFile();
  const measured = new Map<Framework, ProcessW1[]>(frameworks.map((framework) => [framework, []]));
  const rounds = Math.max(...frameworks.map(options.roundsOf));
  for (let round = 0; round < rounds; round++) {
    for (const framework of frameworks) {
      if (round >= options.roundsOf(framework)) continue;
      measured.get(framework)!.push(measureInProcess(bundle, keyOf(framework), options.runs, options.steadyWarmups));
    }
  }
  return new Map(
    frameworks.map((framework) => {
      const figures = measured.get(framework)!;
      return [framework, { target: spread(figures.map((figure) => figure.target.median)), steady: spread(figures.map((figure) => figure.steady.median)) }];
    }),
  );
}

/** The median of `values` with their range. */
export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) throw new Error("No process was measured.");
  return { median: percentile(sorted, 0.5), least: sorted[0]!, most: sorted[sorted.length - 1]!, processes: sorted.length };
}

function keyOf(framework: Framework): string {
  const key = Object.keys(byKey).find((name) => byKey[name] === framework);
  if (!key) throw new Error(`"${framework.name}" is not one of the frameworks a process can measure (${Object.keys(byKey).join(", ")}).`);
  return key;
}

/** Bundles this file as the package is built (see `scripts/run-bundled.mjs`) and returns the bundle's path. */
function bundleThisFile(): string {
  // Bundled or not, the module's URL is in bench/ (a bundle is written beside its entry).
  const benchFolder = dirname(fileURLToPath(import.meta.url));
  const built = spawnSync(process.execPath, [join(benchFolder, "..", "scripts", "run-bundled.mjs"), "--bundle-only", join(benchFolder, "w1-in-fresh-processes.ts")], { encoding: "utf8" });
  if (built.status !== 0) throw new Error(`Bundling bench/w1-in-fresh-processes.ts failed: ${built.stderr}`);
  return built.stdout.trim();
}

function measureInProcess(bundle: string, key: string, runs: number, steadyWarmups: number): ProcessW1 {
  const run = spawnSync(process.execPath, [bundle, key, String(runs), String(steadyWarmups)], { encoding: "utf8", maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`Measuring W1 of ${key} in a process of its own failed (exit ${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1)!) as ProcessW1;
}

if (startedAs("w1-in-fresh-processes")) {
  const [key = "", runs = "300", steadyWarmups = "1000"] = process.argv.slice(2);
  const framework = byKey[key];
  if (!framework) {
    console.error(`Usage: w1-in-fresh-processes <${Object.keys(byKey).join("|")}> [runs] [steady warm-ups]`);
    process.exit(2);
  }
  // The frameworks' own logging (ADK's) stays out of the figures' line.
  console.info = () => undefined;
  console.debug = () => undefined;
  const target = await overheadPerModelTurn(framework, Number(runs), 10);
  const steady = await overheadPerModelTurn(framework, Number(runs), 10, Number(steadyWarmups));
  console.log(JSON.stringify({ target, steady } satisfies ProcessW1));
}
