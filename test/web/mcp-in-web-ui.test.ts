/**
 * An MCP server's log messages, progress and questions in the web UI, in
 * Chromium: `toolsmith web` serves an app whose agent uses toolsmith's own MCP
 * server (started by this test, over Streamable HTTP); the page shows the
 * server's log lines and a progress bar while the call runs, and asks the
 * person the server's question as a form whose answer resumes the call.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FunctionTool } from "../../src/index.js";
import { createMcpServer, logToClient, reportProgress, type McpHttpListener } from "../../src/mcp/index.js";
import { bookTableTool } from "../mcp/fixtures/book-table-tool.js";
import { hasChromium, screenshotPath, type startToolsmith } from "./browser.js";
import { openAppInBrowser, stopServing, writeAgentApp } from "./agent-app.js";

/** The app: its model calls import_rows or book_table by what the user says, then reports the result. */
function agentSource(url: string): string {
  return `import { LlmAgent } from "toolsmith";
import { MCPToolset } from "toolsmith/mcp";
import { FunctionModel, functionCallsResponse, lastFunctionResponse, lastUserText, textResponse } from "toolsmith/testing";

export const rootAgent = new LlmAgent({
  name: "clerk",
  tools: [new MCPToolset({ connection: { type: "http", url: ${JSON.stringify(url)} }, logLevel: "info" })],
  model: new FunctionModel((request) => {
    const result = lastFunctionResponse(request);
    if (result) return textResponse(\`Done: \${result.name} answered \${JSON.stringify(result.response)}\`);
    return functionCallsResponse({ name: /book/i.test(lastUserText(request) ?? "") ? "book_table" : "import_rows", args: {} });
  }),
});
`;
}

describe.skipIf(!hasChromium)("an MCP server's logs, progress and questions in the web UI (Chromium)", () => {
  let server: Awaited<ReturnType<typeof startToolsmith>>;
  let mcp: McpHttpListener;
  let browser: Browser;
  let page: Page;
  const served = createMcpServer({
    tools: [
      new FunctionTool({
        name: "import_rows",
        description: "Imports rows, logging and reporting progress.",
        execute: async (_args, context) => {
          logToClient(context, "debug", "not shown: below the level the client asked for");
          logToClient(context, "info", "opening rows.csv", "importer");
          for (let step = 1; step <= 3; step++) {
            reportProgress(context, { progress: step, total: 3, message: `batch ${step}` });
            await new Promise((resolve) => setTimeout(resolve, 30));
          }
          logToClient(context, "warning", { skipped: 7 });
          // A log message is sent without waiting; the pause lets it go out before the result does.
          await new Promise((resolve) => setTimeout(resolve, 50));
          return "imported 9 rows";
        },
      }),
      bookTableTool({ runs: 0, answers: [] }),
    ],
  });

  beforeAll(async () => {
    mcp = await served.listen();
    const agents = writeAgentApp("clerk", agentSource(mcp.url));
    ({ server, browser, page } = await openAppInBrowser(agents, "clerk"));
  });

  afterAll(async () => {
    await browser?.close();
    await stopServing(server);
    await mcp?.close();
    await served.close();
  }, 30_000);

  async function say(text: string): Promise<void> {
    await page.getByTestId("message").fill(text);
    await page.getByTestId("message").press("Enter");
  }

  it("shows the server's log messages at the level asked for, and one progress bar per call at its latest figure", async () => {
    await say("import the rows");
    await page.getByTestId("event-text").filter({ hasText: "Done: import_rows answered" }).waitFor();
    const logs = page.getByTestId("mcp-log");
    expect(await logs.allTextContents()).toEqual(["clerklog infoimporteropening rows.csv", 'clerklog warning{"skipped":7}']);
    expect(await logs.nth(1).getAttribute("data-level")).toBe("warning");
    const progress = page.getByTestId("tool-progress");
    expect(await progress.count()).toBe(1);
    expect(await progress.textContent()).toBe("clerk3 / 3 · batch 3");
    expect(await progress.locator("progress").evaluate((bar) => [(bar as unknown as { value: number }).value, (bar as unknown as { max: number }).max])).toEqual([3, 3]);
    // The notes sit before the call's response, where they happened.
    const order = await page.locator("[data-testid=events] > *").evaluateAll((rows) => rows.map((row) => (row as unknown as { dataset: Record<string, string> }).dataset.testid ?? ""));
    const response = await page.locator("[data-testid=events] > *").evaluateAll((rows) => rows.findIndex((row) => (row as unknown as { dataset: Record<string, string> }).dataset.kind?.startsWith("response: import_rows")));
    expect(order.lastIndexOf("mcp-log")).toBeLessThan(response);
    expect(order.indexOf("tool-progress")).toBeLessThan(response);
    await page.screenshot({ path: screenshotPath("web-ui-mcp-activity.png") });
  });

  it("asks the server's question as a form, and the answer resumes the same call", async () => {
    await say("book a table");
    const card = page.getByTestId("elicitation");
    await card.waitFor();
    expect(await card.textContent()).toContain("The MCP server asks: For how many people?");
    await card.locator("input[name=people]").fill("4");
    await page.screenshot({ path: screenshotPath("web-ui-mcp-elicitation.png") });
    await card.getByRole("button", { name: "Send" }).click();
    await page.getByTestId("event-text").filter({ hasText: "Done: book_table answered" }).waitFor();
    expect(await page.getByTestId("event-text").last().textContent()).toContain('Booked: {\\"people\\":4,\\"terrace\\":false}');
    expect(await page.getByTestId("elicitation").count()).toBe(0);
  });

  it("sends Decline to the server as a decline", async () => {
    await say("book another table");
    const card = page.getByTestId("elicitation");
    await card.waitFor();
    await card.getByRole("button", { name: "Decline" }).click();
    await page.getByTestId("event-text").filter({ hasText: "Not booked (decline)." }).waitFor();
  });
});
