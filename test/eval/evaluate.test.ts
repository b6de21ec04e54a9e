/**
 * evaluate() on an eval set shaped as ADK's home automation fixtures,
 * replayed through the ScriptedModel: the scores are the ones ADK's
 * evaluators give on the same recorded responses (hand-computed below).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { criteriaFor, evaluate, formatJUnit, formatTable, parseCriteria, readEvalSetFile, reportToJson, type EvalProgress } from "../../src/eval/index.js";
import { FunctionModel, functionCallsResponse, lastFunctionResponse, ScriptedModel, textResponse } from "../../src/testing/index.js";
import { tempDir } from "../support/temp-dir.js";
import { homeAutomationAgent, recordedResponses } from "./home-automation.js";

const fixtures = new URL("./fixtures/home_automation/", import.meta.url).pathname;
const evalSetPath = join(fixtures, "simple.evalset.json");

describe("evaluate() on ADK's home automation eval set, replayed", () => {
  it("scores as ADK's evaluators do, with the criteria of the test_config.json beside the set", async () => {
    const model = recordedResponses();
    const progress: EvalProgress[] = [];
    const report = await evaluate({ agent: homeAutomationAgent(model), evalSets: [evalSetPath], onProgress: (event) => progress.push(event) });
    model.assertComplete();
    const [first, second] = report.cases;
    // Case 1: the same call and the same answer.
    expect(first!.metrics.map((metric) => [metric.metric, metric.threshold, metric.score, metric.passed])).toEqual([
      ["tool_trajectory_avg_score", 1, 1, true],
      ["response_match_score", 0.5, 1, true],
    ]);
    // Case 2: turn 1 matches (1), turn 2 calls set_device_info without its location (0): (1 + 0) / 2.
    // ROUGE-1 F: turn 1 = 14/16 (P 7/9, R 1), turn 2 = 0.4 (P 3/6, R 3/9); mean 0.6375.
    const [trajectory, response] = second!.metrics;
    expect(trajectory!.score).toBe(0.5);
    expect(trajectory!.passed).toBe(false);
    expect(response!.score).toBeCloseTo((0.875 + 0.4) / 2, 12);
    expect(response!.passed).toBe(true);
    expect(second!.passed).toBe(false);
    expect(report.passed).toBe(false);
    // The replay started the case's session as session_input says, and kept what the agent did.
    expect(second!.runs[0]!.userId).toBe("test_user");
    expect(second!.runs[0]!.invocations[1]!.intermediateData!.toolUses).toEqual([{ name: "set_device_info", args: { device_id: "device_3", status: "ON" } }]);
    expect(progress.map((event) => event.type)).toEqual(["case-start", "case-end", "case-start", "case-end"]);
  });

  it("passes case 2's trajectory under IN_ORDER only when the expected calls are there: here they are not, so still 0.5", async () => {
    const report = await evaluate({ agent: homeAutomationAgent(recordedResponses()), evalSets: [evalSetPath], criteria: parseCriteria({ criteria: { tool_trajectory_avg_score: { threshold: 0.5, match_type: "IN_ORDER" } } }) });
    expect(report.cases.map((result) => result.metrics[0]!.score)).toEqual([1, 0.5]);
    expect(report.passed).toBe(true);
  });

  it("reads the older .test.json format and scores it against the same agent", async () => {
    const model = new ScriptedModel([
      functionCallsResponse({ name: "set_device_info", args: { location: "Bedroom", device_id: "device_2", status: "OFF" } }),
      textResponse("I have set the device_2 status to off."),
      functionCallsResponse({ name: "get_device_info", args: { device_id: "device_3" } }),
      textResponse("device_3 in the Kitchen is off."),
    ]);
    const report = await evaluate({ agent: homeAutomationAgent(model), evalSets: [join(fixtures, "older_format.test.json")] });
    expect(report.cases).toHaveLength(1);
    expect(report.cases[0]!.metrics.map((metric) => metric.score)).toEqual([1, 1]);
    expect(report.passed).toBe(true);
  });

  it("runs a case several times and reports the mean and the spread of a model that is not deterministic", async () => {
    let calls = 0;
    // Every other run the model forgets the location: run scores 1, 0.5, 1 (three runs of the two-turn case).
    const model = new FunctionModel((request) => {
      if (lastFunctionResponse(request)) return textResponse(lastFunctionResponse(request)!.name === "get_device_info" ? "device_3 in the Kitchen is off." : "I have set the device_3 status to on.");
      calls++;
      if (calls % 2 === 1) return functionCallsResponse({ name: "get_device_info", args: { device_id: "device_3" } });
      const forgets = calls === 4;
      return functionCallsResponse({ name: "set_device_info", args: forgets ? { device_id: "device_3", status: "ON" } : { location: "Kitchen", device_id: "device_3", status: "ON" } });
    });
    const report = await evaluate({ agent: homeAutomationAgent(model), evalSets: [`${evalSetPath}:check_then_switch_on`], numRuns: 3 });
    const trajectory = report.cases[0]!.metrics[0]!;
    expect(trajectory.runScores).toEqual([1, 0.5, 1]);
    expect(trajectory.score).toBeCloseTo(5 / 6, 12);
    // Population standard deviation of 1, 0.5, 1: mean 5/6, deviations 1/6, 1/3, 1/6 → sqrt((1/36 + 1/9 + 1/36) / 3) = sqrt(1/18).
    expect(trajectory.stdDev).toBeCloseTo(Math.sqrt(1 / 18), 12);
    expect([trajectory.min, trajectory.max]).toEqual([0.5, 1]);
    expect(formatTable(report)).toMatch(/tool_trajectory_avg_score +0\.833 ±0\.236 \[0\.500–1\.000\] +1\.000 +FAIL/);
  });

  it("selects cases with a glob or substring filter, and refuses a case list naming a case the set lacks", async () => {
    const report = await evaluate({ agent: homeAutomationAgent(new ScriptedModel([functionCallsResponse({ name: "set_device_info", args: { location: "Bedroom", device_id: "device_2", status: "OFF" } }), textResponse("I have set the device_2 status to off.")])), evalSets: [evalSetPath], filter: "turn_off_*" });
    expect(report.cases.map((result) => result.evalId)).toEqual(["turn_off_bedroom_device"]);
    await expect(evaluate({ agent: homeAutomationAgent(new ScriptedModel([])), evalSets: [`${evalSetPath}:no_such_case`] })).rejects.toThrow("Eval set home_automation_simple has no case no_such_case. Its cases: turn_off_bedroom_device, check_then_switch_on.");
  });

  it("ends a turn whose model fails with the error recorded and the criteria failing, without throwing", async () => {
    const report = await evaluate({ agent: homeAutomationAgent(new ScriptedModel([new Error("model down")])), evalSets: [`${evalSetPath}:turn_off_bedroom_device`] });
    expect(report.passed).toBe(false);
    expect(report.cases[0]!.runs[0]!.invocations[0]!.error?.message).toContain("model down");
    expect(reportToJson(report).cases).toMatchObject([{ eval_id: "turn_off_bedroom_device", passed: false, runs: [{ errors: [{ turn: 1, message: expect.stringContaining("model down") }] }] }]);
  });
});

describe("criteria", () => {
  it("uses ADK's defaults without a test_config.json, and refuses unknown metrics and bad thresholds by name", async () => {
    const dir = tempDir();
    expect(await criteriaFor(join(dir, "x.evalset.json"))).toEqual([
      { metric: "tool_trajectory_avg_score", threshold: 1 },
      { metric: "response_match_score", threshold: 0.8 },
    ]);
    expect(() => parseCriteria({ criteria: { tool_trajectory_score: 1 } }, "cfg.json")).toThrow("cfg.json criteria.tool_trajectory_score: unknown metric. Metrics: tool_trajectory_avg_score, response_match_score,");
    expect(() => parseCriteria({ criteria: { response_match_score: "high" } })).toThrow('must be a threshold (a number) or {"threshold": …}');
    expect(() => parseCriteria({ tool_trajectory_avg_score: 1 })).toThrow('must hold {"criteria":');
    expect(() => parseCriteria({ criteria: { tool_trajectory_avg_score: { threshold: 1, match_type: "SOMETIMES" } } })).toThrow("match_type must be EXACT, IN_ORDER or ANY_ORDER");
    writeFileSync(join(dir, "test_config.json"), "{");
    await expect(criteriaFor(join(dir, "x.evalset.json"))).rejects.toMatchObject({ code: "EVAL_CONFIG_INVALID" });
  });

  it("reads ADK's criterion objects with judge options and rubrics, in either spelling", () => {
    expect(
      parseCriteria({
        criteria: {
          final_response_match_v2: { threshold: 0.8, judge_model_options: { judge_model: "gemini-2.5-flash", num_samples: 3 } },
          rubric_based_tool_use_quality_v1: { threshold: 1, judgeModelOptions: { judgeModel: "openai/gpt-4o" }, rubrics: [{ rubricId: "r", rubricContent: { textProperty: "Calls the tool once." } }] },
        },
      }),
    ).toEqual([
      { metric: "final_response_match_v2", threshold: 0.8, judgeModel: "gemini-2.5-flash", numSamples: 3 },
      { metric: "rubric_based_tool_use_quality_v1", threshold: 1, judgeModel: "openai/gpt-4o", rubrics: [{ rubricId: "r", text: "Calls the tool once." }] },
    ]);
  });
});

describe("reports", () => {
  it("writes JUnit XML with one test per case and metric and the trajectories in each failure, escaped", async () => {
    const set = await readEvalSetFile(evalSetPath);
    set.evalCases[0]!.evalId = 'off <"bedroom"> & more';
    const report = await evaluate({ agent: homeAutomationAgent(recordedResponses()), evalSets: [set], criteria: parseCriteria({ criteria: { tool_trajectory_avg_score: 1, response_match_score: 0.5 } }) });
    const xml = formatJUnit(report);
    expect(xml).toContain('<testsuites name="toolsmith eval" tests="4" failures="1"');
    expect(xml).toContain('name="off &lt;&quot;bedroom&quot;&gt; &amp; more tool_trajectory_avg_score"');
    expect(xml).toContain('<failure message="0.500 &lt; 1" type="tool_trajectory_avg_score">');
    expect(xml).toContain('actual tools:   [{&quot;name&quot;:&quot;set_device_info&quot;,&quot;args&quot;:{&quot;device_id&quot;:&quot;device_3&quot;,&quot;status&quot;:&quot;ON&quot;}}]');
    const table = formatTable(report);
    expect(table).toContain("1 of 2 case(s) passed.");
    expect(table).toMatch(/home_automation_simple\/check_then_switch_on +tool_trajectory_avg_score +0\.500 +1\.000 +FAIL/);
  });
});
