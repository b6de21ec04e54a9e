/**
 * The options of evaluate() and defineEvalTests one by one, and the judge
 * metrics' edges: what each prompt shows the judge, rubrics without verdicts,
 * criteria files beside a set or named.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { criteriaFor, defineEvalTests, evaluate, parseCriteria, readCriteriaFile, scoreInvocations, type ActualInvocation, type EvalProgress, type EvalSet } from "../../src/eval/index.js";
import { hallucinationPrompt } from "../../src/eval/metrics/judge.js";
import { FunctionModel, ScriptedModel, textResponse } from "../../src/testing/index.js";
import { tempDir } from "../support/temp-dir.js";
import { homeAutomationAgent } from "./home-automation.js";

/** A set of cases that each expect the answer "ok" to their one message, with no tool calls. */
function okSet(evalSetId: string, ids: string[]): EvalSet {
  return {
    evalSetId,
    creationTimestamp: 0,
    evalCases: ids.map((evalId) => ({ evalId, creationTimestamp: 0, conversation: [{ invocationId: "", userContent: { role: "user", parts: [{ text: evalId }] }, finalResponse: { role: "model", parts: [{ text: "ok" }] }, intermediateData: { toolUses: [], intermediateResponses: [] }, creationTimestamp: 0 }] })),
  };
}

const okAgent = () => homeAutomationAgent(new FunctionModel(() => textResponse("ok")));

describe("evaluate() options", () => {
  it("filters with a predicate, reports progress per run with indexes, and scores sets in memory with ADK's default criteria", async () => {
    const progress: EvalProgress[] = [];
    const report = await evaluate({ agent: okAgent(), evalSets: [okSet("a", ["keep_1", "drop", "keep_2"]), okSet("b", ["keep_3"])], filter: (id) => id.startsWith("keep"), numRuns: 2, onProgress: (event) => progress.push(event) });
    expect(report.cases.map((result) => `${result.evalSetId}/${result.evalId}`)).toEqual(["a/keep_1", "a/keep_2", "b/keep_3"]);
    expect(report.cases[0]!.metrics.map((metric) => [metric.metric, metric.threshold, metric.score])).toEqual([
      ["tool_trajectory_avg_score", 1, 1],
      ["response_match_score", 0.8, 1],
    ]);
    const starts = progress.filter((event): event is Extract<EvalProgress, { type: "case-start" }> => event.type === "case-start");
    expect(starts.map((event) => [event.evalId, event.run, event.numRuns, event.index, event.total])).toEqual([
      ["keep_1", 1, 2, 0, 3],
      ["keep_1", 2, 2, 0, 3],
      ["keep_2", 1, 2, 1, 3],
      ["keep_2", 2, 2, 1, 3],
      ["keep_3", 1, 2, 2, 3],
      ["keep_3", 2, 2, 2, 3],
    ]);
    expect(progress.filter((event) => event.type === "case-end")).toHaveLength(3);
  });

  it("runs cases without session_input under the app name given, and each run in a session of its own", async () => {
    const report = await evaluate({ agent: okAgent(), evalSets: [okSet("a", ["one"])], appName: "my_app", numRuns: 3 });
    const sessions = report.cases[0]!.runs.map((run) => run.sessionId);
    expect(new Set(sessions).size).toBe(3);
    expect(report.cases[0]!.runs.every((run) => run.userId === "test_user_id")).toBe(true);
  });

  it("matches a substring filter anywhere in the id, and reports no cases (and passed) when nothing matches", async () => {
    const some = await evaluate({ agent: okAgent(), evalSets: [okSet("a", ["refund_big", "lookup", "small_refund"])], filter: "refund" });
    expect(some.cases.map((result) => result.evalId)).toEqual(["refund_big", "small_refund"]);
    const none = await evaluate({ agent: okAgent(), evalSets: [okSet("a", ["lookup"])], filter: "refund" });
    expect(none).toEqual({ passed: true, numRuns: 1, cases: [] });
  });
});

describe("defineEvalTests with a set in memory and criteria given", () => {
  it("defines a test per case that passes under the criteria given, not ADK's defaults", async () => {
    const defined: Array<{ name: string; run: () => Promise<void> }> = [];
    const agent = homeAutomationAgent(new FunctionModel(() => textResponse("ok then")));
    await defineEvalTests((name, run) => defined.push({ name, run }), { agent, evalSet: okSet("mem", ["a", "b"]), criteria: parseCriteria({ criteria: { response_match_score: 0.6 } }) });
    expect(defined.map((test) => test.name)).toEqual(["a", "b"]);
    // ROUGE-1 of "ok then" against "ok": P = 1/2, R = 1, F = 2/3 ≥ 0.6, under ADK's default 0.8 it would fail.
    await expect(defined[0]!.run()).resolves.toBeUndefined();
    const strict: Array<{ run: () => Promise<void> }> = [];
    await defineEvalTests((_name, run) => strict.push({ run }), { agent, evalSet: okSet("mem", ["a"]) });
    await expect(strict[0]!.run()).rejects.toThrow("response_match_score: 0.667 is below the threshold 0.8.");
  });
});

describe("criteria files", () => {
  it("reads the test_config.json beside a set, and a named file; says which file could not be read", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "test_config.json"), JSON.stringify({ criteria: { tool_trajectory_avg_score: { threshold: 0.5, match_type: "in_order" } } }));
    expect(await criteriaFor(join(dir, "x.evalset.json"))).toEqual([{ metric: "tool_trajectory_avg_score", threshold: 0.5, matchType: "IN_ORDER" }]);
    await expect(readCriteriaFile(join(dir, "missing.json"))).rejects.toThrow(`Could not read the criteria file ${join(dir, "missing.json")}:`);
    expect(() => parseCriteria({ criteria: { rubric_based_tool_use_quality_v1: { threshold: 1, rubrics: [{ rubric_id: "r" }] } } }, "c.json")).toThrow("c.json criteria.rubric_based_tool_use_quality_v1.rubrics[0] needs rubric_content.text_property");
    expect(() => parseCriteria({ criteria: { final_response_match_v2: { threshold: 1, judge_model_options: { num_samples: 0 } } } }, "c.json")).toThrow("num_samples must be a whole number of 1 or more");
    expect(() => parseCriteria({ criteria: { response_match_score: { match_type: "EXACT" } } }, "c.json")).toThrow("c.json criteria.response_match_score needs a numeric threshold, such as 0.8.");
  });
});

function turn(answer: string): ActualInvocation {
  return {
    invocationId: "i",
    userContent: { role: "user", parts: [{ text: "Weather in Paris?" }] },
    finalResponse: { role: "model", parts: [{ text: answer }] },
    intermediateData: { toolUses: [{ name: "get_weather_report", args: { city: "Paris" } }], intermediateResponses: [] },
    toolResponses: [{ name: "get_weather_report", response: { report: "sunny, 25 degrees" } }],
    creationTimestamp: 0,
  };
}

describe("judge metrics' edges", () => {
  it("shows the hallucination judge the user's message, the calls, their results and the answer", () => {
    const prompt = hallucinationPrompt({ userText: "Weather in Paris?", actualResponse: "Sunny, 25 degrees.", expectedResponse: "", actualToolUses: turn("").intermediateData!.toolUses, expectedToolUses: [], toolResponses: turn("").toolResponses });
    expect(prompt).toContain("User's message:\nWeather in Paris?");
    expect(prompt).toContain('- get_weather_report({"city":"Paris"})');
    expect(prompt).toContain('- get_weather_report → {"report":"sunny, 25 degrees"}');
    expect(prompt).toContain("Agent's answer:\nSunny, 25 degrees.");
  });

  it("refuses a rubric metric without rubrics, and notes rubrics the judge said nothing readable about", async () => {
    const judge = new ScriptedModel([textResponse('{"rubrics": [{"rubric_id": "names_city", "verdict": "yes"}]}')]);
    const rubrics = [{ rubricId: "names_city", text: "Names the city." }, { rubricId: "gives_temperature", text: "Gives the temperature." }];
    const [score] = await scoreInvocations({ metric: "rubric_based_final_response_quality_v1", threshold: 1, numSamples: 1, rubrics }, [turn("Paris is sunny.")], [turn("")], { judge: async () => judge });
    expect(score).toEqual({ score: 1, note: "1 rubric(s) got no readable verdict" });
    await expect(scoreInvocations({ metric: "rubric_based_final_response_quality_v1", threshold: 1 }, [turn("x")], [turn("")], { judge: async () => judge })).rejects.toThrow("rubric_based_final_response_quality_v1 needs rubrics:");
  });

  it("scores each invocation of a multi-turn case against its own expected turn", async () => {
    const scores = await scoreInvocations({ metric: "response_match_score", threshold: 0.5 }, [turn("sunny in Paris"), turn("rain")], [turn("sunny in Paris"), turn("snow")]);
    expect(scores).toEqual([{ score: 1 }, { score: 0 }]);
  });
});
