import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  isInitializeRequest,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type Tool as McpToolDefinition,
} from "@modelcontextprotocol/sdk/types.js";
import type { Agent } from "../agents/agent.js";
import { ReadonlyContext } from "../agents/readonly-context.js";
import type { InvocationContext } from "../agents/invocation-context.js";
import { InMemorySessionService } from "../sessions/in-memory-session-service.js";
import type { Session } from "../sessions/session.js";
import type { SessionService } from "../sessions/session-service.js";
import { resolveTools } from "../tools/resolve-tools.js";
import type { ArtifactService } from "../artifacts/artifact-service.js";
import { isToolsmithError, ToolsmithError } from "../errors/toolsmith-error.js";
import type { JsonSchema } from "../models/function-declaration.js";
import { isToolset, type Tool, type ToolUnion } from "../tools/tool.js";
import { schemaToJsonSchema, type ToolParameters } from "../tools/tool-parameters.js";
import { agentWithPlugins, type App } from "../runner/app.js";
import { AGENT_TOOL_OUTPUT_SCHEMA, agentAsTool } from "./agent-as-tool.js";
import { callServedTool } from "./call-served-tool.js";
import { GenAi } from "../telemetry/gen-ai-attributes.js";
import { scopeFromEntries, startSpan } from "../telemetry/spans.js";
import { InMemoryEventStore } from "./in-memory-event-store.js";
import type { ProgressUpdate } from "./report-progress.js";
import {
  agentInstructionPrompt,
  complete,
  getPrompt,
  listResources,
  listResourceTemplates,
  readResource,
  type McpCatalog,
  type McpServedPrompt,
  type McpServedResource,
  type McpServedResourceTemplate,
} from "./served-catalog.js";
import type { McpClientChannel } from "./served-context.js";

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** The server name MCP clients see. Default `"toolsmith"`. */
  name?: string;
  version?: string;
  /** Tools and toolsets to serve; toolsets are asked for their tools on every `tools/list`. */
  tools?: readonly ToolUnion[];
  /**
   * Agents to serve, each as one tool named after it taking `{request}`. An `App` is served as its root agent,
   * with its plugins running in each call.
   */
  agents?: readonly (Agent | App)[];
  /** Where the session behind each MCP session lives. Default: in memory. */
  sessionService?: SessionService;
  /** The app and user the sessions belong to. Defaults `"mcp"` and `"mcp-client"`. */
  appName?: string;
  userId?: string;
  /**
   * Host names that HTTP requests may name in `Host` and `Origin`; others get
   * 403, against DNS rebinding. Default: loopback names only (`localhost`,
   * `127.0.0.1`, `[::1]`). Give your public host names when serving beyond
   * this machine, or `"any"` behind a proxy that checks them.
   */
  allowedHosts?: readonly string[] | "any";
  /**
   * Output schemas per served tool name (JSON Schema or zod). A tool with one
   * answers with `structuredContent` (and its JSON as the text copy the MCP
   * spec asks for); a tool without one answers with text only. Served agents
   * have one: `{result: string}`.
   */
  outputSchemas?: Record<string, ToolParameters>;
  /** Resources at fixed URIs (`resources/list`, `resources/read`, subscriptions). */
  resources?: readonly McpServedResource[];
  /** Resources under URI templates, e.g. `notes://{id}`. */
  resourceTemplates?: readonly McpServedResourceTemplate[];
  /** Prompts. Served agents with a fixed instruction are served as prompts too, named after them. */
  prompts?: readonly McpServedPrompt[];
  /** Serves the artifacts of each MCP session as resources `artifact:///<filename>`, and gives served tools this artifact service. */
  artifactService?: ArtifactService;
  /**
   * Keeps what Streamable HTTP streams sent, so a client that lost its
   * connection resumes with `Last-Event-ID`. Default: an
   * {@link InMemoryEventStore} of this server; `false` for none.
   */
  eventStore?: EventStore | false;
  /** The reconnection delay the server suggests to clients in SSE `retry` fields, in ms. Default 1000. */
  retryIntervalMs?: number;
}

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/** Where an HTTP server listens, and how to stop it. */
export interface McpHttpListener {
  /** The Streamable HTTP endpoint, `http://host:port/mcp`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves toolsmith tools, toolsets and agents to MCP clients over stdio or
 * Streamable HTTP. Each MCP session gets a toolsmith session, so tools that
 * keep state in `context.state` keep it per client.
 *
 * @example
 * ```ts
 * const server = createMcpServer({ tools: [getWeather], agents: [assistant] });
 * await server.serveStdio();                       // for clients that start this process
 * const { url } = await server.listen({ port: 3000 }); // or Streamable HTTP at url
 * ```
 */
export class ToolsmithMcpServer {
  readonly #options: McpServerOptions;
  readonly #sessionService: SessionService;
  readonly #entries: readonly ToolUnion[];
  readonly #servers = new Set<Server>();
  readonly #httpTransports = new Map<string, StreamableHTTPServerTransport>();
  readonly #agent: Agent;
  readonly #catalog: McpCatalog;
  readonly #outputSchemas = new Map<string, JsonSchema>();
  readonly #eventStore: EventStore | undefined;
  /** The resource URIs each connected session subscribed to. */
  readonly #subscriptions = new Map<Server, Set<string>>();

  constructor(options: McpServerOptions) {
    this.#options = options;
    this.#sessionService = options.sessionService ?? new InMemorySessionService();
    const appName = options.appName ?? "mcp";
    const served = (options.agents ?? []).map(agentWithPlugins);
    this.#entries = [...(options.tools ?? []), ...served.map(({ agent, plugins }) => agentAsTool({ agent, plugins, sessionService: this.#sessionService, appName }))];
    const name = options.name ?? "toolsmith";
    this.#agent = { name, description: `MCP server ${name}`, subAgents: [], async *runAsync() {} };
    for (const { agent } of served) this.#outputSchemas.set(agent.name, AGENT_TOOL_OUTPUT_SCHEMA);
    for (const [toolName, schema] of Object.entries(options.outputSchemas ?? {})) this.#outputSchemas.set(toolName, schemaToJsonSchema(schema, toolName));
    const agentPrompts = served.map(({ agent }) => agent).map(agentInstructionPrompt).filter((prompt): prompt is McpServedPrompt => prompt !== undefined);
    this.#catalog = {
      resources: options.resources ?? [],
      resourceTemplates: options.resourceTemplates ?? [],
      prompts: [...(options.prompts ?? []), ...agentPrompts],
      artifactService: options.artifactService,
    };
    this.#eventStore = options.eventStore === false ? undefined : (options.eventStore ?? new InMemoryEventStore());
  }

  /** Serves one MCP session over the given transport (stdio, Streamable HTTP, in-memory, …). */
  async connect(transport: Transport): Promise<void> {
    const server = this.#createSdkServer();
    this.#servers.add(server);
    server.onclose = () => {
      this.#servers.delete(server);
      this.#subscriptions.delete(server);
    };
    await server.connect(transport);
  }

  /** Serves one MCP session over this process's stdin and stdout. */
  serveStdio(): Promise<void> {
    return this.connect(new StdioServerTransport());
  }

  /**
   * A Node HTTP handler for Streamable HTTP: an `initialize` request opens a
   * session; later requests carry its `mcp-session-id`.
   */
  async handleHttpRequest(request: IncomingMessage, response: ServerResponse, parsedBody?: unknown): Promise<void> {
    if (!this.#hostAllowed(request)) {
      response.writeHead(403, { "content-type": "application/json" });
      response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Host or Origin not allowed (see allowedHosts)." }, id: null }));
      return;
    }
    const sessionId = request.headers["mcp-session-id"];
    const known = typeof sessionId === "string" ? this.#httpTransports.get(sessionId) : undefined;
    if (known) return known.handleRequest(request, response, parsedBody);
    const body = parsedBody ?? (request.method === "POST" ? await readJson(request) : undefined);
    if (sessionId !== undefined || request.method !== "POST" || !isInitializeRequest(body)) {
      response.writeHead(sessionId !== undefined ? 404 : 400, { "content-type": "application/json" });
      response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: sessionId !== undefined ? "Session not found: start a new one with initialize." : "Send initialize first." }, id: null }));
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: this.#eventStore,
      retryInterval: this.#options.retryIntervalMs ?? 1000,
      onsessioninitialized: (id) => void this.#httpTransports.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#httpTransports.delete(transport.sessionId);
    };
    await this.connect(transport);
    await transport.handleRequest(request, response, body);
  }

  /** Listens for Streamable HTTP on `host:port` (default 127.0.0.1 and a free port) at `/mcp`. */
  async listen(options: { port?: number; host?: string; path?: string } = {}): Promise<McpHttpListener> {
    const path = options.path ?? "/mcp";
    const http = createServer((request, response) => {
      if (new URL(request.url ?? "/", "http://localhost").pathname !== path) {
        response.writeHead(404).end();
        return;
      }
      this.handleHttpRequest(request, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
        response.end(String(error));
      });
    });
    const host = options.host ?? "127.0.0.1";
    await new Promise<void>((resolve, reject) => http.once("error", reject).listen(options.port ?? 0, host, resolve));
    const { port } = http.address() as AddressInfo;
    return {
      url: `http://${host}:${port}${path}`,
      close: async () => {
        await Promise.all([...this.#httpTransports.values()].map((transport) => transport.close().catch(() => undefined)));
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
      },
    };
  }

  /** Tells every connected client that the tool list changed (after a toolset's tools did). */
  async notifyToolListChanged(): Promise<void> {
    await Promise.all([...this.#servers].map((server) => server.sendToolListChanged().catch(() => undefined)));
  }

  /** Tells every client that subscribed to this resource that it changed (`notifications/resources/updated`). */
  async notifyResourceUpdated(uri: string): Promise<void> {
    const subscribed = [...this.#subscriptions].filter(([, uris]) => uris.has(uri)).map(([server]) => server);
    await Promise.all(subscribed.map((server) => server.sendResourceUpdated({ uri }).catch(() => undefined)));
  }

  /** Tells every connected client that the resource list changed (after artifacts were added, for one). */
  async notifyResourceListChanged(): Promise<void> {
    await Promise.all([...this.#servers].map((server) => server.sendResourceListChanged().catch(() => undefined)));
  }

  /** Ends every MCP session and closes the served toolsets. */
  async close(): Promise<void> {
    await Promise.all([...this.#servers].map((server) => server.close().catch(() => undefined)));
    await Promise.all(this.#entries.filter(isToolset).map((toolset) => toolset.close()));
  }

  #hostAllowed(request: IncomingMessage): boolean {
    const allowed = this.#options.allowedHosts ?? LOOPBACK_HOSTS;
    if (allowed === "any") return true;
    const hostOf = (value: string) => {
      try {
        return new URL(value).hostname;
      } catch {
        return undefined;
      }
    };
    const host = request.headers.host ? hostOf(`http://${request.headers.host}`) : undefined;
    const origin = request.headers.origin;
    if (!host || !allowed.includes(host)) return false;
    return origin === undefined || allowed.includes(hostOf(origin) ?? "");
  }

  #createSdkServer(): Server {
    const catalog = this.#catalog;
    const server = new Server(
      { name: this.#options.name ?? "toolsmith", version: this.#options.version ?? "0.1.0" },
      {
        capabilities: {
          tools: { listChanged: true },
          resources: { subscribe: true, listChanged: true },
          prompts: { listChanged: true },
          logging: {},
          completions: {},
        },
      },
    );
    let session: Promise<Session> | undefined;
    const sessionOf = () =>
      (session ??= this.#sessionService.createSession({ appName: this.#options.appName ?? "mcp", userId: this.#options.userId ?? "mcp-client" }));
    const subscriptions = new Set<string>();
    this.#subscriptions.set(server, subscriptions);

    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (await this.#tools(await sessionOf())).map((tool) => toMcpDefinition(tool, this.#outputSchemas.get(tool.name))) }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const current = await sessionOf();
      const tools = await this.#tools(current);
      const tool = tools.find((candidate) => candidate.name === request.params.name);
      if (!tool) {
        return { content: [{ type: "text", text: `Tool "${request.params.name}" does not exist. Available tools: ${tools.map((known) => known.name).join(", ")}.` }], isError: true };
      }
      const progressToken = request.params._meta?.progressToken;
      const onProgress =
        progressToken === undefined
          ? undefined
          : (update: ProgressUpdate) => void extra.sendNotification({ method: "notifications/progress", params: { progressToken, ...update } }).catch(() => undefined);
      const client: McpClientChannel = {
        log: (level, data, logger) => void server.sendLoggingMessage({ level, data, ...(logger ? { logger } : {}) }, extra.sessionId).catch(() => undefined),
        createMessage: async (params) => {
          requireClientCapability(server, "sampling", tool.name);
          return server.createMessage(params, { signal: requestSignal(extra.signal), relatedRequestId: extra.requestId });
        },
        elicitInput: async (params) => {
          requireClientCapability(server, "elicitation", tool.name);
          return server.elicitInput({ ...params, mode: "form" }, { signal: requestSignal(extra.signal), relatedRequestId: extra.requestId });
        },
        closeStream: () => extra.closeSSEStream?.(),
      };
      // The caller's trace continues here when it sent one in `_meta` (toolsmith's MCP client does).
      const span = startSpan(scopeFromEntries(request.params._meta), `tools/call ${tool.name}`, { "mcp.method.name": "tools/call", [GenAi.toolName]: tool.name, [GenAi.operationName]: "execute_tool" }, "server");
      try {
        const result = await callServedTool({
          tool,
          args: request.params.arguments ?? {},
          trace: span.scope,
        session: current,
        sessionService: this.#sessionService,
        artifactService: this.#options.artifactService,
        agent: this.#agent,
        abortSignal: extra.signal,
        onProgress,
          client,
          outputSchema: this.#outputSchemas.get(tool.name),
        });
        if (result.isError) span.fail("tool_error");
        return result;
      } finally {
        span.end();
      }
    });

    server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources(catalog, await sessionOf()) }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: listResourceTemplates(catalog) }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => asMcpError(async () => readResource(catalog, request.params.uri, { session: await sessionOf() })));
    server.setRequestHandler(SubscribeRequestSchema, async (request) => {
      subscriptions.add(request.params.uri);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
      subscriptions.delete(request.params.uri);
      return {};
    });
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({
      prompts: catalog.prompts.map(({ messages: _messages, complete: _complete, ...prompt }) => prompt),
    }));
    server.setRequestHandler(GetPromptRequestSchema, async (request) => asMcpError(() => getPrompt(catalog, request.params.name, request.params.arguments ?? {})));
    server.setRequestHandler(CompleteRequestSchema, async (request) => {
      const values = await complete(catalog, request.params.ref, request.params.argument, { arguments: request.params.context?.arguments ?? {} });
      return { completion: { values, total: values.length, hasMore: false } };
    });
    return server;
  }

  async #tools(session: Session): Promise<Tool[]> {
    const invocation = { invocationId: "mcp", agent: this.#agent, session } as unknown as InvocationContext;
    return resolveTools(this.#entries, new ReadonlyContext(invocation), this.#agent.name);
  }
}

/** A {@link ToolsmithMcpServer} serving the given tools, toolsets and agents. */
export function createMcpServer(options: McpServerOptions): ToolsmithMcpServer {
  return new ToolsmithMcpServer(options);
}

function toMcpDefinition(tool: Tool, outputSchema: JsonSchema | undefined): McpToolDefinition {
  const declaration = tool.declaration();
  const parameters = declaration?.parameters;
  const inputSchema = parameters && parameters.type === "object" ? parameters : { type: "object", properties: {} };
  return {
    name: tool.name,
    description: declaration?.description ?? tool.description,
    inputSchema: inputSchema as McpToolDefinition["inputSchema"],
    ...(outputSchema ? { outputSchema: outputSchema as McpToolDefinition["outputSchema"] } : {}),
  };
}

/**
 * A signal of its own for one request to the client, aborted with the call's. The SDK adds an abort listener to the
 * signal of every request it sends and never removes it, so a tool that asks many times in one call would pile them
 * on the call's signal (Node warns of a leak past ten); `AbortSignal.any` follows the call's signal without one.
 */
function requestSignal(callSignal: AbortSignal): AbortSignal {
  return AbortSignal.any([callSignal]);
}

/** Refuses, with a message saying why, a request the connected client did not offer to answer. */
function requireClientCapability(server: Server, capability: "sampling" | "elicitation", toolName: string): void {
  if (server.getClientCapabilities()?.[capability]) return;
  const what = capability === "sampling" ? "sampling (asking its model)" : "elicitation (asking its user)";
  throw new ToolsmithError("MCP_CLIENT_UNAVAILABLE", `The MCP client did not offer ${what}, which tool "${toolName}" needs. Use a client that does, or a tool that does without.`);
}

/** Runs a catalog request, answering a missing resource or prompt with the JSON-RPC error the spec names. */
async function asMcpError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // The SDK sends an error's numeric `code` and `message` as they are (an McpError's message would carry its "MCP error" prefix twice).
    if (isToolsmithError(error) && error.code === "MCP_RESOURCE_NOT_FOUND") throw Object.assign(new Error(error.message), { code: -32002 });
    if (isToolsmithError(error) && error.code === "MCP_PROMPT_NOT_FOUND") throw Object.assign(new Error(error.message), { code: ErrorCode.InvalidParams });
    throw error;
  }
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
