import { Hono } from "hono";
import type { Browser, Request } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ApiEnv } from "../../src/server/api-env.js";
import { MODEL_CREDENTIAL_VARIABLES } from "../../src/server/model-credentials.js";
import { startServer, type RunningServer } from "../../src/server/start-server.js";
import { exampleApi } from "../server/helpers.js";
import { buildWebUi, hasChromium, launchChromium, onlyLoopback, screenshotPath } from "./browser.js";

/**
 * `toolsmith web`'s app (createApiApp with the web UI) in this process, so a
 * test can change the environment it reads and see every request it
 * answered, including those the browser makes on its own, such as for a
 * favicon, which the page's request events do not report.
 */
async function webServer(agentsDir: string): Promise<{ server: RunningServer; served: string[] }> {
  const { app } = await exampleApi({ agentsDir, webUi: true });
  const served: string[] = [];
  const recorder = new Hono<ApiEnv>();
  recorder.all("*", async (context) => {
    const response = await app.fetch(context.req.raw, context.env);
    served.push(`${response.status} ${context.req.method} ${context.req.path}`);
    return response;
  });
  return { server: await startServer({ app: recorder }), served };
}

/** A page that notes every request it makes, the answers, the requests that failed, and those still under way. */
async function recordedPage(browser: Browser, origin: string) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await onlyLoopback(page, origin);
  const answered: string[] = [];
  const failed: string[] = [];
  const pending = new Set<Request>();
  const label = (request: Request) => `${request.method()} ${request.url().startsWith(origin) ? request.url().slice(origin.length) : request.url()}`;
  page.on("request", (request) => pending.add(request));
  page.on("requestfinished", (request) => pending.delete(request));
  page.on("response", (response) => answered.push(`${response.status()} ${label(response.request())}`));
  page.on("requestfailed", (request) => {
    pending.delete(request);
    failed.push(`${label(request)}: ${request.failure()?.errorText}`);
  });
  return { page, answered, failed, pending };
}

/** What a page's requests came to once none is under way: those that failed, and the answers that were not 2xx or 3xx. */
async function settled(recorded: Awaited<ReturnType<typeof recordedPage>>) {
  await expect.poll(() => recorded.pending.size).toBe(0);
  return { failed: recorded.failed, errors: recorded.answered.filter((line) => !/^[23]\d\d /.test(line)) };
}

const notOk = (served: string[]) => served.filter((line) => !/^[23]\d\d /.test(line));

describe.skipIf(!hasChromium)("the web UI's first minute in Chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    [browser] = await Promise.all([launchChromium(), buildWebUi()]);
  });

  afterAll(async () => {
    await browser?.close();
  });

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("loads, opens an app, starts a session, chats and switches app without one failed or 404 request", async () => {
    for (const name of MODEL_CREDENTIAL_VARIABLES) vi.stubEnv(name, undefined);
    const { server, served } = await webServer("examples");
    try {
      const recorded = await recordedPage(browser, server.url);
      const { page } = recorded;
      await page.goto(`${server.url}/`);
      // The first app (shop) opens by itself.
      await page.getByTestId("tool-lookup_order").waitFor({ state: "attached" });
      await page.getByTestId("new-session").click();
      await page.getByTestId("session").first().waitFor();
      await page.getByTestId("message").fill("hello");
      await page.getByTestId("message").press("Enter");
      await page.getByTestId("event-text").filter({ hasText: "Hello! I can look up an order" }).waitFor();
      await page.getByTestId("app-select").selectOption("weather-sentiment");
      await page.getByTestId("tool-get_weather_report").waitFor({ state: "attached" });
      await page.getByTestId("tab-playground").click();

      expect(await settled(recorded)).toEqual({ failed: [], errors: [] });
      expect(notOk(served)).toEqual([]);
      expect(served).toEqual(expect.arrayContaining(["200 GET /", "200 GET /ui/app.css", "200 GET /ui/app.js", "200 GET /ui/favicon.svg", "200 GET /apps/shop/requirements", "200 POST /run_sse", "200 GET /apps/weather-sentiment/requirements"]));
      // The examples need no keys, so even with none set nothing warns.
      expect(await page.getByTestId("model-warnings").isHidden()).toBe(true);
      expect(await page.locator('link[rel="icon"]').getAttribute("href")).toBe("/ui/favicon.svg");
    } finally {
      await server.close();
    }
  });

  it("warns, naming the variables, only while the app whose model needs a key is selected", async () => {
    for (const name of MODEL_CREDENTIAL_VARIABLES) vi.stubEnv(name, undefined);
    const { server, served } = await webServer("test/fixtures/model-apps");
    try {
      const recorded = await recordedPage(browser, server.url);
      const { page } = recorded;
      await page.goto(`${server.url}/#app=gemini_app`);
      const banner = page.getByTestId("model-warnings");
      await banner.waitFor();
      expect(await page.getByTestId("model-warning").allTextContents()).toEqual(["gemini_app needs GOOGLE_API_KEY or GEMINI_API_KEY or GOOGLE_GENAI_API_KEY (or, for Vertex AI, GOOGLE_GENAI_USE_ENTERPRISE=true with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION) for gemini-2.5-flash: set one and restart toolsmith."]);
      // Only the header and the warning: the rest of the page is empty before a session starts.
      await page.screenshot({ path: screenshotPath("web-ui-model-warning.png"), clip: { x: 0, y: 0, width: 1280, height: 130 } });

      // The ScriptedModel app needs nothing; its tools show once its requirements have been read.
      await page.getByTestId("app-select").selectOption("scripted_app");
      await page.getByTestId("tool-echo").waitFor({ state: "attached" });
      expect(await banner.isHidden()).toBe(true);
      await page.getByTestId("new-session").click();
      await page.getByTestId("message").fill("hi");
      await page.getByTestId("message").press("Enter");
      await page.getByTestId("event-text").filter({ hasText: "Hello from the scripted model." }).waitFor();
      expect(await banner.isHidden()).toBe(true);

      await page.getByTestId("app-select").selectOption("gemini_app");
      await banner.waitFor();
      expect(await settled(recorded)).toEqual({ failed: [], errors: [] });
      expect(notOk(served)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("shows no warning for the Gemini app once GOOGLE_API_KEY is set", async () => {
    for (const name of MODEL_CREDENTIAL_VARIABLES) vi.stubEnv(name, undefined);
    // A dummy: no message is sent, so no request reaches Google.
    vi.stubEnv("GOOGLE_API_KEY", "dummy-key");
    const { server } = await webServer("test/fixtures/model-apps");
    try {
      const { page } = await recordedPage(browser, server.url);
      const requirements = page.waitForResponse((response) => response.url().endsWith("/apps/gemini_app/requirements"));
      await page.goto(`${server.url}/#app=gemini_app`);
      expect(await (await requirements).json()).toMatchObject({ models: [{ model: "gemini-2.5-flash", ready: true }], warnings: [] });
      await page.getByTestId("tool-forecast").waitFor({ state: "attached" });
      expect(await page.getByTestId("model-warnings").isHidden()).toBe(true);
    } finally {
      await server.close();
    }
  });
});
