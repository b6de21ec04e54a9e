import type { ElicitRequest, ElicitResult, GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate, Root, Tool as McpToolDefinition } from "@modelcontextprotocol/sdk/types.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ReadonlyContext } from "../agents/readonly-context.js";
import { ConfigurationError, ToolsmithError } from "../errors/toolsmith-error.js";
import { createEvent } from "../events/event.js";
import type { ToolContext } from "../tools/tool-context.js";
import type { Model } from "../models/model.js";
import type { Tool, Toolset } from "../tools/tool.js";
import { filterToolset, prefixToolset, type ToolFilter } from "../tools/toolset-wrappers.js";
import { isHttpConnection, type McpConnection } from "./mcp-connection.js";
import { fromAdkConnectionParams, isAdkConnectionParams, type MCPConnectionParams } from "./adk-connection-params.js";
import { allPages, McpSession, withCallHeaders, type ElicitationHandler, type McpLogMessage } from "./mcp-session.js";
import { McpSignInNeeded, WAITING_FOR_SIGN_IN, type McpAuthorization } from "./mcp-oauth.js";
import type { CredentialScope } from "../auth/credential-service.js";
import { LlmAgent } from "../llm-agent/llm-agent.js";
import { answerSampling } from "./answer-sampling.js";
import type { CallInFlight } from "./call-in-flight.js";
import { ParkedCalls } from "./elicitation-pause.js";
import { McpTool, type McpConfirmationRule, type McpProgress, type McpToolSettings } from "./mcp-tool.js";
import { describeGiven, refuseUnhonouredOptions } from "../errors/unhonoured-option.js";
import { isLlmAgent } from "../llm-agent/agent-kinds.js";

/** Sampling requests answered during one tool call unless `maxSamplingPerCall` says otherwise. */
const DEFAULT_MAX_SAMPLING_PER_CALL = 10;

/** What toolsmith's form of `new MCPToolset({ … })` takes. */
const MCP_TOOLSET_OPTIONS = ["connection", "toolFilter", "prefix", "requireConfirmation", "callTimeoutMs", "onProgress", "onElicitation", "elicitationWaitMs", "samplingModel", "maxSamplingPerCall", "clientName", "roots", "logLevel", "onLog"] as const;

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
   * elicitation) from code, e.g. a UI of your own. Without it the run pauses
   * and asks the person (a confirmation request whose payload carries the
   * server's form; the dev UI and `toolsmith run` show it), and the answer
   * resumes the run and goes to the server. Fields the answer leaves out get
   * the schema's defaults.
   */
  onElicitation?: ElicitationHandler;
  /**
   * How long a call is kept open while the person answers its server's
   * question. When it passes, the server is told `cancel`. Default 600 000 ms.
   */
  elicitationWaitMs?: number;
  /**
   * Answers a server's requests for a model completion (MCP sampling) with
   * this model. Default: the model of the agent whose tool call is running.
   */
  samplingModel?: Model;
  /**
   * How many sampling requests are answered during one tool call; more are
   * answered with an error (`MCP_SAMPLING_LIMIT`), so a server cannot spend
   * the model's quota without end. Requests outside any call (answered only
   * with `samplingModel`) count against one such allowance per connection.
   * `0` offers no sampling at all, as ADK's client does. Default 10.
   */
  maxSamplingPerCall?: number;
  /** The client name sent to the server. Default `"toolsmith"`. */
  clientName?: string;
  /**
   * The folders the server may work in (MCP roots), e.g. the agent's
   * filesystem root as `[{ uri: "file:///srv/work", name: "work" }]`; without
   * it the client does not offer roots.
   */
  roots?: readonly Root[];
  /**
   * The least severe server log level to receive (`logging/setLevel` on
   * connect). Log messages reach `onLog`, and during a call in a run they
   * stream as partial events with `customMetadata.mcpLog`.
   */
  logLevel?: McpLogMessage["level"];
  /** Called for every log message the server sends. */
  onLog?: (message: McpLogMessage) => void;
}

/** One resource's contents, text or base64 `blob`. */
export type McpResourceContents = ReadResourceResult["contents"][number];

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
  /** The calls in flight: server log messages stream to their runs, sampling uses their agent's model. */
  readonly #inFlight = new Set<CallInFlight>();
  readonly #parked: ParkedCalls;
  /** Sampling requests answered outside any call, by the key of the connection they came on. */
  readonly #samplesOutsideCalls = new Map<string, number>();
  readonly #resourceListeners = new Map<string, Set<(uri: string) => void>>();
  /** Releases the session each subscribed resource's subscription lives on. */
  readonly #subscriptionHolds = new Map<string, () => void>();

  /**
   * Takes toolsmith's options, or ADK's arguments: `new MCPToolset(connectionParams, toolFilter?, prefix?)` with
   * `{ type: "StdioConnectionParams", serverParams }` or `{ type: "StreamableHTTPConnectionParams", url, … }`.
   */
  // One signature rather than overloads: overload resolution loses the contextual types of callbacks in the options.
  constructor(given: MCPToolsetOptions | MCPConnectionParams, toolFilter?: ToolFilter, prefix?: string) {
    const adkForm = isAdkConnectionParams(given);
    if (!adkForm && (toolFilter !== undefined || prefix !== undefined)) {
      throw new ConfigurationError("UNSUPPORTED_OPTION", "MCPToolset: with toolsmith's options object, give toolFilter and prefix in it: new MCPToolset({ connection, toolFilter, prefix }).");
    }
    if (!adkForm) {
      refuseUnhonouredOptions("MCPToolset", given, MCP_TOOLSET_OPTIONS);
      if (typeof given.connection !== "object" || given.connection === null) {
        throw new ConfigurationError("UNSUPPORTED_OPTION", "MCPToolset needs a connection: new MCPToolset({ connection: { command, args } }) for a local server, { connection: { type: \"http\", url } } for a remote one, or ADK's StdioConnectionParams / StreamableHTTPConnectionParams.");
      }
    }
    const options: MCPToolsetOptions = adkForm ? { connection: fromAdkConnectionParams(given) } : given;
    this.#connection = options.connection;
    this.#parked = new ParkedCalls(options.elicitationWaitMs ?? 600_000);
    const maxSampling = options.maxSamplingPerCall ?? DEFAULT_MAX_SAMPLING_PER_CALL;
    if (!Number.isSafeInteger(maxSampling) || maxSampling < 0) {
      throw new ConfigurationError("UNSUPPORTED_OPTION", `MCPToolset: maxSamplingPerCall is how many sampling requests one tool call may make, a whole number from 0 (no sampling); it got ${describeGiven(maxSampling)}.`);
    }
    this.#session = new McpSession({
      connection: options.connection,
      clientName: options.clientName,
      onElicitation: options.onElicitation ?? ((request, sessionKey) => this.#askPerson(request, sessionKey)),
      onSampling:
        maxSampling === 0
          ? undefined
          : async (request, signal, sessionKey) => {
              this.#countSampling(sessionKey, maxSampling);
              return answerSampling(options.samplingModel ?? (await this.#callingAgentModel(sessionKey)), request, signal);
            },
      roots: options.roots,
      logLevel: options.logLevel,
      listeners: {
        onLog: (message, sessionKey) => {
          options.onLog?.(message);
          for (const { context } of this.#flightsOn(sessionKey)) if (context) void context.emitEvent(logEvent(context, message)).catch(() => undefined);
        },
        onResourceUpdated: (uri) => {
          for (const listener of this.#resourceListeners.get(uri) ?? []) listener(uri);
        },
      },
    });
    this.#settings = {
      session: this.#session,
      headers: isHttpConnection(options.connection) ? options.connection.headers : undefined,
      requireConfirmation: options.requireConfirmation,
      callTimeoutMs: options.callTimeoutMs ?? 60_000,
      onProgress: options.onProgress,
      inFlight: this.#inFlight,
      parked: this.#parked,
    };
    let toolset: Toolset = {
      getTools: (context) => this.#serverTools(context),
      close: () => {
        this.#parked.cancelAll();
        return this.#session.close();
      },
    };
    if (adkForm) {
      // ADK's order and meaning: the filter sees the prefixed names, and an empty list keeps every tool.
      if (prefix) toolset = prefixToolset(toolset, prefix);
      if (toolFilter && !(Array.isArray(toolFilter) && toolFilter.length === 0)) toolset = filterToolset(toolset, toolFilter);
    } else {
      if (options.toolFilter) toolset = filterToolset(toolset, options.toolFilter);
      if (options.prefix) toolset = prefixToolset(toolset, options.prefix);
    }
    this.#outer = toolset;
  }

  /** The server's tools (after the filter and prefix); called without a context, as ADK allows, it lists them outside any run. */
  getTools(context?: ReadonlyContext): Promise<Tool[]> {
    return this.#outer.getTools(context as ReadonlyContext);
  }

  close(): Promise<void> {
    return this.#outer.close();
  }

  /** The names of the server's resources (as ADK's `MCPToolset.listResources`); `[]` when it offers none. */
  async listResources(): Promise<string[]> {
    return (await this.listResourceInfos()).map((resource) => resource.name);
  }

  /** The server's resources with their URIs, descriptions and MIME types, every page. */
  async listResourceInfos(): Promise<Resource[]> {
    const client = await this.#authorizedClient();
    if (!client.getServerCapabilities()?.resources) return [];
    return allPages(async (cursor) => {
      const page = await client.listResources(cursor ? { cursor } : undefined);
      return { items: page.resources, nextCursor: page.nextCursor };
    }, "resource list");
  }

  /** The server's resource templates (`notes://{id}`), every page. */
  async listResourceTemplates(): Promise<ResourceTemplate[]> {
    const client = await this.#authorizedClient();
    if (!client.getServerCapabilities()?.resources) return [];
    return allPages(async (cursor) => {
      const page = await client.listResourceTemplates(cursor ? { cursor } : undefined);
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    }, "resource template list");
  }

  /** The resource with this name (as ADK's `getResourceInfo`). */
  async getResourceInfo(name: string): Promise<Resource> {
    const resources = await this.listResourceInfos();
    const resource = resources.find((candidate) => candidate.name === name);
    if (!resource) {
      throw new ToolsmithError("MCP_RESOURCE_NOT_FOUND", `The MCP server has no resource named "${name}". Its resources: ${resources.map((known) => known.name).join(", ") || "none"}.`);
    }
    return resource;
  }

  /** The contents of the resource with this name (as ADK's `readResource`). */
  async readResource(name: string): Promise<McpResourceContents[]> {
    return this.readResourceUri((await this.getResourceInfo(name)).uri);
  }

  /** The contents of the resource at this URI, a listed one or one a template describes. */
  async readResourceUri(uri: string): Promise<McpResourceContents[]> {
    return (await (await this.#authorizedClient()).readResource({ uri })).contents;
  }

  /**
   * Subscribes to changes of a resource: `onUpdate` is called on each
   * `notifications/resources/updated` for it. Resolves to the unsubscribe
   * function.
   */
  async subscribeResource(uri: string, onUpdate: (uri: string) => void): Promise<() => Promise<void>> {
    let listeners = this.#resourceListeners.get(uri);
    if (!listeners) this.#resourceListeners.set(uri, (listeners = new Set()));
    listeners.add(onUpdate);
    if (listeners.size === 1) {
      const client = await this.#authorizedClient();
      // The subscription lives on this session: it is not closed as idle while someone listens.
      this.#subscriptionHolds.set(uri, this.#session.retain());
      await client.subscribeResource({ uri });
    }
    return async () => {
      listeners.delete(onUpdate);
      if (listeners.size === 0) {
        this.#resourceListeners.delete(uri);
        await (await this.#authorizedClient()).unsubscribeResource({ uri });
        this.#subscriptionHolds.get(uri)?.();
        this.#subscriptionHolds.delete(uri);
      }
    };
  }

  /** The server's prompts with their arguments; `[]` when it offers none. */
  async listPrompts(): Promise<Prompt[]> {
    const client = await this.#authorizedClient();
    if (!client.getServerCapabilities()?.prompts) return [];
    return allPages(async (cursor) => {
      const page = await client.listPrompts(cursor ? { cursor } : undefined);
      return { items: page.prompts, nextCursor: page.nextCursor };
    }, "prompt list");
  }

  /** A prompt filled in with arguments: its messages (text, images, embedded resources). */
  async getPrompt(name: string, args: Record<string, string> = {}): Promise<GetPromptResult> {
    return (await this.#authorizedClient()).getPrompt({ name, arguments: args });
  }

  /**
   * A prompt as an agent's instruction: its text messages (and embedded text
   * resources) joined, fetched each time the instruction is read, so the
   * server's current version is used.
   *
   * @example
   * ```ts
   * const agent = new LlmAgent({ name: "reviewer", model, instruction: toolset.promptInstruction("code_review", { language: "ts" }) });
   * ```
   */
  promptInstruction(name: string, args: Record<string, string> = {}): (context: ReadonlyContext) => Promise<string> {
    return async () => promptText(await this.getPrompt(name, args));
  }

  /**
   * A server's question for the person, handed to the one call in flight
   * whose run can pause for it. MCP does not say which call a request belongs
   * to, so with none or several listening it is answered `cancel`.
   */
  async #askPerson(request: ElicitRequest["params"], sessionKey: string): Promise<ElicitResult> {
    const listening = this.#flightsOn(sessionKey).filter((flight) => flight.listening);
    return listening.length === 1 ? listening[0]!.ask(request) : { action: "cancel" };
  }

  /**
   * Counts a sampling request against the call it comes during (the first one started, whose agent answers it), or
   * against the connection when no call is running, and refuses it past the allowance.
   */
  #countSampling(sessionKey: string, allowance: number): void {
    const [flight] = this.#flightsOn(sessionKey);
    const made = flight ? flight.samplingRequests : (this.#samplesOutsideCalls.get(sessionKey) ?? 0);
    if (made >= allowance) {
      throw new ToolsmithError(
        "MCP_SAMPLING_LIMIT",
        `The MCP server asked for more model completions (sampling) ${flight ? "during one tool call" : "outside any tool call"} than the ${allowance} toolsmith answers, so that a server cannot spend the model's quota without end. Raise MCPToolset's maxSamplingPerCall if this server needs more.`,
      );
    }
    if (flight) flight.samplingRequests = made + 1;
    else this.#samplesOutsideCalls.set(sessionKey, made + 1);
  }

  /** The model of the agent whose tool call is in flight (the first one started, when several are). */
  async #callingAgentModel(sessionKey: string): Promise<Model> {
    for (const { context } of this.#flightsOn(sessionKey)) {
      const agent = context?.invocationContext.agent;
      if (isLlmAgent(agent)) return agent.canonicalModel();
    }
    throw new ToolsmithError(
      "NO_MODEL",
      "The MCP server asked for a model completion (sampling) while no agent's tool call was running, so there is no agent model to answer with. Pass samplingModel to MCPToolset.",
    );
  }

  /**
   * The calls in flight on the session with this key (a user's, behind a per-user sign-in or per-user headers), so
   * that one user's server questions, log messages and sampling never reach another user's run.
   */
  #flightsOn(sessionKey: string): CallInFlight[] {
    return [...this.#inFlight].filter((flight) => flight.sessionKey === sessionKey);
  }

  /** The connected client, signing in first when the server needs it (by `auth.authorize`; otherwise {@link McpSignInNeeded} says how). */
  async #authorizedClient(): Promise<Client> {
    const { authorization } = this.#session;
    return authorization ? ((await authorization.run(() => this.#session.client())) as Client) : this.#session.client();
  }

  async #serverTools(context: ReadonlyContext | undefined): Promise<Tool[]> {
    const headerFunction = isHttpConnection(this.#connection) && typeof this.#connection.headers === "function" ? this.#connection.headers : undefined;
    if (headerFunction && !context) {
      throw new ConfigurationError("NO_TOOL_CONTEXT", "MCPToolset.getTools() was called without a context, and this toolset's headers are a function of the run's context. Call getTools(context) from a run (a callback or a tool has one), or give headers as an object.");
    }
    const headers = headerFunction ? await headerFunction(context!) : undefined;
    const list = () => withCallHeaders(headers, () => this.#session.listTools());
    const { authorization } = this.#session;
    let definitions: McpToolDefinition[];
    try {
      definitions = authorization ? ((await authorization.run(list, undefined, context as unknown as CredentialScope)) as McpToolDefinition[]) : await list();
    } catch (error) {
      // Before the user has signed in, the tools cannot be listed: one tool lets the model ask them to.
      if (error instanceof McpSignInNeeded && authorization) return [signInTool(authorization, list)];
      throw error;
    }
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

/** The text of a prompt's messages, for use as an instruction. */
function promptText(prompt: GetPromptResult): string {
  return prompt.messages
    .map(({ content }) => (content.type === "text" ? content.text : content.type === "resource" && "text" in content.resource ? content.resource.text : ""))
    .filter((text) => text.length > 0)
    .join("\n\n");
}

/** A server log message as a partial (unstored) event of the call it arrived during. */
function logEvent(context: ToolContext, message: McpLogMessage) {
  return createEvent({
    invocationId: context.invocationId,
    author: context.agentName,
    partial: true,
    customMetadata: { mcpLog: { functionCallId: context.functionCallId, ...message } },
  });
}

/** The one tool offered while the server needs the user to sign in before listing its tools. */
function signInTool(authorization: McpAuthorization, list: () => Promise<unknown>): Tool {
  return {
    name: "mcp_sign_in",
    description: "This MCP server needs the user to sign in before its tools can be used. Call it to ask the user to sign in; its tools are offered afterwards.",
    declaration: () => ({ name: "mcp_sign_in", description: "Asks the user to sign in to the MCP server so that its tools can be used.", parameters: { type: "object", properties: {} } }),
    async run(_args, context) {
      const result = await authorization.run(list, context);
      return result === WAITING_FOR_SIGN_IN ? result : { status: "success", message: "Signed in. The server's tools are available from the next step." };
    },
  };
}
