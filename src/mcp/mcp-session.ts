import { ToolsmithError } from "../errors/toolsmith-error.js";
import { AsyncLocalStorage } from "node:async_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  type LoggingMessageNotification,
  type Root,
  type Tool as McpToolDefinition,
} from "@modelcontextprotocol/sdk/types.js";
import { McpAuthorization } from "./mcp-oauth.js";
import { isHttpConnection, type McpConnection } from "./mcp-connection.js";

/** Answers a server's request for input from the user (MCP elicitation). */
export type ElicitationHandler = (request: ElicitRequest["params"]) => Promise<ElicitResult>;

/** Answers a server's request for a model completion (MCP sampling). */
export type SamplingHandler = (request: CreateMessageRequest["params"], signal: AbortSignal) => Promise<CreateMessageResult>;

/** A log message an MCP server sent (`notifications/message`). */
export type McpLogMessage = LoggingMessageNotification["params"];

/** What a session is told besides answers: log messages and changed resources. */
export interface McpSessionListeners {
  onLog?: (message: McpLogMessage) => void;
  onResourceUpdated?: (uri: string) => void;
}

/** Headers for the requests made while a call runs; a fetch wrapper reads them, so concurrent calls keep their own. */
const callHeaders = new AsyncLocalStorage<Record<string, string>>();

/** Runs `work` with these headers on every HTTP request it makes to the server. */
export function withCallHeaders<T>(headers: Record<string, string> | undefined, work: () => Promise<T>): Promise<T> {
  return headers ? callHeaders.run(headers, work) : work();
}

/**
 * One lazily opened MCP client session, reused for listing and calling, and
 * opened again on the next use after the server dies or the connection drops.
 * The tool list is cached until the server says it changed.
 */
export class McpSession {
  readonly #connection: McpConnection;
  readonly #clientName: string;
  readonly #onElicitation?: ElicitationHandler;
  readonly #onSampling?: SamplingHandler;
  readonly #roots?: readonly Root[];
  readonly #listeners: McpSessionListeners;
  readonly #logLevel?: McpLogMessage["level"];
  /** OAuth for an HTTP server behind authorization; the transports use its provider. */
  readonly authorization?: McpAuthorization;
  #client: Promise<Client> | undefined;
  /** The client once connected, so that `reset` can tell at once whether it is still the current one. */
  #connected: Client | undefined;
  #tools: Promise<McpToolDefinition[]> | undefined;
  #closed = false;

  constructor(options: {
    connection: McpConnection;
    clientName?: string;
    onElicitation?: ElicitationHandler;
    onSampling?: SamplingHandler;
    roots?: readonly Root[];
    listeners?: McpSessionListeners;
    logLevel?: McpLogMessage["level"];
  }) {
    this.#connection = options.connection;
    this.#roots = options.roots;
    this.#listeners = options.listeners ?? {};
    this.#logLevel = options.logLevel;
    if (isHttpConnection(options.connection) && options.connection.auth) this.authorization = new McpAuthorization(options.connection.url, options.connection.auth);
    this.#clientName = options.clientName ?? "toolsmith";
    this.#onElicitation = options.onElicitation;
    this.#onSampling = options.onSampling;
  }

  /** The connected client, connecting first if there is none. */
  client(): Promise<Client> {
    if (this.#closed) return Promise.reject(new Error("The MCP toolset was closed."));
    if (!this.#client) {
      const opening = this.#connect();
      this.#client = opening;
      // A failed connection is not kept: the next use tries again.
      opening.catch(() => {
        if (this.#client === opening) this.#client = undefined;
      });
    }
    return this.#client;
  }

  /** The server's tools, from the cache when the server has not announced a change. */
  listTools(): Promise<McpToolDefinition[]> {
    if (!this.#tools) {
      const listing = this.#listAllTools();
      this.#tools = listing;
      listing.catch(() => {
        if (this.#tools === listing) this.#tools = undefined;
      });
    }
    return this.#tools;
  }

  /** Forgets the client so that the next use connects again; the old one is closed. */
  reset(client?: Client): void {
    if (client && client !== this.#connected) return;
    this.#forget();
  }

  /** Ends the session and the server process; later use fails. */
  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    this.#tools = undefined;
    if (client) await client.then((opened) => opened.close()).catch(() => undefined);
  }

  #forget(): void {
    const client = this.#client;
    this.#client = undefined;
    this.#connected = undefined;
    this.#tools = undefined;
    if (client) void client.then((opened) => opened.close()).catch(() => undefined);
  }

  async #listAllTools(): Promise<McpToolDefinition[]> {
    const client = await this.client();
    return allPages(async (cursor) => {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      return { items: page.tools, nextCursor: page.nextCursor };
    });
  }

  async #connect(): Promise<Client> {
    const onElicitation = this.#onElicitation;
    // Elicitation and sampling are offered only when someone can answer them; the SDK fills in the schema's defaults for fields left out.
    const onSampling = this.#onSampling;
    const client = new Client(
      { name: this.#clientName, version: "0.1.0" },
      {
        capabilities: {
          ...(onElicitation ? { elicitation: { form: { applyDefaults: true } } } : {}),
          ...(onSampling ? { sampling: {} } : {}),
          ...(this.#roots ? { roots: {} } : {}),
        },
      },
    );
    if (onElicitation) client.setRequestHandler(ElicitRequestSchema, (request) => onElicitation(request.params));
    if (onSampling) client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => onSampling(request.params, extra.signal));
    const roots = this.#roots;
    if (roots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [...roots] }));
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (notification) => this.#listeners.onLog?.(notification.params));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => this.#listeners.onResourceUpdated?.(notification.params.uri));
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      this.#tools = undefined;
    });
    client.onclose = () => this.reset(client);
    // A legacy SSE session lives as long as its event stream: when the stream fails, the session is gone.
    if (this.#connection.type === "sse") client.onerror = () => this.reset(client);
    await client.connect(this.#createTransport());
    if (this.#closed) {
      // close() ran while this connection was being opened: do not leave its server running.
      await client.close().catch(() => undefined);
      throw new ToolsmithError("MCP_TOOLSET_CLOSED", "The MCP toolset was closed. Make a new MCPToolset to connect again.");
    }
    this.#connected = client;
    if (this.#logLevel && client.getServerCapabilities()?.logging) await client.setLoggingLevel(this.#logLevel);
    return client;
  }

  #createTransport(): Transport {
    const connection = this.#connection;
    if (isHttpConnection(connection)) {
      const url = new URL(connection.url);
      const fixed = typeof connection.headers === "object" ? connection.headers : {};
      const fetchWithHeaders: typeof fetch = (input, init) => {
        const headers = new Headers(init?.headers);
        for (const [name, value] of Object.entries({ ...fixed, ...callHeaders.getStore() })) headers.set(name, value);
        return fetch(input, { ...init, headers });
      };
      const authProvider = this.authorization?.provider;
      return connection.type === "sse"
        ? new SSEClientTransport(url, { fetch: fetchWithHeaders, authProvider })
        : new StreamableHTTPClientTransport(url, { fetch: fetchWithHeaders, authProvider });
    }
    return new StdioClientTransport({
      command: connection.command,
      args: connection.args ? [...connection.args] : [],
      env: { ...getDefaultEnvironment(), ...connection.env },
      cwd: connection.cwd,
      stderr: connection.stderr ?? "inherit",
    });
  }
}

/** Every item of a paged MCP listing; bounded, so a server that pages forever still ends after a thousand pages. */
export async function allPages<T>(fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return items;
}
