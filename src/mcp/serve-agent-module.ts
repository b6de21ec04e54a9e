import { isAbsolute, resolve } from "node:path";
import { importUserModule } from "../platform/import-user-module.js";
import { rootExportOf } from "../runner/module-exports.js";
import { createMcpServer, type McpHttpListener, type McpServerOptions, type ToolsmithMcpServer } from "./mcp-server.js";

/** Options of {@link serveAgentModule}. */
export interface ServeAgentModuleOptions extends Omit<McpServerOptions, "agents"> {
  /** The module file (relative to the working directory, or absolute). */
  modulePath: string;
  /** The export that holds the agent or its `App`. Default: where every command looks (see the README's agent modules). */
  exportName?: string;
  /** Serve Streamable HTTP on this port and host; without it, stdio. */
  http?: { port?: number; host?: string };
}

/**
 * Loads an agent from a module and serves it as an MCP tool (with any extra
 * `tools` given), over stdio or Streamable HTTP. This is what a
 * `toolsmith mcp <module>` command runs.
 *
 * @example
 * ```ts
 * await serveAgentModule({ modulePath: "./dist/agent.js" });                    // stdio
 * const { url } = await serveAgentModule({ modulePath: "./dist/agent.js", http: { port: 3000 } });
 * ```
 */
export async function serveAgentModule(options: ServeAgentModuleOptions): Promise<{ server: ToolsmithMcpServer; listener?: McpHttpListener }> {
  const { modulePath, exportName, http, ...serverOptions } = options;
  const loaded = await importUserModule(isAbsolute(modulePath) ? modulePath : resolve(modulePath));
  const agent = rootExportOf(loaded, modulePath, exportName);
  const server = createMcpServer({ ...serverOptions, agents: [agent] });
  if (!http) {
    await server.serveStdio();
    return { server };
  }
  return { server, listener: await server.listen(http) };
}
