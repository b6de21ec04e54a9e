/**
 * An agent that runs its model's code, in the web UI in Chromium: `toolsmith web` serves an app whose agent has
 * `UnsafeLocalCodeExecutor`; the page shows the code and what it printed in the event's details, each event
 * marked by a badge, and the file the code wrote among the session's artifacts.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, screenshotPath, type startToolsmith } from "./browser.js";
import { openAppInBrowser, stopServing, writeAgentApp } from "./agent-app.js";

const agentSource = `import { LlmAgent, UnsafeLocalCodeExecutor } from "toolsmith";
import { FunctionModel, textResponse } from "toolsmith/testing";

const fence = String.fromCharCode(96).repeat(3);
export const rootAgent = new LlmAgent({
  name: "analyst",
  codeExecutor: new UnsafeLocalCodeExecutor(),
  // Writes code first; once its result is in the history, answers with it.
  model: new FunctionModel((request) => {
    const last = request.contents.at(-1)?.parts?.[0]?.text ?? "";
    return last.includes("tool_output") ? textResponse("The sum is 55; the numbers are in numbers.txt.") : textResponse("Computing.\\n" + fence + "python\\nnumbers = list(range(1, 11))\\nopen('numbers.txt', 'w').write(str(numbers))\\nprint(sum(numbers))\\n" + fence);
  }),
});
`;

describe.skipIf(!hasChromium)("code the model wrote, run and shown in the web UI (Chromium)", () => {
  let server: Awaited<ReturnType<typeof startToolsmith>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ server, browser, page } = await openAppInBrowser(writeAgentApp("analyst", agentSource), "analyst"));
  });

  afterAll(async () => {
    await browser?.close();
    await stopServing(server);
  }, 30_000);

  it("shows the code and its output in the events, badged, and the file it wrote as an artifact", async () => {
    await page.getByTestId("message").fill("Sum 1 to 10");
    await page.getByTestId("message").press("Enter");
    await page.getByText("The sum is 55; the numbers are in numbers.txt.").waitFor();
    const codeEvent = page.locator('[data-testid="event"][data-kind="code"]');
    const resultEvent = page.locator('[data-testid="event"][data-kind="code result: ok"]');
    expect(await codeEvent.count()).toBe(1);
    expect(await codeEvent.getByTestId("event-text").textContent()).toBe("Computing.\n");
    await codeEvent.locator("summary").click();
    expect(await codeEvent.getByTestId("code").textContent()).toContain("print(sum(numbers))");
    await resultEvent.locator("summary").click();
    expect(await resultEvent.getByTestId("code-result").textContent()).toBe("code result (ok)Code execution result:\n55\n\n\n\nSaved artifacts:\nnumbers.txt");
    expect(await resultEvent.textContent()).toContain('"numbers.txt": 0');
    const artifact = page.getByTestId("artifact");
    await artifact.first().waitFor();
    expect(await artifact.allTextContents()).toEqual(["numbers.txttext/plain, 33 bytes"]);
    await page.screenshot({ path: screenshotPath("code-execution.png") });
  });
});
