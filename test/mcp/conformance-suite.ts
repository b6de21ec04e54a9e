import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const suite = join(dirname(require.resolve("@modelcontextprotocol/conformance/package.json")), "dist", "index.js");

/** One scenario's outcome, as the suite's summary line (`✓ name: 3 passed, 0 failed`) gives it. */
export interface ScenarioOutcome {
  scenario: string;
  passedChecks: number;
  failedChecks: number;
  /** Checks the suite warns about (a SHOULD not met, a timing off); the suite's ✗ mark counts them as failures. */
  warnings: number;
}

/** Runs the MCP conformance suite (0.1.13) with a time limit; its result files go to a folder removed afterwards. */
export function runConformance(args: string[], timeoutMs = 150_000): Promise<string> {
  const outputDir = mkdtempSync(join(tmpdir(), "toolsmith-conformance-"));
  return new Promise((resolve) => {
    execFile(process.execPath, [suite, ...args, "-o", outputDir], { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (_error, stdout, stderr) => {
      rmSync(outputDir, { recursive: true, force: true });
      resolve(`${stdout}\n${stderr}`);
    });
  });
}

/** The scenarios of a summary, each with its check counts. */
export function scenarioOutcomes(output: string): ScenarioOutcome[] {
  return [...output.matchAll(/^[✓✗] ([\w/.-]+): (\d+) passed, (\d+) failed(?:, (\d+) warnings)?/gmu)].map((match) => ({
    scenario: match[1]!,
    passedChecks: Number(match[2]),
    failedChecks: Number(match[3]),
    warnings: Number(match[4] ?? 0),
  }));
}

/** The outcome of a run of one scenario (`--scenario`), which prints `Passed: 3/3, 0 failed, 0 warnings`. */
export function singleScenarioOutcome(scenario: string, output: string): ScenarioOutcome {
  const match = /Passed: (\d+)\/(\d+), (\d+) failed(?:, (\d+) warnings)?/.exec(output);
  if (!match) return { scenario, passedChecks: 0, failedChecks: 1, warnings: 0 };
  return { scenario, passedChecks: Number(match[1]), failedChecks: Number(match[3]), warnings: Number(match[4] ?? 0) };
}

/** A scenario passes when it ran at least one check and none failed. */
export function passed(outcome: ScenarioOutcome): boolean {
  return outcome.failedChecks === 0 && outcome.passedChecks > 0;
}

/**
 * One line for the test log: `server: 31/32 scenarios pass; failing: a; warnings: b`. A scenario passes when
 * it ran checks and none failed; warnings are listed apart (the suite's own ✗ mark also counts them).
 */
export function figuresLine(side: string, outcomes: ScenarioOutcome[]): string {
  const failing = outcomes.filter((outcome) => !passed(outcome)).map((outcome) => outcome.scenario);
  const warned = outcomes.filter((outcome) => outcome.warnings > 0).map((outcome) => `${outcome.scenario} (${outcome.warnings})`);
  const checks = outcomes.reduce((sum, outcome) => sum + outcome.passedChecks, 0);
  return (
    `MCP conformance 0.1.13, ${side}: ${outcomes.length - failing.length}/${outcomes.length} scenarios pass (${checks} checks passed)` +
    (failing.length ? `; failing: ${failing.join(", ")}` : "") +
    (warned.length ? `; warnings: ${warned.join(", ")}` : "")
  );
}
