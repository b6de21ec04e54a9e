/**
 * ADK's eval endpoints: a conversation saved as an eval case, listed, read,
 * replaced, deleted, run with chosen metrics, and its result stored, in the
 * paths and JSON of ADK's dev server.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FunctionModel, functionCallsResponse, lastFunctionResponse, lastUserText, textResponse } from "../../src/testing/index.js";
import { homeAutomationAgent } from "../eval/home-automation.js";
import { inlineApi } from "./inline-api.js";

/** The home automation agent answering by rules; `careless` forgets the room when it switches a device. */
function rulesModel(options: { careless?: boolean } = {}) {
  return new FunctionModel((request) => {
    const result = lastFunctionResponse(request);
    if (result) return textResponse(result.name === "get_device_info" ? `device_3 is ${String(result.response.status).toLowerCase()}.` : "Done, it is off.");
    const text = lastUserText(request) ?? "";
    if (/status/i.test(text)) return functionCallsResponse({ name: "get_device_info", args: { device_id: "device_3" } });
    return functionCallsResponse({ name: "set_device_info", args: options.careless ? { device_id: "device_2", status: "OFF" } : { location: "Bedroom", device_id: "device_2", status: "OFF" } });
  });
}

async function talk(call: (path: string, init?: RequestInit & { json?: unknown }) => Response | Promise<Response>, sessionId: string, messages: string[]) {
  await call(`/apps/home/users/u1/sessions/${sessionId}`, { json: {} });
  for (const text of messages) {
    const response = await call("/run", { json: { appName: "home", userId: "u1", sessionId, newMessage: { role: "user", parts: [{ text }] } } });
    expect(response.status).toBe(200);
  }
}

describe("eval endpoints", () => {
  it("saves a session as an eval case with its tool calls and final answers as the expectation, stored as ADK stores it", async () => {
    const { call, json, loader } = await inlineApi({ home: homeAutomationAgent(rulesModel()) });
    await talk(call, "s1", ["Turn off device_2 in the Bedroom.", "What is the status of device_3?"]);
    expect((await json("/apps/home/eval_sets/smoke", { method: "POST" })).status).toBe(200);
    expect((await json("/apps/home/eval_sets")).body).toEqual(["smoke"]);
    expect((await json("/apps/home/eval_sets/smoke/add_session", { json: { eval_id: "turn_off", session_id: "s1", user_id: "u1" } })).status).toBe(200);
    expect((await json("/apps/home/eval_sets/smoke/evals")).body).toEqual(["turn_off"]);
    const evalCase = (await json("/apps/home/eval_sets/smoke/evals/turn_off")).body;
    expect(evalCase.sessionInput).toEqual({ appName: "home", userId: "u1", state: {} });
    expect(evalCase.conversation.map((turn: any) => [turn.userContent.parts[0].text, turn.intermediateData.toolUses, turn.finalResponse.parts[0].text])).toEqual([
      ["Turn off device_2 in the Bedroom.", [{ name: "set_device_info", args: { location: "Bedroom", device_id: "device_2", status: "OFF" } }], "Done, it is off."],
      ["What is the status of device_3?", [{ name: "get_device_info", args: { device_id: "device_3" } }], "device_3 is off."],
    ]);
    const file = JSON.parse(readFileSync(join(loader.agentsDir, "home", "smoke.evalset.json"), "utf8"));
    expect(Object.keys(file)).toEqual(["eval_set_id", "name", "description", "eval_cases", "creation_timestamp"]);
    expect(file.eval_cases[0].conversation[0].intermediate_data.tool_uses[0].args).toEqual({ location: "Bedroom", device_id: "device_2", status: "OFF" });
  });

  it("runs the cases with the metrics asked for, answers ADK's RunEvalResult JSON, and stores the result in eval_history", async () => {
    const agents = { home: homeAutomationAgent(rulesModel()) };
    const { call, json, loader } = await inlineApi(agents);
    await talk(call, "s1", ["Turn off device_2 in the Bedroom."]);
    await json("/apps/home/eval_sets/smoke", { method: "POST" });
    await json("/apps/home/eval_sets/smoke/add_session", { json: { evalId: "turn_off", sessionId: "s1", userId: "u1" } });
    const passing = await json("/apps/home/eval_sets/smoke/run_eval", { json: { eval_ids: [], eval_metrics: [{ metric_name: "tool_trajectory_avg_score", threshold: 1 }, { metric_name: "response_match_score", threshold: 0.8 }] } });
    expect(passing.status).toBe(200);
    expect(passing.body).toHaveLength(1);
    expect(passing.body[0]).toMatchObject({
      evalSetId: "smoke",
      evalId: "turn_off",
      finalEvalStatus: 1,
      overallEvalMetricResults: [
        { metricName: "tool_trajectory_avg_score", threshold: 1, score: 1, evalStatus: 1 },
        { metricName: "response_match_score", threshold: 0.8, score: 1, evalStatus: 1 },
      ],
    });
    expect(passing.body[0].evalMetricResultPerInvocation[0].expectedInvocation.intermediateData.toolUses[0].name).toBe("set_device_info");

    // The agent changes: it forgets the room. The same case now fails its trajectory, shown beside the expected one.
    agents.home = homeAutomationAgent(rulesModel({ careless: true }));
    const failing = await json("/apps/home/eval_sets/smoke/run_eval", { json: { evalIds: ["turn_off"], evalMetrics: [{ metricName: "tool_trajectory_avg_score", threshold: 1, criterion: { threshold: 1, match_type: "ANY_ORDER" } }] } });
    const [result] = failing.body;
    expect(result.finalEvalStatus).toBe(2);
    expect(result.overallEvalMetricResults).toEqual([{ metricName: "tool_trajectory_avg_score", threshold: 1, score: 0, evalStatus: 2 }]);
    const [turn] = result.evalMetricResultPerInvocation;
    expect(turn.actualInvocation.intermediateData.toolUses).toEqual([{ name: "set_device_info", args: { device_id: "device_2", status: "OFF" } }]);
    expect(turn.expectedInvocation.intermediateData.toolUses).toEqual([{ name: "set_device_info", args: { location: "Bedroom", device_id: "device_2", status: "OFF" } }]);

    const results = (await json("/apps/home/eval_results")).body as string[];
    expect(results).toHaveLength(2);
    expect(results[0]).toMatch(/^home_smoke_\d+_\d{3}$/);
    const stored = (await json(`/apps/home/eval_results/${results[1]}`)).body;
    expect(stored).toMatchObject({ evalSetId: "smoke", evalCaseResults: [{ evalId: "turn_off", finalEvalStatus: 2 }] });
    expect(existsSync(join(loader.agentsDir, "home", ".adk", "eval_history", `${results[0]}.evalset_result.json`))).toBe(true);
  });

  it("replaces and deletes a case, refusing a body whose eval id differs from the path", async () => {
    const { call, json } = await inlineApi({ home: homeAutomationAgent(rulesModel()) });
    await talk(call, "s1", ["Turn off device_2 in the Bedroom."]);
    await json("/apps/home/eval_sets/smoke", { method: "POST" });
    await json("/apps/home/eval_sets/smoke/add_session", { json: { eval_id: "turn_off", session_id: "s1", user_id: "u1" } });
    const evalCase = (await json("/apps/home/eval_sets/smoke/evals/turn_off")).body;
    evalCase.conversation[0].finalResponse.parts[0].text = "It is off.";
    expect((await json("/apps/home/eval_sets/smoke/evals/turn_off", { method: "PUT", json: evalCase })).status).toBe(200);
    expect((await json("/apps/home/eval_sets/smoke/evals/turn_off")).body.conversation[0].finalResponse.parts[0].text).toBe("It is off.");
    const mismatch = await json("/apps/home/eval_sets/smoke/evals/turn_off", { method: "PUT", json: { ...evalCase, evalId: "other" } });
    expect(mismatch).toMatchObject({ status: 400, body: { error: "Eval id in EvalCase should match the eval id in the API route." } });
    expect((await json("/apps/home/eval_sets/smoke/evals/turn_off", { method: "DELETE" })).status).toBe(200);
    expect((await json("/apps/home/eval_sets/smoke/evals")).body).toEqual([]);
  });

  it("answers bad requests with what to do, and two cases saved at once both stay", async () => {
    const { call, json } = await inlineApi({ home: homeAutomationAgent(rulesModel()) });
    expect((await json("/apps/home/eval_sets/../../etc", { method: "POST" })).status).toBe(404);
    expect((await json("/apps/home/eval_sets/bad-id!", { method: "POST" })).body).toEqual({ code: "EVAL_SET_INVALID", error: 'Invalid eval set id "bad-id!": use letters, digits and underscores only, as ADK requires, at most 200 of them.' });
    // Longer than a file name may be: refused as an id, where it failed the server with ENAMETOOLONG (found by test/server/api-fuzz.test.ts).
    expect((await json(`/apps/home/eval_sets/${"a".repeat(3000)}`, { method: "POST" })).body).toEqual({ code: "EVAL_SET_INVALID", error: "Invalid eval set id a string of 3000 characters: use letters, digits and underscores only, as ADK requires, at most 200 of them." });
    await json("/apps/home/eval_sets/smoke", { method: "POST" });
    expect((await json("/apps/home/eval_sets/smoke", { method: "POST" })).body).toEqual({ code: "EVAL_SET_EXISTS", error: "Eval set smoke already exists for app home." });
    expect((await json("/apps/home/eval_sets/none/evals")).body).toEqual({ code: "EVAL_SET_NOT_FOUND", error: "Eval set none not found for app home. Sets: smoke." });
    expect((await json("/apps/home/eval_sets/smoke/add_session", { json: { eval_id: "x", session_id: "missing", user_id: "u1" } })).status).toBe(404);
    expect((await json("/apps/home/eval_sets/smoke/run_eval", { json: { eval_metrics: [{ metric_name: "tool_trajectory_score", threshold: 1 }] } })).body.error).toContain("eval_metrics criteria.tool_trajectory_score: unknown metric.");
    // A metric named __proto__ is a name like any other, not the criteria record's prototype.
    expect((await json("/apps/home/eval_sets/smoke/run_eval", { json: { eval_metrics: JSON.parse('[{"metric_name": "__proto__", "threshold": 1}]') as unknown } })).body.error).toContain("eval_metrics criteria.__proto__: unknown metric.");
    expect((await json("/apps/home/eval_sets/smoke/run_eval", { json: { eval_ids: ["ghost"] } })).body).toEqual({ code: "EVAL_CASE_NOT_FOUND", error: "Eval set smoke has no case ghost." });
    expect((await json("/apps/ghost/eval_sets")).status).toBe(404);
    await talk(call, "a", ["Turn off device_2 in the Bedroom."]);
    await talk(call, "b", ["What is the status of device_3?"]);
    const saved = await Promise.all(["a", "b"].map((id) => json("/apps/home/eval_sets/smoke/add_session", { json: { eval_id: `case_${id}`, session_id: id, user_id: "u1" } })));
    expect(saved.map((response) => response.status)).toEqual([200, 200]);
    expect((await json("/apps/home/eval_sets/smoke/evals")).body).toEqual(["case_a", "case_b"]);
    const again = await json("/apps/home/eval_sets/smoke/add_session", { json: { eval_id: "case_a", session_id: "a", user_id: "u1" } });
    expect(again.body).toEqual({ code: "EVAL_SET_EXISTS", error: "Eval set smoke already has a case case_a: choose another eval id." });
  });
});

describe("eval endpoints under attack", () => {
  it("refuses to save a session whose model sent a __proto__ argument, saying which case and what to do, and the stored set stays readable and unchanged", async () => {
    // The model's call is stored in the session as it came; the tool itself refused it. The eval set reader refuses such a key, so the writer must too.
    const model = new FunctionModel((request) =>
      lastFunctionResponse(request) ? textResponse("Done.") : functionCallsResponse({ name: "get_device_info", args: JSON.parse('{"device_id": "device_3", "__proto__": {"polluted": true}}') as Record<string, unknown> }),
    );
    const { call, json, loader } = await inlineApi({ home: homeAutomationAgent(model) });
    await talk(call, "s1", ["What is the status of device_3?"]);
    await json("/apps/home/eval_sets/smoke", { method: "POST" });
    const path = join(loader.agentsDir, "home", "smoke.evalset.json");
    const before = readFileSync(path, "utf8");
    const refused = await json("/apps/home/eval_sets/smoke/add_session", { json: { eval_id: "hostile", session_id: "s1", user_id: "u1" } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: "EVAL_SET_INVALID", error: "Eval case hostile cannot be saved: its args field __proto__ is not allowed as a field name. Remove that field from the case, or leave out the turn that holds it." });
    expect(readFileSync(path, "utf8")).toBe(before);
    expect((await json("/apps/home/eval_sets/smoke/evals")).body).toEqual([]);
  });

  it("in bearer-token mode saves only the token's own sessions, answering another user's with the 404 of a missing one", async () => {
    const { json } = await inlineApi({ home: homeAutomationAgent(rulesModel()) }, { tokens: { alice_token: "alice", bob_token: "bob" } });
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    await json("/apps/home/users/bob/sessions/bob_s", { json: {}, headers: as("bob_token") });
    await json("/run", { json: { appName: "home", userId: "bob", sessionId: "bob_s", newMessage: { role: "user", parts: [{ text: "Turn off device_2" }] } }, headers: as("bob_token") });
    expect((await json("/apps/home/eval_sets/smoke", { method: "POST" })).status).toBe(401);
    expect((await json("/apps/home/eval_sets/smoke", { method: "POST", headers: as("alice_token") })).status).toBe(200);
    const stolen = await json("/apps/home/eval_sets/smoke/add_session", { json: { eval_id: "stolen", session_id: "bob_s", user_id: "bob" }, headers: as("alice_token") });
    expect(stolen).toMatchObject({ status: 404, body: { code: "NOT_FOUND", error: "Session not found." } });
    const own = await json("/apps/home/eval_sets/smoke/add_session", { json: { eval_id: "bobs", session_id: "bob_s", user_id: "bob" }, headers: as("bob_token") });
    expect(own.status).toBe(200);
    expect((await json("/apps/home/eval_sets/smoke/evals", { headers: as("alice_token") })).body).toEqual(["bobs"]);
  });

  it("answers any body sent to add_session, run_eval and the case update with a 4xx saying what is wrong, never a 500, and keeps the stored set (600 generated bodies)", async () => {
    const { call, json, loader } = await inlineApi({ home: homeAutomationAgent(rulesModel()) });
    await talk(call, "s1", ["Turn off device_2 in the Bedroom."]);
    await json("/apps/home/eval_sets/smoke", { method: "POST" });
    await json("/apps/home/eval_sets/smoke/add_session", { json: { eval_id: "keep", session_id: "s1", user_id: "u1" } });
    const before = readFileSync(join(loader.agentsDir, "home", "smoke.evalset.json"), "utf8");
    const fc = (await import("fast-check")).default;
    const statuses = new Map<number, number>();
    const hostile = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record({ eval_id: fc.oneof(fc.string(), fc.integer(), fc.constant("keep")), session_id: fc.oneof(fc.string(), fc.constant("s1")), user_id: fc.oneof(fc.string(), fc.constant("u1")) }, { requiredKeys: [] }),
      fc.record({ eval_ids: fc.oneof(fc.array(fc.string(), { maxLength: 2 }), fc.jsonValue()), eval_metrics: fc.oneof(fc.array(fc.record({ metric_name: fc.constantFrom("tool_trajectory_avg_score", "bogus", ""), threshold: fc.oneof(fc.double(), fc.string()) }), { maxLength: 2 }), fc.jsonValue()) }, { requiredKeys: [] }),
      fc.record({ conversation: fc.jsonValue({ maxDepth: 3 }), eval_id: fc.constantFrom("keep", "other", "") }, { requiredKeys: [] }),
    );
    const targets = ["/apps/home/eval_sets/smoke/add_session", "/apps/home/eval_sets/smoke/run_eval", "/apps/home/eval_sets/smoke/evals/ghost"];
    await fc.assert(
      fc.asyncProperty(hostile, fc.constantFrom(...targets.keys()), async (body, target) => {
        const response = await call(targets[target]!, { method: target === 2 ? "PUT" : "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status).toBeLessThan(500);
        if (response.status >= 400) expect(((await response.json()) as { error: string }).error.length).toBeGreaterThan(10);
      }),
      { numRuns: 600 },
    );
    console.log(`eval endpoint fuzz: 600 bodies, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    const after = JSON.parse(readFileSync(join(loader.agentsDir, "home", "smoke.evalset.json"), "utf8"));
    // Only valid new cases could have been added: the case stored first is unchanged.
    expect(after.eval_cases[0]).toEqual(JSON.parse(before).eval_cases[0]);
  }, 120_000);
});

describe("the examples' eval set over the API", () => {
  it("is listed for the weather app as toolsmith web serves it, and its cases pass when run with its own thresholds", async () => {
    // A copy of the example app, so the run's stored result lands in a temporary folder, not the checkout.
    const { cpSync, mkdirSync, mkdtempSync, symlinkSync, readdirSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const root = mkdtempSync(join(tmpdir(), "toolsmith-eval-example-"));
    mkdirSync(join(root, "node_modules"));
    symlinkSync(new URL("../../", import.meta.url).pathname, join(root, "node_modules", "toolsmith"), "dir");
    cpSync("examples/weather-sentiment", join(root, "agents", "weather-sentiment"), { recursive: true });
    const { exampleApi } = await import("./helpers.js");
    const { call } = await exampleApi({ agentsDir: join(root, "agents") });
    expect(await (await call("/apps/weather-sentiment/eval_sets")).json()).toEqual(["weather_sentiment"]);
    expect(await (await call("/apps/weather-sentiment/eval_sets/weather_sentiment/evals")).json()).toEqual(["london_weather", "paris_then_feedback"]);
    const run = await call("/apps/weather-sentiment/eval_sets/weather_sentiment/run_eval", { json: { eval_ids: ["london_weather"], eval_metrics: [{ metric_name: "tool_trajectory_avg_score", threshold: 1 }, { metric_name: "response_match_score", threshold: 0.6 }] } });
    const [result] = (await run.json()) as Array<{ finalEvalStatus: number; overallEvalMetricResults: Array<{ score: number }> }>;
    expect(result!.finalEvalStatus).toBe(1);
    // ROUGE-1 F of the London report against the set's answer: 2 × 12 / (19 + 13).
    expect(result!.overallEvalMetricResults.map((metric) => metric.score)).toEqual([1, expect.closeTo(0.75, 12)]);
    expect(readdirSync(join(root, "agents", "weather-sentiment", ".adk", "eval_history"))).toHaveLength(1);
    rmSync(root, { recursive: true, force: true });
  });
});
