import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

/** tsx's loader by absolute URL, so a child process finds it whatever its working directory. */
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/**
 * Node flags for a child process that should run toolsmith from its TypeScript
 * sources: tsx loads the `.ts` files, and the `toolsmith-source` condition of
 * package.json "exports" makes `import "toolsmith"` (as the examples write it)
 * resolve to `src/` instead of the last build in `dist/`. The bin script runs
 * the CLI from `src/` too when it sees the condition.
 */
export const SOURCE_NODE_FLAGS: readonly string[] = ["--conditions=toolsmith-source", "--import", TSX_LOADER];
