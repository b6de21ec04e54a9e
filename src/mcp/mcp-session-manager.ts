import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolsmithError } from "../errors/toolsmith-error.js";
import { fromAdkConnectionParams, type MCPConnectionParams } from "./adk-connection-params.js";
import type { McpConnection } from "./mcp-connection.js";
import { McpSession } from "./mcp-session.js";

/**
 * ADK's `MCPSessionManager`: MCP clients of one server made by hand, for a program that talks to the server
 * itself (its resources, prompts or tools) rather than through an `MCPToolset`, which keeps its own session.
 * Each `createSession()` connects a new client (the MCP SDK's `Client`) with toolsmith's connection handling (ADK's
 * connection params are read as `MCPToolset` reads them, and refused as it refuses them); `closeSession(client)`
 * closes one it made (and ends a stdio server's process); `getActiveSessions()` lists those still open.
 *
 * @example
 * ```ts
 * const manager = new MCPSessionManager({ type: "StdioConnectionParams", serverParams: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] } });
 * const client = await manager.createSession();
 * const { tools } = await client.listTools();
 * await manager.closeSession(client);
 * ```
 */
export class MCPSessionManager {
  readonly #connection: McpConnection;
  readonly #sessions = new Map<Client, McpSession>();

  constructor(connectionParams: MCPConnectionParams) {
    // Read (and checked) now, so a parameter toolsmith refuses fails where the manager is made, as an MCPToolset's does.
    this.#connection = fromAdkConnectionParams(connectionParams);
  }

  /** A newly connected client; a server that cannot be reached is `MCP_CONNECTION_FAILED`, its message ADK's ("Failed to create MCP session: …"). */
  async createSession(): Promise<Client> {
    const session = new McpSession({ connection: this.#connection });
    let client: Client;
    try {
      client = await session.client();
    } catch (error) {
      await session.close();
      throw new ToolsmithError("MCP_CONNECTION_FAILED", `Failed to create MCP session: ${(error as Error)?.message ?? String(error)}. Check the server's command or URL, and that it speaks MCP.`, { cause: error });
    }
    this.#sessions.set(client, session);
    return client;
  }

  /** Closes a client this manager made (a stdio server's process ends with it); any other client is left alone, as in ADK. */
  async closeSession(client: Client): Promise<void> {
    const session = this.#sessions.get(client);
    if (!session) return;
    this.#sessions.delete(client);
    await session.close();
  }

  /** The clients this manager made that are not closed yet. */
  getActiveSessions(): Client[] {
    return [...this.#sessions.keys()];
  }
}
