import type { McpOAuthOptions } from "./mcp-oauth.js";
import type { ReadonlyContext } from "../agents/readonly-context.js";

/** Headers for HTTP connections: fixed, or computed from the context of each call (per-user tokens). */
export type McpHeaders = Record<string, string> | ((context: ReadonlyContext) => Record<string, string> | Promise<Record<string, string>>);

/** Start an MCP server as a child process and speak to it over stdin and stdout. */
export interface McpStdioConnection {
  type?: "stdio";
  command: string;
  args?: readonly string[];
  /** Added to the SDK's default environment (HOME, PATH, …), not instead of it. */
  env?: Record<string, string>;
  cwd?: string;
  /** Where the child's stderr goes. Default `"inherit"`. */
  stderr?: "inherit" | "ignore" | "pipe";
}

/** Connect to an MCP server over Streamable HTTP (`type: "http"`) or legacy HTTP+SSE (`type: "sse"`). */
export interface McpHttpConnection {
  type: "http" | "sse";
  /** The endpoint: `…/mcp` for Streamable HTTP, `…/sse` for SSE. */
  url: string;
  headers?: McpHeaders;
  /** OAuth 2.1 for a server behind authorization: discovery, registration, PKCE, refresh and scope step-up by the MCP SDK. */
  auth?: McpOAuthOptions;
}

/** How {@link MCPToolset} reaches its server. */
export type McpConnection = McpStdioConnection | McpHttpConnection;

/** Whether the connection speaks HTTP (Streamable HTTP or SSE) rather than stdio. */
export function isHttpConnection(connection: McpConnection): connection is McpHttpConnection {
  return connection.type === "http" || connection.type === "sse";
}
