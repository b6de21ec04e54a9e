import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** Every module URL a fresh Node process resolves while importing `entry`, recorded by a resolve hook. */
function modulesLoadedBy(entry: string): string[] {
  const directory = mkdtempSync(join(tmpdir(), "toolsmith-entry-"));
  const log = join(directory, "modules.log");
  const hook = `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) { const result = await next(specifier, context); appendFileSync(${JSON.stringify(log)}, result.url + "\\n"); return result; }`;
  const script = `import { register } from "node:module";
register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hook)}));
await import(${JSON.stringify(entry)});`;
  try {
    execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: process.cwd(), stdio: "pipe" });
    return readFileSync(log, "utf8").split("\n").filter(Boolean);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

describe("root entry", () => {
  it("loads none of the built-in tools, picomatch, ripgrep or child processes; the toolsmith/tools subpath does", () => {
    const heavy = ["/tools/builtin/", "/deep-agent/", "picomatch", "@vscode/ripgrep", "node:child_process"];
    const root = modulesLoadedBy("./src/index.ts");
    expect(root.some((url) => url.endsWith("/src/index.ts"))).toBe(true);
    expect(root.filter((url) => heavy.some((name) => url.includes(name)))).toEqual([]);
    // The same check sees them when the subpath is imported, so the empty list above means something.
    const tools = modulesLoadedBy("./src/tools/builtin/index.ts");
    expect(tools.some((url) => url.includes("picomatch"))).toBe(true);
    expect(tools.some((url) => url.includes("node:child_process"))).toBe(true);
  });
});
