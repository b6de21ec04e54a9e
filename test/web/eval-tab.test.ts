/**
 * The web UI's Eval tab in Chromium: a conversation saved as an eval case,
 * the eval sets listed, a run, and the results beside the expected
 * trajectory, against `toolsmith web` serving an app in a temporary folder
 * (eval sets are written beside the app, as ADK writes them).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWebUi, hasChromium, launchChromium, onlyLoopback, screenshotPath, startToolsmith } from "./browser.js";

/** A home agent whose model reads a different device every other time it is asked for a status: a replay of a saved case then fails. */
const AGENT_TS = `import { FunctionTool, LlmAgent } from "toolsmith";
import { FunctionModel, functionCallsResponse, lastFunctionResponse, lastUserText, textResponse } from "toolsmith/testing";

let statusQuestions = 0;
const getDeviceInfo = new FunctionTool({
  name: "get_device_info",
  description: "Reads a device's status.",
  parameters: { type: "object", properties: { device_id: { type: "string" } }, required: ["device_id"] },
  execute: ({ device_id }) => ({ device_id, status: device_id === "device_3" ? "off" : "on" }),
});
const setDeviceInfo = new FunctionTool({
  name: "set_device_info",
  description: "Sets a device's status.",
  parameters: { type: "object", properties: { device_id: { type: "string" }, status: { type: "string" } }, required: ["device_id", "status"] },
  execute: () => ({ status: "success" }),
});

export const rootAgent = new LlmAgent({
  name: "home_agent",
  tools: [getDeviceInfo, setDeviceInfo],
  model: new FunctionModel((request) => {
    const result = lastFunctionResponse(request);
    if (result) return textResponse(result.name === "get_device_info" ? \`\${result.response.device_id} is \${result.response.status}.\` : "Done, device_2 is off.");
    const text = lastUserText(request) ?? "";
    if (/status/i.test(text)) {
      statusQuestions++;
      return functionCallsResponse({ name: "get_device_info", args: { device_id: statusQuestions % 2 === 1 ? "device_3" : "device_1" } });
    }
    return functionCallsResponse({ name: "set_device_info", args: { device_id: "device_2", status: "OFF" } });
  }),
});
`;

describe.skipIf(!hasChromium)("the Eval tab in Chromium", () => {
  let server: Awaited<ReturnType<typeof startToolsmith>>;
  let browser: Browser;
  let page: Page;
  const root = mkdtempSync(join(tmpdir(), "toolsmith-eval-ui-"));
  const agents = join(root, "agents");

  beforeAll(async () => {
    mkdirSync(join(root, "node_modules"));
    symlinkSync(new URL("../../", import.meta.url).pathname, join(root, "node_modules", "toolsmith"), "dir");
    mkdirSync(join(agents, "home"), { recursive: true });
    writeFileSync(join(agents, "home", "agent.ts"), AGENT_TS);
    await buildWebUi();
    [server, browser] = await Promise.all([startToolsmith(["web", agents]), launchChromium()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await onlyLoopback(page, server.url);
    await page.goto(`${server.url}/#app=home`);
    await page.getByTestId("new-session").click();
    await page.getByTestId("session").first().waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  async function say(text: string, answer: string): Promise<void> {
    await page.getByTestId("message").fill(text);
    await page.getByTestId("message").press("Enter");
    await page.getByTestId("event-text").filter({ hasText: answer }).waitFor();
  }

  it("saves the conversation as an eval case in a new eval set, written where ADK keeps it", async () => {
    await say("Turn off device_2 please", "Done, device_2 is off.");
    await say("What is the status of device_3?", "device_3 is off.");
    await page.getByTestId("tab-eval").click();
    await page.getByTestId("eval-cases").filter({ hasText: "Create an eval set, then save sessions into it." }).waitFor();
    await page.getByTestId("new-eval-set").fill("smoke");
    await page.getByTestId("create-eval-set").click();
    await page.getByTestId("eval-set-select").locator("option", { hasText: "smoke" }).waitFor({ state: "attached" });
    await page.getByTestId("eval-id").fill("status_check");
    await page.getByTestId("save-session").click();
    await page.getByTestId("eval-case").first().waitFor();
    expect(await page.getByTestId("eval-case").evaluateAll((boxes) => boxes.map((box) => (box as unknown as { value: string }).value))).toEqual(["status_check"]);
    const file = join(agents, "home", "smoke.evalset.json");
    expect(existsSync(file)).toBe(true);
    const saved = JSON.parse(readFileSync(file, "utf8")) as { eval_cases: Array<{ conversation: Array<{ intermediate_data: { tool_uses: unknown[] } }> }> };
    expect(saved.eval_cases[0]!.conversation.map((turn) => turn.intermediate_data.tool_uses)).toEqual([[{ name: "set_device_info", args: { device_id: "device_2", status: "OFF" } }], [{ name: "get_device_info", args: { device_id: "device_3" } }]]);
  });

  it("runs the case and shows the failed trajectory beside the expected one, turn by turn", async () => {
    await page.getByTestId("run-eval").click();
    const result = page.getByTestId("eval-result");
    await result.waitFor();
    // The replay asked about device_1 where the saved conversation asked about device_3.
    expect(await result.getByTestId("eval-status").textContent()).toBe("FAIL");
    const metrics = await result.getByTestId("eval-metric").allTextContents();
    expect(metrics).toEqual(["tool_trajectory_avg_score 0.50 / 1", expect.stringMatching(/^response_match_score 0\.\d\d \/ 0\.8$/)]);
    const turns = result.getByTestId("eval-turn");
    expect(await turns.count()).toBe(2);
    expect(await turns.nth(1).getByTestId("expected-tools").textContent()).toBe('get_device_info({"device_id":"device_3"})');
    expect(await turns.nth(1).getByTestId("actual-tools").textContent()).toBe('get_device_info({"device_id":"device_1"})');
    expect(await turns.nth(0).getByTestId("actual-tools").textContent()).toBe('set_device_info({"device_id":"device_2","status":"OFF"})');
    await page.screenshot({ path: screenshotPath("web-ui-eval.png") });
  });

  it("passes when run again (the model asks about device_3 again) with lower thresholds, and says what is missing before a run", async () => {
    await page.getByTestId("threshold-response").fill("0.5");
    await page.getByTestId("run-eval").click();
    await page.getByTestId("eval-status").filter({ hasText: "PASS" }).waitFor();
    expect(await page.getByTestId("eval-metric").allTextContents()).toEqual(["tool_trajectory_avg_score 1.00 / 1", "response_match_score 1.00 / 0.5"]);
    await page.getByTestId("eval-case").uncheck();
    await page.getByTestId("run-eval").click();
    await page.getByTestId("error").filter({ hasText: "Tick at least one eval case to run." }).waitFor();
  });

  it("shows the server's message for a bad eval set id or a case id in use, and keeps the set as it was", async () => {
    await page.getByTestId("new-eval-set").fill("bad id!");
    await page.getByTestId("create-eval-set").click();
    await page.getByTestId("error").filter({ hasText: 'Invalid eval set id "bad id!": use letters, digits and underscores only, as ADK requires, at most 200 of them.' }).waitFor();
    await page.getByTestId("eval-id").fill("status_check");
    await page.getByTestId("save-session").click();
    await page.getByTestId("error").filter({ hasText: "Eval set smoke already has a case status_check: choose another eval id." }).waitFor();
    expect(await page.getByTestId("eval-case").count()).toBe(1);
  });
});
