import type { Tool as McpToolDefinition } from "@modelcontextprotocol/sdk/types.js";
import type { ReadonlyContext } from "../agents/readonly-context.js";
import type { Model } from "../models/model.js";
import type { Tool, Toolset } from "../tools/tool.js";
import { filterToolset, prefixToolset, type ToolFilter } from "../tools/toolset-wrappers.js";
import { isHttpConnection, type McpConnection } from "./mcp-connection.js";
import { McpSession, withCallHeaders, type ElicitationHandler } from "./mcp-session.js";
import { McpTool, type McpConfirmationRule, type McpProgress, type McpToolSettings } from "./mcp-tool.js";

/** Options of {@link MCPToolset}. */
export interface MCPToolsetOptions {
  /** How to reach the server: a command to start (stdio), or a URL (`type: "http"` or `"sse"`). */
  connection: McpConnection;
  /** Which of the server's tools to offer: names (the server's own) or a predicate. */
  toolFilter?: ToolFilter;
  /** Offer the tools as `prefix_name`; the server is still called with `name`. */
  prefix?: string;
  /** Ask a person before a call: always, or per tool and arguments. */
  requireConfirmation?: McpConfirmationRule;
  /** The longest one call may wait for the server, restarted by each progress notification. Default 60 000 ms. */
  callTimeoutMs?: number;
  /** Called for each progress notification the server sends during a call. */
  onProgress?: (progress: McpProgress) => void;
  /**
   * Answers a server that asks for input from the user during a call (MCP
   * elicitation), e.g. from a UI; without it the client does not offer
   * elicitation. Fields the answer leaves out get the schema's defaults.
   */
  onElicitation?: ElicitationHandler;
  /**
   * Answers a server's requests for a model completion (MCP sampling) with
   * this model; without it the client does not offer sampling.
   */
  samplingModel?: Model;
  /** The client name sent to the server. Default `"toolsmith"`. */
  clientName?: string;
}

/**
 * The tools of an MCP server. One session is opened on first use and reused
 * for listing and calling; the tool list is cached until the server announces
 * a change; after the server dies or the connection drops, the next use
 * connects again. `close()` ends the session and the server process.
 *
 * @example
 * ```ts
 * const files = new MCPToolset({
 *   connection: { command: "npx", args: ["@modelcontextprotocol/server-filesystem", "/tmp/data"] },
 *   toolFilter: ["read_text_file", "list_directory"],
 *   prefix: "files",
 * });
 * const agent = new LlmAgent({ name: "librarian", model, tools: [files] });
 * // … and when done: await runner.close();
 * ```
 */
export class MCPToolset implements Toolset {
  readonly #session: McpSession;
  readonly #settings: McpToolSettings;
  readonly #outer: Toolset;
  readonly #toolsByDefinition = new WeakMap<McpToolDefinition, McpTool>();
  readonly #connection: McpConnection;

  constructor(options: MCPToolsetOptions) {
    this.#connection = options.connection;
    this.#session = new McpSession({ connection: options.connection, clientName: options.clientName, onElicitation: options.onElicitation, samplingModel: options.samplingModel });
    this.#settings = {
      session: this.#session,
      headers: isHttpConnection(options.connection) ? options.connection.headers : undefined,
      requireConfirmation: options.requireConfirmation,
      callTimeoutMs: options.callTimeoutMs ?? 60_000,
      onProgress: options.onProgress,
    };
    let toolset: Toolset = { getTools: (context) => this.#serverTools(context), close: () => this.#session.close() };
    if (options.toolFilter) toolset = filterToolset(toolset, options.toolFilter);
    if (options.prefix) toolset = prefixToolset(toolset, options.prefix);
    this.#outer = toolset;
  }

  getTools(context: ReadonlyContext): Promise<Tool[]> {
    return this.#outer.getTools(context);
  }

  close(): Promise<void> {
    return this.#outer.close();
  }

  async #serverTools(context: ReadonlyContext): Promise<Tool[]> {
    const headers = isHttpConnection(this.#connection) && typeof this.#connection.headers === "function" ? await this.#connection.headers(context) : undefined;
    const definitions = await withCallHeaders(headers, () => this.#session.listTools());
    return definitions.map((definition) => {
      let tool = this.#toolsByDefinition.get(definition);
      if (!tool) {
        tool = new McpTool(definition, this.#settings);
        this.#toolsByDefinition.set(definition, tool);
      }
      return tool;
    });
  }
}
