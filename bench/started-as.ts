import { basename } from "node:path";

/**
 * Whether node was started with the benchmark file `name` (without its extension): run from source (`name.ts`,
 * through tsx) or bundled by `scripts/run-bundled.mjs` (`.name.bundle.mjs`). A file's own `import.meta.url` cannot
 * tell once it is bundled into another benchmark: every bundled module shares the bundle's URL.
 */
export function startedAs(name: string): boolean {
  const started = basename(process.argv[1] ?? "");
  return started === `${name}.ts` || started === `.${name}.bundle.mjs`;
}
