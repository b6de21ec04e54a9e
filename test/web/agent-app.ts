import { expect } from "vitest";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { buildWebUi, launchChromium, onlyLoopback, startToolsmith } from "./browser.js";

/** An agents folder in a temporary directory with one app, whose `import "toolsmith"` finds this checkout. */
export function writeAgentApp(app: string, source: string): string {
  const root = mkdtempSync(join(tmpdir(), `toolsmith-${app}-app-`));
  mkdirSync(join(root, "node_modules"));
  symlinkSync(new URL("../../", import.meta.url).pathname, join(root, "node_modules", "toolsmith"), "dir");
  mkdirSync(join(root, "agents", app), { recursive: true });
  writeFileSync(join(root, "agents", app, "agent.ts"), source);
  return join(root, "agents");
}

/**
 * Stops `toolsmith web` with SIGINT and checks it exits by itself within 4 s. With an HTTP MCP toolset it used
 * to stay alive after shutting down (a keep-alive socket held its event loop); the command now exits at most a
 * second after its shutdown finished.
 */
export async function stopServing(server: Awaited<ReturnType<typeof startToolsmith>> | undefined): Promise<void> {
  if (!server) return;
  const exited = await Promise.race([server.stop().then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 4_000))]);
  if (!exited) {
    server.process.kill("SIGKILL");
    throw new Error("toolsmith web did not exit within 4 s of SIGINT");
  }
  expect(server.process.exitCode).toBe(0);
}

/**
 * `toolsmith web` serving the agents folder, and a Chromium page on `app` with a new session open: what each web UI
 * test of an app of its own starts from.
 */
export async function openAppInBrowser(agents: string, app: string): Promise<{ server: Awaited<ReturnType<typeof startToolsmith>>; browser: Browser; page: Page }> {
  await buildWebUi();
  const [server, browser] = await Promise.all([startToolsmith(["web", agents]), launchChromium()]);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await onlyLoopback(page, server.url);
  await page.goto(`${server.url}/#app=${app}`);
  await page.getByTestId("new-session").click();
  await page.getByTestId("session").first().waitFor();
  return { server, browser, page };
}
