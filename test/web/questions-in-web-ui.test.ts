/**
 * A workflow node's question in the web UI, in Chromium: `toolsmith web` serves an app whose agent refunds through a
 * workflow run as a tool (`NodeTool`) that asks the person to approve; the page shows the question with its message
 * (and not the tool call that waits on it), and the answer takes the call up.
 */
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, screenshotPath, type startToolsmith } from "./browser.js";
import { openAppInBrowser, stopServing, writeAgentApp } from "./agent-app.js";

const agentSource = `import { z } from "zod";
import { LlmAgent, node, NodeTool, RequestInput, Workflow } from "toolsmith";
import { FunctionModel, functionCallsResponse, lastFunctionResponse, textResponse } from "toolsmith/testing";

const draft = node((_ctx, order: string) => \`refund for \${order}\`, { name: "draft" });
const approve = node(async function* approve(_ctx, proposal: string) {
  yield new RequestInput({ interruptId: "approve", message: \`Approve the \${proposal}?\` });
}, { name: "approve" });
const amount = node(async function* amount() {
  yield new RequestInput({ interruptId: "amount", message: "How much?", responseSchema: z.object({ cents: z.number() }) });
}, { name: "amount" });
const pay = node((_ctx, money: { cents: number }) => \`paid \${money.cents}\`, { name: "pay" });
const refund = new Workflow({ name: "refund", description: "Refunds an order once a person approves.", edges: [["START", draft, approve, amount, pay]], inputSchema: z.string() });

export const rootAgent = new LlmAgent({
  name: "clerk",
  tools: [new NodeTool(refund)],
  model: new FunctionModel((request) => {
    const result = lastFunctionResponse(request);
    return result && result.response.status !== "paused" ? textResponse(\`Refund: \${JSON.stringify(result.response)}\`) : functionCallsResponse({ name: "refund", args: { request: "order 7" } });
  }),
});
`;

describe.skipIf(!hasChromium)("a workflow node's questions in the web UI (Chromium)", () => {
  let server: Awaited<ReturnType<typeof startToolsmith>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const agents = writeAgentApp("clerk", agentSource);
    // The app's schemas are zod's, found beside toolsmith as in a user's project.
    symlinkSync(fileURLToPath(new URL("../../node_modules/zod", import.meta.url)), join(agents, "..", "node_modules", "zod"), "dir");
    ({ server, browser, page } = await openAppInBrowser(agents, "clerk"));
  });

  afterAll(async () => {
    await browser?.close();
    await stopServing(server);
  }, 30_000);

  it("asks each question with its message, as text or as a form of its schema, and the answers take the call up", async () => {
    await page.getByTestId("message").fill("Refund order 7");
    await page.getByTestId("message").press("Enter");
    const question = page.getByTestId("question");
    await question.waitFor();
    expect(await question.textContent()).toContain("Approve the refund for order 7?");
    // Only the question is offered: the refund call waits on it, and an answer there would bypass it.
    expect(await page.getByTestId("long-running").count()).toBe(0);
    await page.screenshot({ path: screenshotPath("web-ui-node-question.png") });
    await question.getByTestId("question-answer").fill("yes");
    await question.getByRole("button", { name: "Send" }).click();

    const form = page.getByTestId("question").filter({ hasText: "How much?" });
    await form.waitFor();
    await form.locator("input[name=cents]").fill("1250");
    await form.getByRole("button", { name: "Send" }).click();
    await page.getByTestId("event-text").filter({ hasText: 'Refund: {"result":"paid 1250"}' }).waitFor();
    expect(await page.getByTestId("question").count()).toBe(0);
  });
});
