import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

describe("the root entry", () => {
  it("loads none of the optional parts: no server framework, no TypeScript loader API", async () => {
    const script = `await import("./src/index.ts");`;
    // A loader hook reports every module URL resolved while the root entry loads.
    const hook = "data:text/javascript," + encodeURIComponent(`export async function resolve(specifier, context, next) { const result = await next(specifier, context); process.stderr.write("LOADED " + result.url + "\\n"); return result; }`);
    const register = `import { register } from "node:module"; register(${JSON.stringify(hook)});`;
    const { stderr } = await run(process.execPath, ["--import", "tsx", "--import", "data:text/javascript," + encodeURIComponent(register), "--input-type=module", "-e", script], { timeout: 60_000 });
    const urls = stderr.split("\n").filter((line) => line.startsWith("LOADED ")).map((line) => line.slice(7));
    expect(urls.some((url) => url.includes("/src/index.ts"))).toBe(true);
    for (const heavy of ["/node_modules/hono/", "/node_modules/@hono/", "/src/server/", "/src/cli/", "playwright"]) {
      expect(urls.filter((url) => url.includes(heavy) && !url.includes("/tsx/"))).toEqual([]);
    }
  });
});
