// Builds the package as users get it (run by `npm run build`, `npm ci`/`npm install` through
// prepare, and `npm pack`/`npm publish` through prepack):
// - dist/: every entry of package.json "exports" (and the CLI) bundled by esbuild with code
//   splitting, so `import "toolsmith"` reads a handful of files instead of ~60 (measured: 9 ms
//   against 40 ms); dependencies stay external, and the code they share lives in one chunk each;
// - dist/**/*.d.ts: the type declarations, from tsc;
// - web-ui/app.js: the web UI bundle.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

// Each export's source file, from its "toolsmith-source" condition, plus the CLI the bin script runs.
const entryPoints = [...Object.values(manifest.exports).map((entry) => entry["toolsmith-source"]), "./src/cli/main.ts"];

rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints,
  outbase: "src",
  outdir: "dist",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  logLevel: "warning",
});
execFileSync(process.execPath, [fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url)), "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
await import("./build-ui.mjs");
