import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWebUi, hasChromium, launchChromium, onlyLoopback, screenshotPath, startToolsmith } from "./browser.js";

describe.skipIf(!hasChromium)("web UI in Chromium (toolsmith web examples)", () => {
  let server: Awaited<ReturnType<typeof startToolsmith>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    await buildWebUi();
    [server, browser] = await Promise.all([startToolsmith(["web", "examples"]), launchChromium()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await onlyLoopback(page, server.url);
    await page.goto(`${server.url}/#app=shop`);
    await page.getByTestId("new-session").click();
    await page.getByTestId("session").first().waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function say(text: string): Promise<void> {
    await page.getByTestId("message").fill(text);
    await page.getByTestId("message").press("Enter");
  }

  it("shows no model warning for the shop, whose rule model needs no keys", async () => {
    const requirements = (await page.evaluate(`fetch("/apps/shop/requirements").then((response) => response.json())`)) as { models: { source: string }[]; warnings: string[] };
    expect(requirements).toMatchObject({ models: [{ source: "instance" }], warnings: [] });
    expect(await page.getByTestId("model-warnings").isHidden()).toBe(true);
  });

  it("sends a message and shows the answer as it streams", async () => {
    // Record whether the streaming bubble ever appears, since the demo model streams quickly.
    // Page code as a string: this file is type-checked for Node, without the DOM's types.
    await page.evaluate(`
      window.streamed = [];
      new MutationObserver(() => {
        const bubble = document.querySelector("[data-testid=streaming] .text");
        if (bubble?.textContent) window.streamed.push(bubble.textContent);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    `);
    await say("hello");
    await page.getByTestId("event-text").filter({ hasText: "Hello! I can look up an order" }).waitFor();
    const streamed = (await page.evaluate("window.streamed")) as string[];
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed[0]!.length).toBeLessThan(streamed.at(-1)!.length);
  });

  it("shows tool calls as expandable events, and the state and artifacts (images as images) beside them", async () => {
    await say("order A-17");
    await page.getByTestId("event-text").filter({ hasText: "Done: lookup_order answered" }).waitFor();
    const response = page.locator("[data-testid=event][data-kind^='response: lookup_order']");
    await response.locator("summary").click();
    expect(await response.textContent()).toContain("state delta");
    expect(await response.textContent()).toContain('"order-photo.png": 0');
    expect(await page.getByTestId("state").textContent()).toContain('"last_order": "A-17"');
    const image = page.getByTestId("artifact-image");
    await image.waitFor();
    expect(await image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth)).toBe(24);
    await page.screenshot({ path: screenshotPath("web-ui-chat.png") });
  });

  it("asks for a confirmation in the page and runs the tool once approved", async () => {
    await say("refund A-17 120");
    const card = page.getByTestId("confirmation");
    await card.waitFor();
    expect(await card.textContent()).toContain("Confirm issue_refund?");
    await page.screenshot({ path: screenshotPath("web-ui-confirmation.png") });
    await card.getByRole("button", { name: "Approve" }).click();
    await page.getByTestId("event-text").filter({ hasText: 'Done: issue_refund answered {"status":"refunded"' }).waitFor();
    expect(await page.getByTestId("confirmation").count()).toBe(0);
  });

  it("shows a long-running call as pending and sends its result", async () => {
    await say("ask manager about a discount");
    const card = page.getByTestId("long-running");
    await card.waitFor();
    await card.getByTestId("long-running-result").fill('{"approved": true, "discount": 10}');
    await card.getByRole("button", { name: "Send result" }).click();
    await page.getByTestId("event-text").filter({ hasText: 'Done: ask_manager answered {"approved":true,"discount":10}' }).waitFor();
  });

  it("asks for a credential in the page and sends it back", async () => {
    await say("points");
    const card = page.getByTestId("credential");
    await card.waitFor();
    expect(await card.textContent()).toContain("Credential needed: X-Loyalty-Key");
    await card.locator("input").fill("secret-key-42");
    await card.getByRole("button", { name: "Send" }).click();
    await page.getByTestId("event-text").filter({ hasText: 'Done: loyalty_points answered {"status":"success","points":420,"keyEndsWith":"42"}' }).waitFor();
  });

  it("runs a tool from the playground with a form made from its schema, without a model", async () => {
    await page.getByTestId("tab-playground").click();
    await page.getByTestId("tool-issue_refund").click();
    expect(await page.locator("#tool-issue_refund-reason option").allTextContents()).toEqual(["—", "damaged", "late", "other"]);
    await page.getByTestId("tool-lookup_order").click();
    await page.locator("#tool-lookup_order-orderId").fill("B-52");
    await page.getByTestId("run-tool").click();
    const result = page.getByTestId("tool-result");
    await result.getByText('"item": "teapot"').waitFor();
    expect(await result.textContent()).toContain('"last_order": "B-52"');
    expect(await result.getByTestId("artifact-image").count()).toBe(1);
    await expect.poll(() => page.getByTestId("state").textContent()).toContain('"last_order": "B-52"');
    await page.screenshot({ path: screenshotPath("web-ui-playground.png") });
  });

  it("keeps the session the person starts while the app is still loading, rather than switching to the newest stored one", async () => {
    const loading = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await onlyLoopback(loading, server.url);
      // The page's first two session listings (made as the app opens; the shop has sessions from the tests above)
      // are answered late, with what the server held before the person's new session.
      let listings = 0;
      let staleListed!: () => void;
      const staleListingMade = new Promise<void>((resolve) => (staleListed = resolve));
      await loading.route(/\/apps\/shop\/users\/user\/sessions$/, async (route) => {
        if (route.request().method() !== "GET" || ++listings > 2) return route.continue();
        const response = await route.fetch();
        if (listings === 2) staleListed();
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        await route.fulfill({ response });
      });
      await loading.goto(`${server.url}/#app=shop`);
      await staleListingMade;
      const [created] = await Promise.all([loading.waitForResponse((response) => response.request().method() === "POST" && /\/sessions$/.test(response.url())), loading.getByTestId("new-session").click()]);
      const newId = ((await created.json()) as { id: string }).id;
      // Once the late listings are answered and whatever they led to is fetched.
      await loading.waitForLoadState("networkidle");
      expect(await loading.locator("[data-testid=session].active").textContent()).toContain(newId.slice(0, 8));
      expect(await loading.getByTestId("event").count()).toBe(0);
    } finally {
      await loading.close();
    }
  });

  it("shows the server's message when a request fails", async () => {
    await page.getByTestId("tab-playground").click();
    await page.getByTestId("tool-issue_refund").click();
    await page.locator("#tool-issue_refund-orderId").fill("A-1");
    await page.getByTestId("run-tool").click();
    await page.getByTestId("tool-result").getByText('"status": "error"').waitFor();
    expect(await page.getByTestId("tool-result").textContent()).toContain("amount");
  });
});
