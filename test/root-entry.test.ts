import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** Every module URL a fresh Node process resolves while importing `entry`, recorded by a loader hook. */
function modulesLoadedBy(entry: string): string[] {
  const folder = mkdtempSync(join(tmpdir(), "toolsmith-entry-"));
  const log = join(folder, "resolved.txt");
  const hook = `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + "\\n");
  return result;
}`;
  const script = `import { register } from "node:module";
register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hook)}));
await import(${JSON.stringify(entry)});`;
  try {
    execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: process.cwd(), stdio: "pipe" });
    return readFileSync(log, "utf8").split("\n").filter(Boolean);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const optionalPackages = ["@modelcontextprotocol/sdk", "@apidevtools/json-schema-ref-parser", "/node_modules/ai/", "@langchain/core", "/node_modules/yaml/", "js-yaml"];

describe("the root entry", () => {
  it("loads none of the optional SDKs that subpaths use", () => {
    const loaded = modulesLoadedBy(new URL("../src/index.ts", import.meta.url).href);
    expect(loaded.some((url) => url.endsWith("/src/index.ts"))).toBe(true);
    expect(loaded.filter((url) => optionalPackages.some((name) => url.includes(name)))).toEqual([]);
  });

  it("is honest: the MCP subpath does load the MCP SDK", () => {
    const loaded = modulesLoadedBy(new URL("../src/mcp/index.ts", import.meta.url).href);
    expect(loaded.some((url) => url.includes("@modelcontextprotocol/sdk"))).toBe(true);
  });
});
