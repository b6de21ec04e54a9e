import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { McpConnection } from "./mcp-connection.js";

/** ADK's stdio connection: the MCP SDK's `StdioServerParameters` under `serverParams`. */
export interface StdioConnectionParams {
  type: "StdioConnectionParams";
  serverParams: { command: string; args?: string[]; env?: Record<string, string>; cwd?: string; stderr?: unknown };
  /** Read by neither ADK nor toolsmith: refused unless left out (see {@link fromAdkConnectionParams}). */
  timeout?: number;
}

/** ADK's Streamable HTTP connection. */
export interface StreamableHTTPConnectionParams {
  type: "StreamableHTTPConnectionParams";
  url: string;
  /** ADK's deprecated place for headers; `transportOptions.requestInit.headers` wins when both are given. */
  header?: Record<string, unknown>;
  timeout?: number;
  sseReadTimeout?: number;
  terminateOnClose?: boolean;
  /** Only `requestInit.headers` is taken; other transport options are refused. */
  transportOptions?: { requestInit?: { headers?: Record<string, string> } } & Record<string, unknown>;
}

/** ADK's `MCPConnectionParams`, the first argument of its `new MCPToolset(connectionParams, toolFilter?, prefix?)`. */
export type MCPConnectionParams = StdioConnectionParams | StreamableHTTPConnectionParams;

/** Whether a value is ADK's connection parameters rather than toolsmith's toolset options. */
export function isAdkConnectionParams(value: unknown): value is MCPConnectionParams {
  const type = (value as { type?: unknown } | undefined)?.type;
  return type === "StdioConnectionParams" || type === "StreamableHTTPConnectionParams";
}

const STDERR = new Set(["inherit", "ignore", "pipe"]);

/**
 * toolsmith's connection for ADK's parameters. What toolsmith cannot honour is refused by name rather than
 * dropped: ADK's `timeout`, `sseReadTimeout` and `terminateOnClose` (which ADK 2.0 itself never reads), transport
 * options other than headers, and a `stderr` stream or descriptor.
 */
export function fromAdkConnectionParams(params: MCPConnectionParams): McpConnection {
  const refuse = (option: string, instead: string) =>
    new ConfigurationError("UNSUPPORTED_OPTION", `MCPToolset: ${params.type}.${option} is not supported by toolsmith (ADK 2.0 does not read it either). ${instead}`);
  if (params.timeout !== undefined) throw refuse("timeout", "Leave it out; the longest a call may wait is MCPToolset's callTimeoutMs option.");
  if (params.type === "StdioConnectionParams") {
    const { command, args, env, cwd, stderr } = params.serverParams;
    if (stderr !== undefined && !(typeof stderr === "string" && STDERR.has(stderr))) throw refuse("serverParams.stderr", 'Use "inherit", "ignore" or "pipe".');
    return { type: "stdio", command, args, env, cwd, stderr: stderr as "inherit" | "ignore" | "pipe" | undefined };
  }
  if (params.sseReadTimeout !== undefined) throw refuse("sseReadTimeout", "Leave it out.");
  if (params.terminateOnClose !== undefined) throw refuse("terminateOnClose", "Leave it out: toolsmith ends the server's session when the toolset closes.");
  const { requestInit, ...otherTransportOptions } = params.transportOptions ?? {};
  const otherRequestInit = Object.keys(requestInit ?? {}).filter((key) => key !== "headers");
  const unsupported = [...Object.keys(otherTransportOptions), ...otherRequestInit.map((key) => `requestInit.${key}`)];
  if (unsupported.length > 0) throw refuse(`transportOptions.${unsupported[0]}`, "Only transportOptions.requestInit.headers is taken; for OAuth use toolsmith's connection auth option.");
  // As ADK: the transport options' headers, when given, replace the deprecated header field.
  const headers = params.transportOptions ? requestInit?.headers : params.header;
  return { type: "http", url: params.url, headers: headers === undefined ? undefined : Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)])) };
}
