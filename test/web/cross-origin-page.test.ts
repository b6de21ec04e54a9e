/**
 * A web page the user opens on another site cannot drive the agents served by `toolsmith web` on their machine:
 * in Chromium, a page of another origin sends the requests a drive-by attack would (simple `no-cors` POSTs, which
 * need no preflight) to plant a session and run the agent in it; the server refuses both, and nothing is stored.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium, startToolsmith } from "./browser.js";


describe.skipIf(!hasChromium)("a page of another origin against toolsmith web (Chromium)", () => {
  let server: Awaited<ReturnType<typeof startToolsmith>>;
  let browser: Browser;
  // Another site on the user's machine (a dev server, a page a tool opened): Chromium lets a page on loopback reach
  // loopback, where it asks the user before a public site may (Local Network Access), which other browsers do not.
  let hostileSite: Server;
  let hostile = "";

  beforeAll(async () => {
    hostileSite = createServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>cute cats</title>"));
    await new Promise<void>((resolve) => hostileSite.listen(0, "127.0.0.1", resolve));
    hostile = `http://127.0.0.1:${(hostileSite.address() as AddressInfo).port}`;
    [server, browser] = await Promise.all([startToolsmith(["web", "examples"]), launchChromium()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise((resolve) => hostileSite?.close(resolve));
  });

  it("cannot create a session or run the agent with no-cors POSTs, and the server stores nothing", async () => {
    const page = await browser.newPage();
    await page.route("**/*", (route) => (route.request().url().startsWith(hostile) || route.request().url().startsWith(server.url) ? route.continue() : route.abort()));
    await page.goto(`${hostile}/`);
    const attack = `(async () => {
      const send = (path, body) => fetch(${JSON.stringify(server.url)} + path, { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body });
      await send("/apps/shop/users/victim/sessions/planted", "{}");
      await send("/run", JSON.stringify({ appName: "shop", userId: "victim", sessionId: "planted", newMessage: { role: "user", parts: [{ text: "order A-17" }] } }));
      return "sent";
    })()`;
    expect(await page.evaluate(attack)).toBe("sent");
    const planted = await fetch(`${server.url}/apps/shop/users/victim/sessions/planted`);
    expect(planted.status).toBe(404);
    expect(await (await fetch(`${server.url}/apps/shop/users/victim/sessions`)).json()).toEqual([]);
  });
});
