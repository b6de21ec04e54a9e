/**
 * The web UI links a credential request's sign-in address only when it is a web address. toolsmith's own flows
 * refuse any other (`OAUTH2_INVALID_URL`), but a tool may put together its own request; a `javascript:` link
 * in the page would run script with the dev server's API at hand when clicked.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, type startToolsmith } from "./browser.js";
import { openAppInBrowser, stopServing, writeAgentApp } from "./agent-app.js";

const agentSource = `import { FunctionTool, LlmAgent } from "toolsmith";
import { FunctionModel, functionCallsResponse, textResponse } from "toolsmith/testing";

const signInAt = (authUri) =>
  new FunctionTool({
    name: authUri.startsWith("https:") ? "web_sign_in" : "script_sign_in",
    description: "Asks the person to sign in.",
    parameters: { type: "object", properties: {} },
    execute: (_args, context) => {
      context.requestCredential({ authScheme: { type: "oauth2", flows: {} }, exchangedAuthCredential: { authType: "oauth2", oauth2: { authUri } } });
      return { status: "pending" };
    },
  });

export const rootAgent = new LlmAgent({
  name: "signer",
  tools: [signInAt("https://auth.example/authorize"), signInAt("javascript:document.title='pwned'//")],
  model: new FunctionModel((request) => {
    const text = request.contents.at(-1)?.parts?.[0]?.text;
    return text ? functionCallsResponse({ name: text, args: {} }) : textResponse("Waiting.");
  }),
});
`;

describe.skipIf(!hasChromium)("a credential request's sign-in link in the web UI (Chromium)", () => {
  let server: Awaited<ReturnType<typeof startToolsmith>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ server, browser, page } = await openAppInBrowser(writeAgentApp("signer", agentSource), "signer"));
  });

  afterAll(async () => {
    await browser?.close();
    await stopServing(server);
  });

  async function credentialCardAfter(toolName: string) {
    await page.getByTestId("message").fill(toolName);
    await page.getByTestId("message").press("Enter");
    const card = page.getByTestId("credential").last();
    await card.waitFor();
    return card;
  }

  it("links an https sign-in address", async () => {
    const card = await credentialCardAfter("web_sign_in");
    expect(await card.getByRole("link", { name: "Sign in" }).getAttribute("href")).toMatch(/^https:\/\/auth\.example\/authorize/);
  });

  it("does not link a javascript: address, and says why", async () => {
    await page.getByTestId("new-session").click();
    const card = await credentialCardAfter("script_sign_in");
    expect(await card.getByRole("link").count()).toBe(0);
    expect(await card.getByTestId("sign-in-refused").textContent()).toBe("The sign-in address is not a web address, so it is not linked.");
    expect(await page.title()).not.toBe("pwned");
  });
});
