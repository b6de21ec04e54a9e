/**
 * Signing in to an MCP server behind OAuth through the web UI, in Chromium:
 * the test starts a real authorization server (oauth2-mock-server) and an
 * MCP server that accepts only its tokens; `toolsmith web` serves an app
 * whose agent uses that server. The page shows the credential request with
 * the sign-in link, the browser follows it to the authorization server and is
 * sent back with a code, the person gives that address to the page, and the
 * paused call resumes and reaches the protected tool.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProtectedMcpServer, type ProtectedMcpServer } from "../mcp/protected-mcp-server.js";
import { buildWebUi, hasChromium, launchChromium, screenshotPath, startToolsmith } from "./browser.js";
import { stopServing, writeAgentApp } from "./agent-app.js";

/** The app: its model asks the user to sign in, then reads the plans, then reports them. */
function agentSource(mcpUrl: string, redirectUri: string): string {
  return `import { LlmAgent } from "toolsmith";
import { MCPToolset } from "toolsmith/mcp";
import { FunctionModel, functionCallsResponse, lastFunctionResponse, textResponse } from "toolsmith/testing";

export const rootAgent = new LlmAgent({
  name: "planner",
  tools: [new MCPToolset({ connection: { type: "http", url: ${JSON.stringify(mcpUrl)}, auth: { clientId: "toolsmith-test", redirectUri: ${JSON.stringify(redirectUri)} } } })],
  model: new FunctionModel((request) => {
    const result = lastFunctionResponse(request);
    if (result?.name === "secret_plans") return textResponse(\`Done: \${JSON.stringify(result.response)}\`);
    if (result?.name === "mcp_sign_in" && result.response.status === "success") return functionCallsResponse({ name: "secret_plans", args: {} });
    return functionCallsResponse({ name: "mcp_sign_in", args: {} });
  }),
});
`;
}

describe.skipIf(!hasChromium)("signing in to an MCP server behind OAuth through the web UI (Chromium)", () => {
  let protectedServer: ProtectedMcpServer;
  let server: Awaited<ReturnType<typeof startToolsmith>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    protectedServer = await startProtectedMcpServer();
    const agents = writeAgentApp("planner", agentSource(protectedServer.mcpUrl, protectedServer.callbackUrl));
    await buildWebUi();
    [server, browser] = await Promise.all([startToolsmith(["web", agents]), launchChromium()]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // Only loopback: the app, the authorization server and the MCP server the test started.
    await context.route("**/*", (route) => (/^http:\/\/(127\.0\.0\.1|localhost):\d+\//.test(route.request().url()) ? route.continue() : route.abort()));
    page = await context.newPage();
    await page.goto(`${server.url}/#app=planner`);
    await page.getByTestId("new-session").click();
    await page.getByTestId("session").first().waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await stopServing(server);
    await protectedServer?.close();
  }, 30_000);

  it("shows the sign-in, the browser completes it at the authorization server, and the paused call resumes with the token", async () => {
    await page.getByTestId("message").fill("what are the plans?");
    await page.getByTestId("message").press("Enter");
    const card = page.getByTestId("credential");
    // A run that ends with an error instead of the sign-in fails here with its message, not after the test's timeout.
    await card.or(page.getByTestId("event-error")).first().waitFor();
    expect(await page.getByTestId("event-error").allTextContents()).toEqual([]);
    const link = card.getByRole("link", { name: "Sign in" });
    const signInUrl = new URL((await link.getAttribute("href"))!);
    expect(signInUrl.origin).toBe(new URL(protectedServer.authServer.issuer.url!).origin);
    expect(signInUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(signInUrl.searchParams.get("resource")).toBe(protectedServer.mcpUrl);
    await page.screenshot({ path: screenshotPath("web-ui-mcp-sign-in.png") });

    // The person follows the link: a new tab, sent back to the app's redirect URI with a code and the state.
    const [signInTab] = await Promise.all([page.waitForEvent("popup"), link.click()]);
    await signInTab.waitForURL((url) => url.toString().startsWith(protectedServer.callbackUrl));
    const redirect = new URL(signInTab.url());
    expect(redirect.searchParams.get("code")).toBeTruthy();
    expect(redirect.searchParams.get("state")).toBe(signInUrl.searchParams.get("state"));
    await signInTab.close();

    await card.locator("input").fill(redirect.toString());
    await card.getByRole("button", { name: "Send" }).click();
    await page.getByTestId("event-text").filter({ hasText: "Done:" }).waitFor();
    expect(await page.getByTestId("event-text").last().textContent()).toBe('Done: {"text":"Launch on Tuesday."}');
    expect(protectedServer.seenTokens.length).toBeGreaterThan(0);
    // The token reached the server and is nowhere in the session the page shows.
    const session = await page.evaluate(`fetch(location.origin + "/apps/planner/users/user/sessions").then((response) => response.text())`);
    expect(String(session)).not.toContain(protectedServer.seenTokens.at(-1)!);
    expect(await page.getByTestId("credential").count()).toBe(0);
  });
});
