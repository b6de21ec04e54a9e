import { spawn, type ChildProcess } from "node:child_process";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { chromium, type Browser, type Page } from "playwright-core";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";

/** Debian's Chromium, installed by .ci/run. */
export const CHROMIUM = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);
// CI installs Chromium (.ci/run), so there a missing browser is a failure, not a reason to skip.
if (process.env.CI && !hasChromium) throw new Error(`${CHROMIUM} is missing; .ci/run installs Debian's chromium package.`);

/** Headless Chromium with the flags that work as root on these machines, and any `extraArgs`. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", ...extraArgs],
  });
}

/**
 * Chromium's stand-in microphone (a beeping tone, given to a page only once it is granted the permission) and audio
 * that plays without a click first: for tests of talking to an agent.
 */
export const FAKE_MICROPHONE = ["--use-fake-device-for-media-stream", "--autoplay-policy=no-user-gesture-required"];

/** Bundles the web UI from its sources, so the test sees the current code. */
export async function buildWebUi(): Promise<void> {
  await promisify(execFile)(process.execPath, ["scripts/build-ui.mjs"], { timeout: 60_000 });
}

/** `toolsmith <command> <args>` on a free loopback port; resolves once it prints its URL. */
export async function startToolsmith(args: string[]): Promise<{ url: string; process: ChildProcess; stop(): Promise<void> }> {
  // The real default stores (SQLite and a folder), in a fresh folder rather than the checkout's .toolsmith/.
  const home = mkdtempSync(join(tmpdir(), "toolsmith-web-"));
  const stores = ["--session-service-uri", `sqlite://${join(home, "toolsmith.db")}`, "--artifact-service-uri", `file://${join(home, "artifacts")}`];
  const child = spawn(process.execPath, [...SOURCE_NODE_FLAGS, "bin/toolsmith.mjs", ...args, ...stores, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", () => reject(new Error(`toolsmith exited early: ${output}`)));
  });
  return {
    url,
    process: child,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill("SIGINT");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

/** Lets the page reach only the server under test, so nothing waits on the outside world. */
export async function onlyLoopback(page: Page, origin: string): Promise<void> {
  await page.route("**/*", (route) => (route.request().url().startsWith(origin) || route.request().url().startsWith("data:") ? route.continue() : route.abort()));
}

/** Icon fonts ADK's dev UI loads from Google's CDN, served from the npm packages instead. */
const ADK_DEV_UI_FONTS: [RegExp, string][] = [
  [/\/s\/materialicons\//, "node_modules/material-icons/iconfont/material-icons.woff2"],
  [/\/s\/materialsymbolsoutlined\//, "node_modules/material-symbols/material-symbols-outlined.woff2"],
];

/** {@link onlyLoopback}, with the icon fonts ADK's dev UI asks Google's CDN for served from the npm packages. */
export async function onlyLoopbackAndLocalFonts(page: Page, origin: string): Promise<void> {
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(origin)) return route.continue();
    const font = ADK_DEV_UI_FONTS.find(([pattern]) => pattern.test(url));
    if (font) return route.fulfill({ status: 200, contentType: "font/woff2", body: readFileSync(font[1]) });
    return route.abort();
  });
}

/**
 * Where a test saves a screenshot of a main view: under docs/ (shown in the
 * README) when UPDATE_SCREENSHOTS=1, else in the temp folder, so a plain test
 * run leaves the working tree unchanged.
 */
export function screenshotPath(name: string): string {
  return process.env.UPDATE_SCREENSHOTS === "1" ? `docs/${name}` : join(tmpdir(), `toolsmith-${name}`);
}
