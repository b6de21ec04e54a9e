/**
 * `npm run bench:performance` and `npm run bench:server` run their benchmark through `scripts/run-bundled.mjs`:
 * bundled with the package's own esbuild options, so toolsmith is measured as compiled for users (no function-name
 * wrappers, which tsx adds to every function and which cost a model turn about 45 %), with packages loaded from
 * node_modules, arguments passed on and the exit code kept.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const repository = fileURLToPath(new URL("../../", import.meta.url));
let folder: string | undefined;
afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

function runBundled(source: string, args: string[]) {
  folder = mkdtempSync(join(repository, "bench", ".run-bundled-test-"));
  const entry = join(folder, "probe.ts");
  writeFileSync(entry, source);
  const run = spawnSync(process.execPath, [join(repository, "scripts", "run-bundled.mjs"), entry, ...args], { cwd: repository, encoding: "utf8" });
  return { ...run, bundle: readFileSync(join(folder, ".probe.bundle.mjs"), "utf8") };
}

describe("scripts/run-bundled.mjs", () => {
  it("runs a benchmark bundled as the package is built: no name-keeping wrappers, toolsmith's source compiled in, packages from node_modules", () => {
    const source = [
      `import { z } from "zod";`,
      `import { startedAs } from ${JSON.stringify(join(repository, "bench", "started-as.ts"))};`,
      `import { newEventId } from ${JSON.stringify(join(repository, "src", "events", "new-id.ts"))};`,
      `const makers = [1, 2].map((n) => () => n);`,
      `console.log(JSON.stringify({ args: process.argv.slice(2), main: startedAs("probe"), other: startedAs("performance"), gc: typeof globalThis.gc, id: newEventId().length, zod: z.number().parse(3), made: makers.map((make) => make()) }));`,
      `process.exitCode = 7;`,
    ].join("\n");
    const run = runBundled(source, ["--quick", "x"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(7);
    expect(JSON.parse(run.stdout)).toEqual({ args: ["--quick", "x"], main: true, other: false, gc: "function", id: 12, zod: 3, made: [1, 2] });
    // tsx's keepNames would wrap each function in __name(...); the package's build does not, nor does this.
    expect(run.bundle).not.toContain("__name");
    expect(run.bundle).toContain("function newEventId");
    expect(run.bundle).toMatch(/from "zod"/);
  });
});
