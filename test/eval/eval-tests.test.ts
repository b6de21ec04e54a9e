/**
 * defineEvalTests: each eval case becomes a vitest test. The first block is
 * the helper used as a developer would, with vitest's own `it`; the second
 * captures the tests it defines to show what a failing case reports.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defineEvalTests } from "../../src/eval/index.js";
import { functionCallsResponse, ScriptedModel, textResponse } from "../../src/testing/index.js";
import { homeAutomationAgent, recordedResponses } from "./home-automation.js";

const evalSet = join(new URL("./fixtures/home_automation/", import.meta.url).pathname, "simple.evalset.json");

describe("an eval case as a vitest test", async () => {
  const model = new ScriptedModel([
    functionCallsResponse({ name: "set_device_info", args: { location: "Bedroom", device_id: "device_2", status: "OFF" } }),
    textResponse("I have set the device_2 status to off."),
  ]);
  await defineEvalTests(it, { agent: homeAutomationAgent(model), evalSet: `${evalSet}:turn_off_bedroom_device` });
});

describe("what defineEvalTests defines", () => {
  it("defines one test per case, named by the eval id, whose failure names each criterion and shows both trajectories", async () => {
    const defined: Array<{ name: string; run: () => Promise<void>; timeoutMs?: number }> = [];
    await defineEvalTests((name, run, timeoutMs) => defined.push({ name, run, timeoutMs }), { agent: homeAutomationAgent(recordedResponses()), evalSet, timeoutMs: 20_000 });
    expect(defined.map((test) => [test.name, test.timeoutMs])).toEqual([
      ["turn_off_bedroom_device", 20_000],
      ["check_then_switch_on", 20_000],
    ]);
    await expect(defined[0]!.run()).resolves.toBeUndefined();
    const failure = await defined[1]!.run().then(() => undefined, (error: Error) => error.message);
    expect(failure).toContain("Eval case check_then_switch_on failed:\ntool_trajectory_avg_score: 0.500 is below the threshold 1.");
    expect(failure).toContain('  expected tools: [{"name":"set_device_info","args":{"location":"Kitchen","device_id":"device_3","status":"ON"}}]');
    expect(failure).toContain('  actual tools:   [{"name":"set_device_info","args":{"device_id":"device_3","status":"ON"}}]');
    // response_match_score (0.6375 ≥ 0.5) passed, so it is not named.
    expect(failure).not.toContain("response_match_score");
  });
});
