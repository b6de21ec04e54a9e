import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { MCPConnectionParams } from "../../src/mcp/adk-connection-params.js";

const require = createRequire(import.meta.url);

/** The entry script of an MCP reference server installed from npm (`everything`, `filesystem`, `memory`). */
export function referenceServer(name: "everything" | "filesystem" | "memory"): string {
  return join(dirname(require.resolve(`@modelcontextprotocol/server-${name}/package.json`)), "dist", "index.js");
}

/**
 * ADK's stdio connection parameters for the npm `memory` server, keeping its file in a new folder; the folder is
 * removed by the function handed to `onCleanup`.
 */
export function memoryServerParams(onCleanup: (cleanup: () => void) => void): MCPConnectionParams {
  const folder = mkdtempSync(join(tmpdir(), "toolsmith-mcp-memory-"));
  onCleanup(() => rmSync(folder, { recursive: true, force: true }));
  return { type: "StdioConnectionParams", serverParams: { command: process.execPath, args: [referenceServer("memory")], env: { MEMORY_FILE_PATH: join(folder, "memory.jsonl") }, stderr: "ignore" } };
}
