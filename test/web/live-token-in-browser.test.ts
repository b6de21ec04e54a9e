import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopServing } from "./agent-app.js";
import { hasChromium, launchChromium, onlyLoopback, startToolsmith } from "./browser.js";
import { writeVoiceApps } from "./voice-app.js";

/**
 * A page's `WebSocket` cannot set an Authorization header, so in bearer-token mode it offers the token as the
 * subprotocol `bearer.<base64url>` beside `toolsmith`: Chromium's own handshake, against `toolsmith web --tokens-file`.
 */
describe.skipIf(!hasChromium)("a browser's bearer token on /run_live (Chromium, --tokens-file)", () => {
  let server: Awaited<ReturnType<typeof startToolsmith>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const { agents } = writeVoiceApps();
    const tokens = join(dirname(agents), "tokens.json");
    writeFileSync(tokens, JSON.stringify({ "s3cret token/ä": "ana" }));
    [server, browser] = await Promise.all([startToolsmith(["web", agents, "--tokens-file", tokens]), launchChromium()]);
    page = await browser.newPage();
    await onlyLoopback(page, server.url);
    await page.goto(`${server.url}/`);
    const created = await fetch(`${server.url}/apps/voice/users/ana/sessions/s1`, { method: "POST", headers: { authorization: "Bearer s3cret token/ä", "content-type": "application/json" }, body: "{}" });
    expect(created.status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stopServing(server);
  });

  /** Opens /run_live from the page with `protocols`, sends a message once open; what happened, as the page saw it. */
  function talkFromPage(protocols: string[], userId = "ana"): Promise<{ opened: boolean; protocol: string; texts: string[]; closeCode: number }> {
    return page.evaluate(
      ({ url, protocols }) =>
        new Promise((resolve) => {
          const socket = new WebSocket(url, protocols);
          const texts: string[] = [];
          let opened = false;
          socket.onopen = () => {
            opened = true;
            socket.send(JSON.stringify({ content: { role: "user", parts: [{ text: "thanks" }] } }));
          };
          socket.onmessage = (message) => {
            const event = JSON.parse(message.data as string) as { content?: { parts?: Array<{ text?: string }> } };
            const text = event.content?.parts?.[0]?.text;
            if (text) texts.push(text);
            if (text?.startsWith("You wrote")) socket.send(JSON.stringify({ close: true }));
          };
          socket.onclose = (close) => resolve({ opened, protocol: socket.protocol, texts, closeCode: close.code });
        }),
      { url: `${server.url.replace(/^http/, "ws")}/run_live?app_name=voice&user_id=${userId}&session_id=s1&modalities=TEXT`, protocols },
    );
  }

  const bearer = (token: string) => `bearer.${Buffer.from(token).toString("base64url")}`;

  it("opens with the token offered as a subprotocol, the server answering toolsmith's, and the conversation runs", async () => {
    const talked = await talkFromPage(["toolsmith", bearer("s3cret token/ä")]);
    expect(talked).toEqual({ opened: true, protocol: "toolsmith", texts: ["thanks", "You wrote: thanks"], closeCode: 1000 });
  });

  it("is refused before the handshake with a wrong token or none (the page sees 1006)", async () => {
    for (const protocols of [["toolsmith", bearer("guess")], ["toolsmith"], []]) {
      const talked = await talkFromPage(protocols);
      expect({ protocols, opened: talked.opened, closeCode: talked.closeCode }).toEqual({ protocols, opened: false, closeCode: 1006 });
    }
  });

  it("keeps each token to its user: another user's session is not found", async () => {
    const talked = await talkFromPage(["toolsmith", bearer("s3cret token/ä")], "bo");
    expect(talked).toMatchObject({ opened: true, closeCode: 1002, texts: [] });
  });
});
