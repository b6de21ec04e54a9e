/**
 * bench/w1-in-fresh-processes.ts measures W1 with each framework alone in processes of its own: the figures come
 * from real child processes running the bundled benchmark, one per framework and round.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { floor } from "../../bench/floor-framework.js";
import { toolsmith } from "../../bench/toolsmith-framework.js";
import { spread, w1InFreshProcesses } from "../../bench/w1-in-fresh-processes.js";
import type { Framework } from "../../bench/workloads.js";

const repository = fileURLToPath(new URL("../../", import.meta.url));

describe("W1 in fresh processes", () => {
  it("measures each framework in as many processes as its rounds ask, taking the median of their medians with its range", () => {
    const rounds = new Map<Framework, number>([
      [floor, 1],
      [toolsmith, 3],
    ]);
    const measured = w1InFreshProcesses([floor, toolsmith], { roundsOf: (framework) => rounds.get(framework)!, runs: 5, steadyWarmups: 5 });
    for (const framework of [floor, toolsmith]) {
      const figures = measured.get(framework)!;
      for (const phase of [figures.target, figures.steady]) {
        expect(phase.processes).toBe(rounds.get(framework));
        expect(phase.least).toBeGreaterThan(0);
        expect(phase.least).toBeLessThanOrEqual(phase.median);
        expect(phase.median).toBeLessThanOrEqual(phase.most);
      }
    }
    expect(measured.get(floor)!.target.least).toBe(measured.get(floor)!.target.most);
  }, 120_000);

  it("refuses a framework no process can measure, naming those it can", () => {
    const unknown: Framework = { ...floor, name: "made up" };
    expect(() => w1InFreshProcesses([unknown], { roundsOf: () => 1, runs: 1, steadyWarmups: 1 })).toThrow(/"made up" is not one of the frameworks a process can measure \(floor, leastAdk, toolsmith, adk, aiSdk\)/);
  }, 60_000);

  it("takes the median of an odd count, the upper middle of an even one, and refuses none", () => {
    expect(spread([3, 1, 2])).toEqual({ median: 2, least: 1, most: 3, processes: 3 });
    expect(spread([4, 1, 3, 2])).toEqual({ median: 3, least: 1, most: 4, processes: 4 });
    expect(() => spread([])).toThrow("No process was measured.");
  });

  it("is one such process when run as its own entry, and says how to call it when the framework is unknown", () => {
    const built = spawnSync(process.execPath, [join(repository, "scripts", "run-bundled.mjs"), "--bundle-only", join(repository, "bench", "w1-in-fresh-processes.ts")], { encoding: "utf8" });
    expect(built.status).toBe(0);
    const bundle = built.stdout.trim();
    expect(bundle).toBe(join(repository, "bench", ".w1-in-fresh-processes.bundle.mjs"));
    expect(existsSync(bundle)).toBe(true);
    const measured = spawnSync(process.execPath, [bundle, "floor", "3", "3"], { encoding: "utf8" });
    expect(measured.status).toBe(0);
    const figures = JSON.parse(measured.stdout.trim()) as { target: { median: number; p95: number }; steady: { median: number; p95: number } };
    expect(figures.target.median).toBeGreaterThan(0);
    expect(figures.steady.p95).toBeGreaterThanOrEqual(figures.steady.median);
    const unknown = spawnSync(process.execPath, [bundle, "nobody"], { encoding: "utf8" });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("Usage: w1-in-fresh-processes <floor|leastAdk|toolsmith|adk|aiSdk> [runs] [steady warm-ups]");
  }, 60_000);
});
