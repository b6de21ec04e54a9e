// Runs a benchmark as users run toolsmith: bundled by esbuild with the package's own options (scripts/code-shape.mjs),
// toolsmith's source compiled in as dist/ is, every other package (the peers measured beside it, zod, drivers)
// loaded from node_modules as published. Under tsx, which keeps function names, toolsmith's code is not the code
// users get. Usage: node scripts/run-bundled.mjs bench/performance.ts [arguments for it]
// With --bundle-only first, it writes the bundle and prints its path without running it: for a benchmark that runs
// another bundled entry in processes of its own (bench/w1-in-fresh-processes.ts).
// The bundle is written beside the entry (as bench/.<name>.bundle.mjs, ignored by git), so that paths the benchmark
// finds from its own URL (the agents folder, the clients' worker) stay right; node runs it with --expose-gc.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { codeShape } from "./code-shape.mjs";

const bundleOnly = process.argv[2] === "--bundle-only";
const [entry, ...args] = process.argv.slice(bundleOnly ? 3 : 2);
if (!entry) {
  console.error("Usage: node scripts/run-bundled.mjs [--bundle-only] <benchmark.ts> [arguments]");
  process.exit(2);
}
const root = fileURLToPath(new URL("..", import.meta.url));
const entryPath = resolve(entry);
const outfile = join(dirname(entryPath), `.${basename(entryPath, ".ts")}.bundle.mjs`);
// Agents a benchmark loads at run time (bench/agents/) import "toolsmith", which is dist/: a dist older than src/
// mixes two versions of toolsmith in one run (the server bundled from src/, the agent from dist/), and the figures
// (or the errors: an older copy rejects options the newer one passes) are not of the code in the tree.
if (newestModification(join(root, "src")) > newestModification(join(root, "dist"))) {
  console.error("dist/ is older than src/: building it first (node scripts/build.mjs)");
  const built = spawnSync(process.execPath, [join(root, "scripts/build.mjs")], { stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
// The source condition resolves toolsmith's own subpath imports, if any, to src/, as the package's build does.
await build({ ...codeShape, absWorkingDir: root, entryPoints: [entryPath], outfile, conditions: ["toolsmith-source"] });
if (bundleOnly) {
  console.log(outfile);
  process.exit(0);
}
const run = spawnSync(process.execPath, ["--expose-gc", outfile, ...args], { stdio: "inherit" });
process.exit(run.status ?? 1);

/** The latest modification time of any file under `dir`, 0 when it does not exist. */
function newestModification(dir) {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return 0;
  }
  for (const entry of entries) if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  return newest;
}
