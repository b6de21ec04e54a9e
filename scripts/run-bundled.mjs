// Runs a benchmark as users run toolsmith: bundled by esbuild with the package's own options (scripts/code-shape.mjs),
// toolsmith's source compiled in as dist/ is, every other package (the peers measured beside it, zod, drivers)
// loaded from node_modules as published. Under tsx, which keeps function names, toolsmith's code is not the code
// users get. Usage: node scripts/run-bundled.mjs bench/performance.ts [arguments for it]
// The bundle is written beside the entry (as bench/.<name>.bundle.mjs, ignored by git), so that paths the benchmark
// finds from its own URL (the agents folder, the clients' worker) stay right; node runs it with --expose-gc.
import { spawnSync } from "node:child_process";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { codeShape } from "./code-shape.mjs";

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error("Usage: node scripts/run-bundled.mjs <benchmark.ts> [arguments]");
  process.exit(2);
}
const root = fileURLToPath(new URL("..", import.meta.url));
const entryPath = resolve(entry);
const outfile = join(dirname(entryPath), `.${basename(entryPath, ".ts")}.bundle.mjs`);
// The source condition resolves toolsmith's own subpath imports, if any, to src/, as the package's build does.
await build({ ...codeShape, absWorkingDir: root, entryPoints: [entryPath], outfile, conditions: ["toolsmith-source"] });
const run = spawnSync(process.execPath, ["--expose-gc", outfile, ...args], { stdio: "inherit" });
process.exit(run.status ?? 1);
