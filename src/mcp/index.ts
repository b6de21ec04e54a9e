/**
 * MCP for toolsmith: {@link MCPToolset} offers an MCP server's tools to an
 * agent, and {@link createMcpServer} serves toolsmith tools, toolsets and
 * agents to MCP clients. Needs the optional peer `@modelcontextprotocol/sdk`.
 *
 * @module toolsmith/mcp
 */
export { MCPToolset, type MCPToolsetOptions } from "./mcp-toolset.js";
export type { MCPConnectionParams, StdioConnectionParams, StreamableHTTPConnectionParams } from "./adk-connection-params.js";
export type { ElicitationHandler } from "./mcp-session.js";
export { MCPSessionManager } from "./mcp-session-manager.js";
export { McpTool, McpTool as MCPTool, type McpProgress, type McpConfirmationRule } from "./mcp-tool.js";
export type { McpConnection, McpStdioConnection, McpHttpConnection, McpHeaders } from "./mcp-connection.js";
export { callToolResultToResponse } from "./call-tool-result.js";
export { moveMediaIntoParts } from "./move-media-into-parts.js";
export { createMcpServer, ToolsmithMcpServer, type McpServerOptions, type McpHttpListener } from "./mcp-server.js";
export { agentAsTool } from "./agent-as-tool.js";
export { toolValueToCallResult } from "./tool-value-to-call-result.js";
export { serveAgentModule, type ServeAgentModuleOptions } from "./serve-agent-module.js";
export { reportProgress, type ProgressUpdate } from "./report-progress.js";
export { sampleFromClient, elicitFromClient, logToClient, closeResponseStream, isServedOverMcp } from "./served-context.js";
export type {
  McpServedResource,
  McpServedResourceTemplate,
  McpServedPrompt,
  McpResourceBody,
  McpReadContext,
  McpCompleter,
} from "./served-catalog.js";
export { InMemoryEventStore } from "./in-memory-event-store.js";
export { LoadMcpResourceTool } from "./load-mcp-resource-tool.js";
export type { McpResourceContents } from "./mcp-toolset.js";
export type { McpLogMessage } from "./mcp-session.js";
export { McpSignInNeeded, type McpOAuthOptions } from "./mcp-oauth.js";
