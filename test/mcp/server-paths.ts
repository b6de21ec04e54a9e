import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** The entry script of an MCP reference server installed from npm (`everything`, `filesystem`, `memory`). */
export function referenceServer(name: "everything" | "filesystem" | "memory"): string {
  return join(dirname(require.resolve(`@modelcontextprotocol/server-${name}/package.json`)), "dist", "index.js");
}
