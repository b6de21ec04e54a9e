import { ToolsmithError } from "../errors/toolsmith-error.js";
import { logger } from "../logging/logger.js";
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

/** A handler told, after the server's request, the key of the session it came on. */
type SessionHandler<Handler extends (...args: never[]) => unknown> = (...args: [...Parameters<Handler>, sessionKey: string]) => ReturnType<Handler>;

/** A log message an MCP server sent (`notifications/message`). */
export type McpLogMessage = LoggingMessageNotification["params"];

/** What a session is told besides answers: log messages (with the key of the session they came on) and changed resources. */
export interface McpSessionListeners {
  onLog?: (message: McpLogMessage, sessionKey: string) => void;
  onResourceUpdated?: (uri: string) => void;
}

/** Headers for the requests made while a call runs; a fetch wrapper reads them, so concurrent calls keep their own. */
const callHeaders = new AsyncLocalStorage<Record<string, string>>();

/** Runs `work` with these headers on every HTTP request it makes to the server. */
export function withCallHeaders<T>(headers: Record<string, string> | undefined, work: () => Promise<T>): Promise<T> {
  return headers ? callHeaders.run(headers, work) : work();
}

/** How long a user's session may stay unused before it is closed (it opens again on the next use). */
export const IDLE_USER_SESSION_MS = 10 * 60_000;

/** One server session: its client (once opening has started) and the tool list it gave. */
interface OpenSession {
  client: Promise<Client>;
  /** Set once connected, so that `reset` can tell at once whether a client is still this session's. */
  connected?: Client;
  tools?: Promise<McpToolDefinition[]>;
  /** When it was last handed out, and how many calls, listings and subscriptions hold it now. */
  lastUsed: number;
  holds: number;
}

/**
 * The lazily opened MCP client sessions of one server, reused for listing and calling, and opened again on the next
 * use after the server dies or the connection drops. The tool list is cached until the server says it changed.
 *
 * A server behind a per-user sign-in gets one session per user (see {@link McpAuthorization.sessionKey}), and one
 * whose headers a function computes gets one per set of headers: requests go on the session of the user whose call
 * or listing makes them, each with its own tool list, and the server's questions and log messages name the session
 * they came on. A user's session unused for {@link IDLE_USER_SESSION_MS} is closed; one that a call, a listing or a
 * subscription holds stays open. Any other server has one session for everyone.
 */
export class McpSession {
  readonly #connection: McpConnection;
  readonly #clientName: string;
  readonly #onElicitation?: SessionHandler<ElicitationHandler>;
  readonly #onSampling?: SessionHandler<SamplingHandler>;
  readonly #roots?: readonly Root[];
  readonly #listeners: McpSessionListeners;
  readonly #logLevel?: McpLogMessage["level"];
  /** OAuth for an HTTP server behind authorization; the transports use its provider. */
  readonly authorization?: McpAuthorization;
  /** By session key: `""` for the one shared session. */
  readonly #sessions = new Map<string, OpenSession>();
  #lastSweep = Date.now();
  #closed = false;

  constructor(options: {
    connection: McpConnection;
    clientName?: string;
    onElicitation?: SessionHandler<ElicitationHandler>;
    onSampling?: SessionHandler<SamplingHandler>;
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

  /**
   * The session the current request belongs to: its user's, behind a per-user sign-in, and one per set of headers a
   * `headers` function gives (per-user tokens), as ADK for Python keys its MCP sessions by their headers (ADK for
   * TypeScript opens a session per operation). `""` is the one shared session.
   */
  get key(): string {
    const user = this.authorization?.sessionKey() ?? "";
    const headers = callHeaders.getStore();
    if (!headers) return user;
    return JSON.stringify([user, Object.entries(headers).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))]);
  }

  /** The connected client of the current request's session, connecting first if there is none. */
  client(): Promise<Client> {
    if (this.#closed) return Promise.reject(new Error("The MCP toolset was closed."));
    return this.#open().client;
  }

  /** The server's tools as the current request's session lists them, from the cache when the server has not announced a change. */
  listTools(): Promise<McpToolDefinition[]> {
    if (this.#closed) return Promise.reject(new Error("The MCP toolset was closed."));
    const open = this.#open();
    if (!open.tools) {
      const listing = this.#held(open, () => this.#listAllTools(open));
      open.tools = listing;
      listing.catch(() => {
        if (open.tools === listing) open.tools = undefined;
      });
    }
    return open.tools;
  }

  /** Runs `work` with the current request's session kept open meanwhile (not closed as idle). */
  hold<T>(work: () => Promise<T>): Promise<T> {
    return this.#closed ? work() : this.#held(this.#open(), work);
  }

  /** Keeps the current request's session open until the returned function is called (a resource subscription lives on it). */
  retain(): () => void {
    if (this.#closed) return () => undefined;
    const open = this.#open();
    open.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      open.holds--;
      open.lastUsed = Date.now();
    };
  }

  /** Forgets this client's session so that the next use connects again; the client is closed. */
  reset(client: Client): void {
    for (const [key, open] of this.#sessions) if (open.connected === client) this.#forget(key, open);
  }

  /** Ends every session (and a stdio server's process); later use fails. */
  async close(): Promise<void> {
    this.#closed = true;
    const clients = [...this.#sessions.values()].map((open) => open.client);
    this.#sessions.clear();
    await Promise.all(clients.map((client) => client.then((opened) => opened.close()).catch(() => undefined)));
  }

  #open(): OpenSession {
    const now = Date.now();
    if (now - this.#lastSweep >= 60_000) this.#closeIdle(now);
    const key = this.key;
    let open = this.#sessions.get(key);
    if (!open) {
      const opening: OpenSession = { client: undefined as unknown as Promise<Client>, lastUsed: now, holds: 0 };
      opening.client = this.#connect(opening, key);
      // A failed connection is not kept: the next use tries again.
      opening.client.catch(() => {
        if (this.#sessions.get(key) === opening) this.#sessions.delete(key);
      });
      this.#sessions.set(key, (open = opening));
    }
    open.lastUsed = now;
    return open;
  }

  async #held<T>(open: OpenSession, work: () => Promise<T>): Promise<T> {
    open.holds++;
    try {
      return await work();
    } finally {
      open.holds--;
      open.lastUsed = Date.now();
    }
  }

  /** Closes the users' sessions nobody has used for {@link IDLE_USER_SESSION_MS} and nothing holds. */
  #closeIdle(now: number): void {
    this.#lastSweep = now;
    for (const [key, open] of this.#sessions) {
      if (key !== "" && open.holds === 0 && now - open.lastUsed >= IDLE_USER_SESSION_MS) this.#forget(key, open);
    }
  }

  #forget(key: string, open: OpenSession): void {
    if (this.#sessions.get(key) === open) this.#sessions.delete(key);
    void open.client.then((opened) => opened.close()).catch(() => undefined);
  }

  async #listAllTools(open: OpenSession): Promise<McpToolDefinition[]> {
    const client = await open.client;
    return allPages(async (cursor) => {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      return { items: page.tools, nextCursor: page.nextCursor };
    }, "tool list");
  }

  async #connect(open: OpenSession, key: string): Promise<Client> {
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
    if (onElicitation) client.setRequestHandler(ElicitRequestSchema, (request) => onElicitation(request.params, key));
    if (onSampling) client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => onSampling(request.params, extra.signal, key));
    const roots = this.#roots;
    if (roots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [...roots] }));
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (notification) => this.#listeners.onLog?.(notification.params, key));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => this.#listeners.onResourceUpdated?.(notification.params.uri));
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      open.tools = undefined;
    });
    client.onclose = () => this.reset(client);
    // A legacy SSE session lives as long as its event stream: when the stream fails, the session is gone.
    if (this.#connection.type === "sse") client.onerror = () => this.reset(client);
    await client.connect(this.#createTransport());
    if (this.#closed || this.#sessions.get(key) !== open) {
      // close() ran (or the session was forgotten) while this connection was being opened: do not leave its server running.
      await client.close().catch(() => undefined);
      throw new ToolsmithError("MCP_TOOLSET_CLOSED", "The MCP toolset was closed. Make a new MCPToolset to connect again.");
    }
    open.connected = client;
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

/** How many pages of one listing are read: a server that pages for ever still ends. */
export const MAX_LISTING_PAGES = 1000;

/**
 * Every item of a paged MCP listing, up to {@link MAX_LISTING_PAGES} pages; a listing cut there is said so in
 * toolsmith's log (`what` names it), not kept short in silence.
 */
export async function allPages<T>(fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>, what = "listing"): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LISTING_PAGES; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    cursor = result.nextCursor;
    if (!cursor) return items;
  }
  logger.warn(`An MCP server's ${what} had more than ${MAX_LISTING_PAGES} pages; the first ${items.length} items are used and the rest left out. The server may be paging without end.`);
  return items;
}
