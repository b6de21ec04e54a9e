import type { CreateMessageRequest, CreateMessageResult, ElicitRequestFormParams, ElicitResult, LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import { ToolsmithError } from "../errors/toolsmith-error.js";
import type { ToolContext } from "../tools/tool-context.js";

/**
 * What a tool served by toolsmith's MCP server can ask of the connected
 * client during its call. The server attaches one to the context of each
 * served call; the functions below reach it.
 */
export interface McpClientChannel {
  /** Sends `notifications/message` (filtered by the level the client set). */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /** Asks the client's model (`sampling/createMessage`). */
  createMessage(params: CreateMessageRequest["params"]): Promise<CreateMessageResult>;
  /** Asks the client's person (`elicitation/create`, form mode). */
  elicitInput(params: ElicitRequestFormParams): Promise<ElicitResult>;
  /** Closes the call's SSE stream so the client reconnects and resumes it (Streamable HTTP with an event store only). */
  closeStream(): void;
}

const channels = new WeakMap<ToolContext, McpClientChannel>();

/** Gives a served call's context its channel to the client (used by the MCP server). */
export function withMcpClientChannel(context: ToolContext, channel: McpClientChannel): ToolContext {
  channels.set(context, channel);
  return context;
}

function channelOf(context: ToolContext, what: string): McpClientChannel {
  const channel = channels.get(context);
  if (!channel) {
    throw new ToolsmithError(
      "MCP_CLIENT_UNAVAILABLE",
      `${what} needs an MCP client: this tool was not called through toolsmith's MCP server. Serve it with createMcpServer, or check with isServedOverMcp(context) first.`,
    );
  }
  return channel;
}

/** Whether the tool runs for an MCP client of toolsmith's server (so sampling, elicitation and logging reach someone). */
export function isServedOverMcp(context: ToolContext): boolean {
  return channels.has(context);
}

/**
 * Asks the MCP client's model for a completion (MCP sampling) from a served
 * tool: a string is one user message. The client must have offered sampling.
 *
 * @example
 * ```ts
 * execute: async ({ text }, context) => {
 *   const answer = await sampleFromClient(context, { messages: [{ role: "user", content: { type: "text", text: `Summarise: ${text}` } }], maxTokens: 200 });
 *   return answer.content.type === "text" ? answer.content.text : "";
 * }
 * ```
 */
export function sampleFromClient(context: ToolContext, request: string | CreateMessageRequest["params"]): Promise<CreateMessageResult> {
  const params = typeof request === "string" ? { messages: [{ role: "user" as const, content: { type: "text" as const, text: request } }], maxTokens: 1000 } : request;
  return channelOf(context, "Sampling").createMessage(params);
}

/**
 * Asks the MCP client's person for input (MCP elicitation, form mode) from a
 * served tool, and returns their answer: `{action: "accept", content}`,
 * `"decline"` or `"cancel"`. The client must have offered elicitation.
 *
 * @example
 * ```ts
 * const answer = await elicitFromClient(context, {
 *   message: "Which account?",
 *   requestedSchema: { type: "object", properties: { account: { type: "string" } }, required: ["account"] },
 * });
 * if (answer.action !== "accept") return { status: "error", error: "The user did not choose an account." };
 * ```
 */
export function elicitFromClient(context: ToolContext, params: Omit<ElicitRequestFormParams, "mode">): Promise<ElicitResult> {
  return channelOf(context, "Elicitation").elicitInput(params);
}

/**
 * Sends a log message to the MCP client from a served tool (MCP logging);
 * the client's `logging/setLevel` decides which levels it receives. Outside
 * an MCP server it does nothing, so tools may log unconditionally.
 */
export function logToClient(context: ToolContext, level: LoggingLevel, data: unknown, logger?: string): void {
  channels.get(context)?.log(level, data, logger);
}

/**
 * Closes the served call's response stream so the client reconnects with
 * `Last-Event-ID` and receives the rest from the server's event store (SSE
 * polling, for long calls behind proxies that cut idle connections). Does
 * nothing outside Streamable HTTP with an event store.
 */
export function closeResponseStream(context: ToolContext): void {
  channels.get(context)?.closeStream();
}
