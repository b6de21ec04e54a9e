import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium, onlyLoopbackAndLocalFonts, screenshotPath, startToolsmith } from "./browser.js";

describe.skipIf(!hasChromium)("ADK's own dev UI (from @google/adk-devtools) against toolsmith's server", () => {
  let server: Awaited<ReturnType<typeof startToolsmith>>;
  let browser: Browser;
  let page: Page;
  const calls: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startToolsmith(["web", "examples", "--adk-dev-ui"]), launchChromium()]);
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await onlyLoopbackAndLocalFonts(page, server.url);
    page.on("response", (response) => {
      if (response.url().startsWith(server.url) && !/\.(js|css|svg|html)$|\/dev-ui\//.test(response.url())) calls.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("lists the apps, creates a session, sends a message and shows the tool call, its response and the reply", async () => {
    // The dev UI opens the app named in ?app=, once /list-apps has said it exists.
    const listed = page.waitForResponse((response) => new URL(response.url()).pathname === "/list-apps");
    await page.goto(`${server.url}/dev-ui/?app=shop`);
    expect(await (await listed).json()).toEqual(["shop", "stats", "weather-sentiment"]);
    await page.locator("textarea.chat-input-box").fill("order A-17");
    await page.locator("textarea.chat-input-box").press("Enter");
    await page.getByText('Done: lookup_order answered {"status":"success"').waitFor();
    const chat = await page.locator("body").innerText();
    expect(chat).toContain('lookup_order("A-17")');
    expect(chat).toContain("State: last_order");
    expect(chat).toContain("Artifact: receipt-A-17.txt, order-photo.png");
    await page.screenshot({ path: screenshotPath("adk-dev-ui.png") });

    expect(calls).toContain("200 GET /list-apps");
    expect(calls).toContain("200 GET /version");
    expect(calls).toContain("200 GET /dev/apps/shop/build_graph");
    expect(calls).toContain("200 POST /apps/shop/users/user/sessions");
    expect(calls).toContain("200 POST /run_sse");
    // The UI asks for the session's trace once the run has finished; it may come a moment after the reply shows.
    await expect.poll(() => calls.some((call) => /^200 GET \/dev\/apps\/shop\/debug\/trace\/session\//.test(call))).toBe(true);
    expect(calls.filter((call) => call.startsWith("5"))).toEqual([]);
  });

  it("loads the icon fonts from the local packages, so icons render as icons", async () => {
    const iconWidth = await page.locator("mat-icon, .material-symbols-outlined, .material-icons").first().evaluate((element) => (element as unknown as { getBoundingClientRect(): { width: number } }).getBoundingClientRect().width);
    expect(iconWidth).toBeLessThan(40);
  });
});
