/**
 * `toolsmith eval`: the table, the exit codes, the JSON and JUnit reports,
 * progress on stderr, --filter, --config, --num-runs, and the errors a user
 * sees for bad input. Most run the CLI in this process; one spawns the real
 * bin script.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";
import { tempDir } from "../support/temp-dir.js";
import { cli } from "./cli-harness.js";

const execFileAsync = promisify(execFile);
const AGENT = "examples/weather-sentiment/agent.ts";
const SET = "examples/weather-sentiment/weather_sentiment.evalset.json";

/** A copy of the example set where the London case expects Paris: its trajectory must fail. No test_config.json is beside it, so ADK's default criteria apply (response match 0.8: London's 0.75 fails too). */
function wrongExpectation(dir: string): string {
  const set = JSON.parse(readFileSync(SET, "utf8")) as { eval_cases: Array<{ eval_id: string; conversation: Array<{ intermediate_data: { tool_uses: Array<{ args: Record<string, unknown> }> } }> }> };
  set.eval_cases[1]!.conversation[0]!.intermediate_data.tool_uses[0]!.args = { city: "Paris" };
  const path = join(dir, "wrong.evalset.json");
  writeFileSync(path, JSON.stringify(set));
  return path;
}

describe("toolsmith eval", () => {
  it("exits 5 when a criterion falls below its threshold, and writes the JSON and JUnit reports (the real bin)", async () => {
    const dir = tempDir();
    const wrong = wrongExpectation(dir);
    const failure = await execFileAsync(process.execPath, [...SOURCE_NODE_FLAGS, "bin/toolsmith.mjs", "eval", AGENT, wrong, "--json", join(dir, "out/report.json"), "--junit", join(dir, "out/junit.xml")], { timeout: 60_000 }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect("code" in failure && failure.code).toBe(5);
    expect(failure.stdout).toMatch(/weather_sentiment\/london_weather +tool_trajectory_avg_score +0\.000 +1\.000 +FAIL/);
    expect(failure.stdout).toMatch(/weather_sentiment\/london_weather +response_match_score +0\.750 +0\.800 +FAIL/);
    expect(failure.stdout).toContain("1 of 2 case(s) passed.");
    expect(failure.stderr).toContain("[2/2] FAILED weather_sentiment/london_weather");
    const report = JSON.parse(readFileSync(join(dir, "out/report.json"), "utf8")) as { passed: boolean; cases: Array<{ eval_id: string; metrics: Array<{ metric_name: string; score: number }>; runs: Array<{ conversation: Array<{ intermediate_data: unknown }> }> }> };
    expect(report.passed).toBe(false);
    expect(report.cases[1]!.metrics[0]).toMatchObject({ metric_name: "tool_trajectory_avg_score", score: 0 });
    expect(report.cases[1]!.runs[0]!.conversation[0]!.intermediate_data).toEqual({ tool_uses: [{ name: "get_weather_report", args: { city: "London" } }], intermediate_responses: [] });
    const junit = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(join(dir, "out/junit.xml"), "utf8")) as { testsuites: { "@_tests": string; "@_failures": string; testsuite: { testcase: Array<{ "@_name": string; failure?: { "#text": string } }> } } };
    expect([junit.testsuites["@_tests"], junit.testsuites["@_failures"]]).toEqual(["4", "2"]);
    const failed = junit.testsuites.testsuite.testcase.filter((testcase) => testcase.failure);
    expect(failed.map((testcase) => testcase["@_name"])).toEqual(["london_weather tool_trajectory_avg_score", "london_weather response_match_score"]);
    expect(failed[0]!.failure!["#text"]).toContain('expected tools: [{"name":"get_weather_report","args":{"city":"Paris"}}]');
  });

  it("runs only the cases --filter matches, and the cases a set names after a colon", async () => {
    const filtered = await cli(["eval", AGENT, SET, "--filter", "london"]);
    expect(filtered.code).toBe(0);
    expect(filtered.stdout).not.toContain("paris_then_feedback");
    expect(filtered.stdout).toContain("1 of 1 case(s) passed.");
    const named = await cli(["eval", AGENT, `${SET}:paris_then_feedback`]);
    expect(named.stdout).not.toContain("london_weather");
    const none = await cli(["eval", AGENT, SET, "--filter", "tokyo*"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("No eval case matched --filter tokyo*.");
  });

  it("takes criteria from --config (ADK's --config_file_path too) instead of the test_config.json beside the set", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "strict.json"), JSON.stringify({ criteria: { response_match_score: 0.9 } }));
    const strict = await cli(["eval", AGENT, SET, "--config", join(dir, "strict.json")]);
    expect(strict.code).toBe(5);
    expect(strict.stdout).toMatch(/london_weather +response_match_score +0\.750 +0\.900 +FAIL/);
    expect(strict.stdout).not.toContain("tool_trajectory_avg_score");
    const adk = await cli(["eval", AGENT, SET, `--config_file_path=${join(dir, "strict.json")}`]);
    expect(adk.code).toBe(5);
  });

  it("runs each case --num-runs times and shows the spread; --print-detailed-results shows what failed", async () => {
    const dir = tempDir();
    const result = await cli(["eval", AGENT, wrongExpectation(dir), "--num-runs", "2", "--print-detailed-results"]);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain("[1/2] weather_sentiment/paris_then_feedback (run 2/2)…");
    expect(result.stdout).toMatch(/london_weather +tool_trajectory_avg_score +0\.000 ±0\.000 \[0\.000–0\.000\] +1\.000 +FAIL/);
    expect(result.stdout).toContain("(2 runs each; score ±standard deviation [lowest–highest run])");
    expect(result.stdout).toContain('  actual tools:   [{"name":"get_weather_report","args":{"city":"London"}}]');
  });

  it("says what to do for a missing eval set, a bad --num-runs, a bad config or no eval set at all", async () => {
    const missing = await cli(["eval", AGENT, "nowhere.evalset.json"]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/^toolsmith: Could not read the eval set nowhere\.evalset\.json: .*Name an \.evalset\.json or \.test\.json file\./);
    const runs = await cli(["eval", AGENT, SET, "--num-runs", "two"]);
    expect(runs.code).toBe(2);
    expect(runs.stderr).toBe('toolsmith: --num-runs takes a whole number of 1 or more, not "two".\n');
    const dir = tempDir();
    writeFileSync(join(dir, "bad.json"), JSON.stringify({ criteria: { trajectory: 1 } }));
    const config = await cli(["eval", AGENT, SET, "--config", join(dir, "bad.json")]);
    expect(config.code).toBe(3);
    expect(config.stderr).toContain("criteria.trajectory: unknown metric. Metrics: tool_trajectory_avg_score, response_match_score, final_response_match_v2");
    const bare = await cli(["eval", AGENT]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("Name the agent and at least one eval set: toolsmith eval agents/home.ts tests/home.evalset.json");
    const judge = await cli(["eval", AGENT, SET, "--config", join(dir, "judge.json")].slice(0, 3).concat(["--config", writeJudgeConfig(dir)]));
    expect(judge.code).toBe(3);
    expect(judge.stderr).toContain("final_response_match_v2 needs a judge model: name one with --judge-model");
  });

  it("takes ADK's snake_case spellings, --json=FILE, and options before the command", async () => {
    const dir = tempDir();
    const result = await cli(["--verbose", "eval", AGENT, wrongExpectation(dir), "--num_runs", "2", "--print_detailed_results", `--json=${join(dir, "r.json")}`]);
    expect(result.code).toBe(5);
    expect(result.stdout).toContain("(2 runs each;");
    expect(result.stdout).toContain("  expected answer: It is cloudy in London, 18 degrees Celsius, with a chance of rain.");
    expect((JSON.parse(readFileSync(join(dir, "r.json"), "utf8")) as { num_runs: number }).num_runs).toBe(2);
    // Other commands keep --json as a switch.
    const tools = await cli(["tools", AGENT, "--json"]);
    expect(tools.code).toBe(0);
    expect(() => JSON.parse(tools.stdout) as unknown).not.toThrow();
  });

  it("stops with exit code 130 when interrupted, writing no report", async () => {
    const dir = tempDir();
    const interrupt = new AbortController();
    interrupt.abort();
    const result = await cli(["eval", AGENT, SET, "--junit", join(dir, "j.xml")], [], { interrupt: interrupt.signal });
    expect(result.code).toBe(130);
    expect(existsSync(join(dir, "j.xml"))).toBe(false);
  });

  it("is listed in toolsmith --help and explains itself with --help", async () => {
    expect((await cli(["--help"])).stdout).toContain("eval <agent> <evalset...> Score an agent on ADK eval sets");
    const help = await cli(["eval", "--help"]);
    expect(help.stdout).toContain("Usage: toolsmith eval <agent> <evalset...>");
    expect(help.stdout).toContain("--junit FILE");
  });
});

function writeJudgeConfig(dir: string): string {
  const path = join(dir, "judge.json");
  writeFileSync(path, JSON.stringify({ criteria: { final_response_match_v2: 0.8 } }));
  return path;
}

describe("toolsmith eval with several sets", () => {
  it("scores each set with the test_config.json beside it, in one table and one exit code", async () => {
    const dir = tempDir();
    const strictDir = join(dir, "strict");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(strictDir);
    const set = JSON.parse(readFileSync(SET, "utf8")) as { eval_set_id: string };
    set.eval_set_id = "strict_copy";
    writeFileSync(join(strictDir, "strict.evalset.json"), JSON.stringify(set));
    writeFileSync(join(strictDir, "test_config.json"), JSON.stringify({ criteria: { response_match_score: 0.9 } }));
    const result = await cli(["eval", AGENT, SET, join(strictDir, "strict.evalset.json")]);
    expect(result.code).toBe(5);
    // The example's own config (0.6) for the first set, the strict one (0.9, no trajectory criterion) for the copy.
    expect(result.stdout).toMatch(/weather_sentiment\/london_weather +response_match_score +0\.750 +0\.600 +PASS/);
    expect(result.stdout).toMatch(/strict_copy\/london_weather +response_match_score +0\.750 +0\.900 +FAIL/);
    expect(result.stdout).not.toMatch(/strict_copy\/\S+ +tool_trajectory_avg_score/);
    expect(result.stdout).toContain("3 of 4 case(s) passed.");
    expect(result.stderr).toContain("[4/4] FAILED strict_copy/london_weather");
  });
});
