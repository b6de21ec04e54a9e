import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { WEB_UI_DIR } from "../../src/server/create-api-app.js";
import { buildWebUi } from "../web/browser.js";
import { exampleApi } from "./helpers.js";

/** The content type each kind of file the page links must come with, or the browser refuses or misreads it. */
const EXPECTED_TYPES: Record<string, RegExp> = {
  css: /^text\/css\b/,
  js: /^text\/javascript\b/,
  svg: /^image\/svg\+xml\b/,
};

/** Every local URL index.html links or loads (href and src attributes). */
function linkedAssets(html: string): string[] {
  return [...html.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((match) => match[1]!);
}

describe("the web UI's files", () => {
  beforeAll(async () => {
    // app.js is built from ui/*.ts and not checked in.
    await buildWebUi();
  });

  it("serves / as HTML, and every file index.html links with the right content type", async () => {
    const { call } = await exampleApi({ webUi: true });
    const page = await call("/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html\b/);
    const assets = linkedAssets(await page.text());
    expect(assets).toEqual(["/ui/favicon.svg", "/ui/app.css", "/ui/app.js"]);
    for (const asset of assets) {
      const response = await call(asset);
      expect(response.status, asset).toBe(200);
      expect(response.headers.get("content-type"), asset).toMatch(EXPECTED_TYPES[asset.split(".").at(-1)!]!);
      expect((await response.arrayBuffer()).byteLength, asset).toBeGreaterThan(0);
    }
  });

  it("links an SVG favicon from the page, and answers /favicon.ico with it for browsers that ask there", async () => {
    const { call } = await exampleApi({ webUi: true });
    expect(await (await call("/")).text()).toContain('<link rel="icon" type="image/svg+xml" href="/ui/favicon.svg" />');
    const icon = await call("/favicon.ico");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(await icon.text()).toBe(readFileSync(`${WEB_UI_DIR}favicon.svg`, "utf8"));
  });

  it("leaves /favicon.ico to the API's 404 when the server has no web UI", async () => {
    const { call } = await exampleApi();
    expect((await call("/favicon.ico")).status).toBe(404);
    expect((await call("/")).status).toBe(404);
  });

  it("finds no file, with a 404 and not a server failure, for paths that leave the folder or are malformed", async () => {
    const { call } = await exampleApi({ webUi: true });
    for (const path of ["/ui/%E0%A4%A", "/ui/..%2f..%2fpackage.json", "/ui/..%5c..%5cpackage.json", "/ui/%2e%2e/%2e%2e/package.json", "/ui/../../package.json"]) {
      const response = await call(path);
      expect([path, response.status]).toEqual([path, 404]);
      expect(((await response.json()) as { code: string }).code).toBe("NOT_FOUND");
    }
  });
});
