// Builds the package as users get it (run by `npm run build`, `npm ci`/`npm install` through
// prepare, and `npm pack`/`npm publish` through prepack):
// - dist/: every entry of package.json "exports" (and the CLI) bundled by esbuild with code
//   splitting, so `import "toolsmith"` reads a handful of files instead of ~60 (measured: 9 ms
//   against 40 ms); dependencies stay external, and the code they share lives in one chunk each;
//   the other entries, and the modules the root loads on demand, import the root entry first (see
//   rootEntryFirst), which keeps the root's code in one chunk: `import "toolsmith"` reads 2 files
//   instead of 19 (measured: 1.19 to 1.23 against 1.36 times a bare `node -e ''`);
// - dist/**/*.d.ts: the type declarations, from tsc;
// - web-ui/app.js: the web UI bundle.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { codeShape } from "./code-shape.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

// Each export's source file, from its "toolsmith-source" condition, plus the CLI the bin script runs.
const entryPoints = [...Object.values(manifest.exports).map((entry) => entry["toolsmith-source"]), "./src/cli/main.ts"];

const ROOT_ENTRY = "./src/index.ts";
/** The schema compiler stands alone (an adapter of another framework may use it without toolsmith's runtime). */
const STANDALONE_ENTRIES = new Set([ROOT_ENTRY, manifest.exports["./models"]["toolsmith-source"]]);

const options = {
  ...codeShape,
  absWorkingDir: root,
  entryPoints,
  outbase: "src",
  outdir: "dist",
  chunkNames: "chunks/[name]-[hash]",
  splitting: true,
};

/**
 * esbuild puts code in one chunk per set of entries that reach it (a module
 * loaded with `import()` counts as an entry), so the root entry's code, shared
 * in different ways by 15 entries and 10 such modules, came out in 19 files,
 * which cost a third of the import's time. Making every other entry, and every
 * module loaded with `import()`, import the root entry first gives all of the
 * root's code the same set of entries, and so one chunk. Those entries use most
 * of the root's code anyway (they extend agents, runs and tools), and the
 * modules loaded on demand are loaded by the root's code, so it is there already.
 */
const rootEntryFirst = {
  name: "root-entry-first",
  async setup(builder) {
    const rootEntry = join(root, ROOT_ENTRY);
    const extending = new Set(entryPoints.filter((entry) => !STANDALONE_ENTRIES.has(entry)).map((entry) => join(root, entry)));
    // A first pass, written nowhere, finds the modules loaded with import().
    const { metafile } = await build({ ...options, write: false, metafile: true });
    for (const input of Object.values(metafile.inputs)) {
      for (const imported of input.imports) if (imported.kind === "dynamic-import" && !imported.external) extending.add(join(root, imported.path));
    }
    builder.onLoad({ filter: /\.ts$/ }, (args) => {
      if (!extending.has(args.path)) return undefined;
      return { contents: `import ${JSON.stringify(rootEntry)};\n${readFileSync(args.path, "utf8")}`, loader: "ts", resolveDir: dirname(args.path) };
    });
  },
};

rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
await build({ ...options, plugins: [rootEntryFirst] });
execFileSync(process.execPath, [fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url)), "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
await import("./build-ui.mjs");
