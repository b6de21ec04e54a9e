/**
 * The report formats: ADK's RunEvalResult and EvalSetResult JSON, the table,
 * JUnit XML that any text keeps well-formed, and the JSON report whose
 * conversations read back as ADK eval cases.
 */
import { join } from "node:path";
import fc from "fast-check";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { EVAL_STATUS, evalSetResultJson, runEvalResultJson } from "../../src/eval/adk-results.js";
import { evaluate, formatJUnit, formatTable, parseCriteria, parseEvalCase, reportToJson, type EvalCaseResult, type EvalReport } from "../../src/eval/index.js";
import { ScriptedModel, textResponse } from "../../src/testing/index.js";
import { homeAutomationAgent, recordedResponses } from "./home-automation.js";

const evalSetPath = join(new URL("./fixtures/home_automation/", import.meta.url).pathname, "simple.evalset.json");

async function replayedReport(): Promise<EvalReport> {
  return evaluate({ agent: homeAutomationAgent(recordedResponses()), evalSets: [evalSetPath] });
}

function caseResult(evalId: string, metrics: Array<{ metric: string; score?: number; threshold: number }>): EvalCaseResult {
  return {
    evalSetId: "set",
    evalId,
    passed: metrics.every((metric) => metric.score !== undefined && metric.score >= metric.threshold),
    metrics: metrics.map((metric) => ({ ...metric, runScores: [metric.score], stdDev: 0, perInvocation: [[metric.score === undefined ? { note: "unread" } : { score: metric.score }]], passed: metric.score !== undefined && metric.score >= metric.threshold })),
    expected: [{ invocationId: "e", userContent: { role: "user", parts: [{ text: "hi" }] }, finalResponse: { role: "model", parts: [{ text: "hello" }] }, creationTimestamp: 0 }],
    runs: [{ sessionId: "s", userId: "u", invocations: [{ invocationId: "a", userContent: { role: "user", parts: [{ text: "hi" }] }, finalResponse: { role: "model", parts: [{ text: "hey" }] }, intermediateData: { toolUses: [], intermediateResponses: [] }, toolResponses: [], creationTimestamp: 0 }] }],
    durationMs: 12,
  };
}

describe("ADK's result JSON", () => {
  it("answers a case as ADK's RunEvalResult: statuses 1/2/3, overall and per-invocation metric results", async () => {
    const report = await replayedReport();
    const json = runEvalResultJson(report.cases[1]!);
    expect(Object.keys(json)).toEqual(["evalSetFile", "evalSetId", "evalId", "finalEvalStatus", "overallEvalMetricResults", "evalMetricResultPerInvocation", "userId", "sessionId"]);
    expect(json.finalEvalStatus).toBe(EVAL_STATUS.FAILED);
    expect(json.overallEvalMetricResults).toEqual([
      { metricName: "tool_trajectory_avg_score", threshold: 1, score: 0.5, evalStatus: 2 },
      { metricName: "response_match_score", threshold: 0.5, score: expect.closeTo(0.6375, 12), evalStatus: 1 },
    ]);
    const perInvocation = json.evalMetricResultPerInvocation as Array<{ actualInvocation: Record<string, unknown>; evalMetricResults: Array<{ score: number; evalStatus: number }> }>;
    expect(perInvocation.map((turn) => turn.evalMetricResults.map((metric) => metric.evalStatus))).toEqual([
      [1, 1],
      [2, 2],
    ]);
    // What only toolsmith keeps (tool results, errors) stays out of ADK's invocation shape.
    expect(Object.keys(perInvocation[0]!.actualInvocation)).toEqual(["invocationId", "userContent", "finalResponse", "intermediateData", "creationTimestamp"]);
    expect(runEvalResultJson(caseResult("unread", [{ metric: "final_response_match_v2", threshold: 0.5 }])).overallEvalMetricResults).toEqual([{ metricName: "final_response_match_v2", threshold: 0.5, evalStatus: EVAL_STATUS.NOT_EVALUATED }]);
  });

  it("names a stored result as ADK does, <app>_<set>_<seconds with the dot replaced>, without the deprecated eval_set_file", () => {
    const result = evalSetResultJson("home", "smoke", [caseResult("c", [{ metric: "response_match_score", score: 1, threshold: 0.8 }])], 1764115200123);
    expect(result.evalSetResultId).toBe("home_smoke_1764115200_123");
    expect(result).toMatchObject({ evalSetResultName: "home_smoke_1764115200_123", evalSetId: "smoke", creationTimestamp: 1764115200.123 });
    expect((result.evalCaseResults as Array<Record<string, unknown>>)[0]).not.toHaveProperty("evalSetFile");
  });
});

describe("the table", () => {
  it("aligns its columns to the longest cell and ends with the count of cases passed", async () => {
    const table = formatTable(await replayedReport());
    const lines = table.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^case +metric +score +threshold +result$/);
    expect(lines[1]).toMatch(/^-+ {2}-+ {2}-+ {2}-+ {2}-+$/);
    const resultColumn = lines[0]!.indexOf("result");
    for (const row of lines.slice(2, 6)) expect(row.slice(resultColumn)).toMatch(/^(PASS|FAIL)$/);
    expect(lines.at(-1)).toBe("1 of 2 case(s) passed.");
  });

  it("shows an unscored metric as a dash", () => {
    const report: EvalReport = { passed: false, numRuns: 1, cases: [caseResult("c", [{ metric: "hallucinations_v1", threshold: 0.5 }])] };
    expect(formatTable(report)).toMatch(/set\/c +hallucinations_v1 +— +0\.500 +FAIL/);
  });
});

describe("JUnit XML", () => {
  it("stays well-formed whatever text the cases, answers and ids hold (1,000 generated reports)", () => {
    const parser = new XMLParser({ ignoreAttributes: false });
    let failures = 0;
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), fc.string({ unit: "binary", maxLength: 30 }), fc.boolean(), (evalId, answer, setId, pass) => {
        const result = caseResult(evalId, [{ metric: "response_match_score", score: pass ? 1 : 0.1, threshold: 0.8 }]);
        result.evalSetId = setId;
        result.runs[0]!.invocations[0]!.finalResponse = { role: "model", parts: [{ text: answer }] };
        const xml = formatJUnit({ passed: pass, numRuns: 1, cases: [result] });
        expect(XMLValidator.validate(xml)).toBe(true);
        const parsed = parser.parse(xml) as { testsuites: { "@_failures": string } };
        failures += Number(parsed.testsuites["@_failures"]);
        expect(parsed.testsuites["@_failures"]).toBe(pass ? "0" : "1");
      }),
      { numRuns: 1000 },
    );
    console.log(`JUnit fuzz: 1000 reports well-formed, ${failures} with a failure element`);
  });

  it("groups cases into one suite per eval set with per-suite counts", async () => {
    const report = await replayedReport();
    const other = caseResult("extra", [{ metric: "response_match_score", score: 1, threshold: 0.8 }]);
    const xml = formatJUnit({ ...report, cases: [...report.cases, other] });
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml) as { testsuites: { testsuite: Array<{ "@_name": string; "@_tests": string; "@_failures": string }> } };
    expect(parsed.testsuites.testsuite.map((suite) => [suite["@_name"], suite["@_tests"], suite["@_failures"]])).toEqual([
      ["home_automation_simple", "4", "1"],
      ["set", "1", "0"],
    ]);
  });
});

describe("the JSON report", () => {
  it("carries scores, spread and per-turn scores, and each run's conversation reads back as an ADK eval case", async () => {
    const json = reportToJson(await replayedReport()) as { passed: boolean; num_runs: number; cases: Array<{ metrics: Array<Record<string, unknown>>; runs: Array<{ conversation: unknown[] }>; expected: unknown[] }> };
    expect(json).toMatchObject({ passed: false, num_runs: 1 });
    expect(json.cases[1]!.metrics[0]).toMatchObject({ metric_name: "tool_trajectory_avg_score", score: 0.5, run_scores: [0.5], std_dev: 0, min: 0.5, max: 0.5, per_invocation: [[{ score: 1 }, { score: 0 }]], passed: false });
    const actual = await parseEvalCase({ eval_id: "actual", conversation: json.cases[1]!.runs[0]!.conversation });
    expect(actual.conversation.map((turn) => turn.intermediateData?.toolUses)).toEqual([[{ name: "get_device_info", args: { device_id: "device_3" } }], [{ name: "set_device_info", args: { device_id: "device_3", status: "ON" } }]]);
    const expected = await parseEvalCase({ eval_id: "expected", conversation: json.cases[1]!.expected });
    expect(expected.conversation[1]!.intermediateData!.toolUses[0]!.args).toEqual({ location: "Kitchen", device_id: "device_3", status: "ON" });
  });
});

describe("criteria under fuzzing", () => {
  it("turns any JSON into criteria or an EvalError naming the file, never another exception (2,000 inputs)", () => {
    const figures = { parsed: 0, refused: 0 };
    const metric = fc.constantFrom("tool_trajectory_avg_score", "response_match_score", "final_response_match_v2", "rubric_based_tool_use_quality_v1", "hallucinations_v1", "bogus", "__proto__");
    const value = fc.oneof(fc.double(), fc.jsonValue({ maxDepth: 3 }), fc.record({ threshold: fc.oneof(fc.double(), fc.string()), match_type: fc.oneof(fc.constantFrom("EXACT", "in_order", "ANY_ORDER", "SOMETIMES"), fc.integer()), judge_model_options: fc.record({ judge_model: fc.string(), num_samples: fc.oneof(fc.integer({ min: -2, max: 6 }), fc.double()) }), rubrics: fc.jsonValue({ maxDepth: 3 }) }, { requiredKeys: [] }));
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.dictionary(metric, value, { maxKeys: 3 }).map((criteria) => ({ criteria }))), (input) => {
        try {
          const criteria = parseCriteria(input, "cfg.json");
          figures.parsed++;
          for (const criterion of criteria) expect(Number.isFinite(criterion.threshold)).toBe(true);
        } catch (error) {
          figures.refused++;
          expect((error as { code?: string }).code).toBe("EVAL_CONFIG_INVALID");
          expect((error as Error).message.startsWith("cfg.json")).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
    console.log(`criteria fuzz: ${figures.parsed} read, ${figures.refused} refused with EVAL_CONFIG_INVALID`);
  });
});

describe("judge metrics through evaluate()", () => {
  it("asks the judge model named in code, per invocation and sample, and fails the criterion when the judge says invalid", async () => {
    const judge = new ScriptedModel([textResponse('{"is_the_agent_response_valid": "valid"}'), textResponse('{"is_the_agent_response_valid": "invalid"}'), textResponse('{"is_the_agent_response_valid": "invalid"}')]);
    const agent = homeAutomationAgent(new ScriptedModel([textResponse("I have set the device_2 status to off.")]));
    const set = { evalSetId: "j", creationTimestamp: 0, evalCases: [{ evalId: "c", creationTimestamp: 0, conversation: [{ invocationId: "", userContent: { role: "user", parts: [{ text: "Turn off device_2." }] }, finalResponse: { role: "model", parts: [{ text: "device_2 is now off." }] }, creationTimestamp: 0 }] }] };
    const report = await evaluate({ agent, evalSets: [set], criteria: parseCriteria({ criteria: { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 3 } } } }), judgeModel: judge });
    judge.assertComplete();
    expect(report.cases[0]!.metrics[0]).toMatchObject({ metric: "final_response_match_v2", score: 0, passed: false });
    expect(judge.requests[0]!.contents[0]!.parts![0]!.text).toContain("Agent's answer:\nI have set the device_2 status to off.");
  });

  it("refuses a judge metric when no judge model is named anywhere, before running the agent twice for nothing", async () => {
    const agent = homeAutomationAgent(new ScriptedModel([textResponse("ok")]));
    const set = { evalSetId: "j", creationTimestamp: 0, evalCases: [{ evalId: "c", creationTimestamp: 0, conversation: [{ invocationId: "", userContent: { role: "user", parts: [{ text: "hi" }] }, creationTimestamp: 0 }] }] };
    await expect(evaluate({ agent, evalSets: [set], criteria: parseCriteria({ criteria: { hallucinations_v1: 0.9 } }) })).rejects.toThrow("hallucinations_v1 needs a judge model");
    await expect(evaluate({ agent, evalSets: [set], numRuns: 0 })).rejects.toThrow("numRuns must be a whole number of 1 or more, not 0.");
  });
});
