import { isAbsolute, resolve } from "node:path";
import type { Agent } from "../agents/agent.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { importUserModule } from "../platform/import-user-module.js";
import { isApp, type App } from "../runner/app.js";
import { createMcpServer, type McpHttpListener, type McpServerOptions, type ToolsmithMcpServer } from "./mcp-server.js";

/** Options of {@link serveAgentModule}. */
export interface ServeAgentModuleOptions extends Omit<McpServerOptions, "agents"> {
  /** The module file (relative to the working directory, or absolute). */
  modulePath: string;
  /** The export that holds the agent or its `App`. Default: `app`, then `rootApp`, `rootAgent`, `agent`, and the default export. */
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
  const names = exportName ? [exportName] : ["app", "rootApp", "rootAgent", "agent", "default"];
  const agent = names.map((name) => loaded[name]).find((value): value is Agent | App => isApp(value) || isAgent(value));
  if (!agent) {
    throw new ConfigurationError(
      "NO_AGENT_EXPORT",
      `Module ${modulePath} exports no agent or App as ${names.map((name) => `"${name}"`).join(", ")}. Export your root agent as "rootAgent", or name the export.`,
    );
  }
  const server = createMcpServer({ ...serverOptions, agents: [agent] });
  if (!http) {
    await server.serveStdio();
    return { server };
  }
  return { server, listener: await server.listen(http) };
}

function isAgent(value: unknown): value is Agent {
  return typeof value === "object" && value !== null && typeof (value as Agent).name === "string" && typeof (value as Agent).runAsync === "function";
}
