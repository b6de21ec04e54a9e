import { leavesContentsAlone } from "../models/llm-request.js";
import type { Agent } from "../agents/agent.js";
import type { Context } from "../agents/context.js";
import type { InvocationContext } from "../agents/invocation-context.js";
import { getFunctionCalls, getFunctionResponses, type Content } from "../content/content.js";
import { isFinalResponse, type Event } from "../events/event.js";
import type { LlmRequest } from "../models/llm-request.js";
import type { LlmResponse } from "../models/llm-response.js";
import type { Tool } from "../tools/tool.js";
import type { ToolContext } from "../tools/tool-context.js";
import { BasePlugin } from "./base-plugin.js";
import { logger } from "../logging/logger.js";

/** Where {@link LoggingPlugin} writes; default the logger's `info` (`setLogger`, `setLogLevel`), as in ADK. */
export type LogLine = (line: string) => void;

/**
 * ADK's logging plugin: writes a few lines for every hook of a run (the
 * user's message, each agent, model call, tool call and event, the run's
 * end), each prefixed with the plugin's name, as ADK's does. It never changes
 * the run.
 */
export class LoggingPlugin extends BasePlugin {
  // Its beforeModelCallback changes no content of the request in place: a request only it sees is not copied.
  static {
    leavesContentsAlone(LoggingPlugin.prototype.beforeModelCallback);
  }

  readonly #write: LogLine;

  /**
   * `name` as in ADK (default `logging_plugin`). Lines go to the logger at `INFO`, as ADK's do (so `setLogger` and
   * `setLogLevel` reach them; the default logger writes to standard error); `options.log` receives each line instead.
   */
  constructor(name = "logging_plugin", options: { log?: LogLine } = {}) {
    super(name);
    this.#write = options.log ?? ((line) => logger.info(line));
  }

  override async onUserMessageCallback({ invocationContext, userMessage }: { invocationContext: InvocationContext; userMessage: Content }) {
    this.#log("🚀 USER MESSAGE RECEIVED", [
      `Invocation ID: ${invocationContext.invocationId}`,
      `Session ID: ${invocationContext.session.id}`,
      `User ID: ${invocationContext.session.userId}`,
      `App Name: ${invocationContext.session.appName}`,
      `Root Agent: ${invocationContext.agent.name}`,
      `User Content: ${formatContent(userMessage)}`,
    ]);
    return undefined;
  }

  override async beforeRunCallback({ invocationContext }: { invocationContext: InvocationContext }) {
    this.#log("🏃 INVOCATION STARTING", [`Invocation ID: ${invocationContext.invocationId}`, `Starting Agent: ${invocationContext.agent.name}`]);
    return undefined;
  }

  override async onEventCallback({ event }: { invocationContext: InvocationContext; event: Event }) {
    const lines = [`Event ID: ${event.id}`, `Author: ${event.author}`, `Content: ${formatContent(event.content)}`, `Final Response: ${isFinalResponse(event)}`];
    const calls = getFunctionCalls(event.content).map((call) => call.name);
    if (calls.length) lines.push(`Function Calls: ${calls.join(",")}`);
    const responses = getFunctionResponses(event.content).map((response) => response.name);
    if (responses.length) lines.push(`Function Responses: ${responses.join(",")}`);
    if (event.longRunningToolIds?.length) lines.push(`Long Running Tools: ${event.longRunningToolIds.join(",")}`);
    this.#log("📢 EVENT YIELDED", lines);
    return undefined;
  }

  override async afterRunCallback({ invocationContext }: { invocationContext: InvocationContext }) {
    this.#log("✅ INVOCATION COMPLETED", [`Invocation ID: ${invocationContext.invocationId}`, `Final Agent: ${invocationContext.agent.name}`]);
  }

  override async beforeAgentCallback({ agent, callbackContext }: { agent: Agent; callbackContext: Context }) {
    this.#log("🤖 AGENT STARTING", [`Agent Name: ${agent.name}`, `Invocation ID: ${callbackContext.invocationId}`]);
    return undefined;
  }

  override async afterAgentCallback({ agent, callbackContext }: { agent: Agent; callbackContext: Context }) {
    this.#log("🤖 AGENT COMPLETED", [`Agent Name: ${agent.name}`, `Invocation ID: ${callbackContext.invocationId}`]);
    return undefined;
  }

  override async beforeModelCallback({ callbackContext, llmRequest }: { callbackContext: Context; llmRequest: LlmRequest }) {
    const lines = [`Model: ${llmRequest.model ?? "default"}`, `Agent: ${callbackContext.agentName}`];
    if (llmRequest.systemInstruction) lines.push(`System Instruction: '${truncate(llmRequest.systemInstruction, 200)}'`);
    if (llmRequest.functionDeclarations.length) lines.push(`Available Tools: ${llmRequest.functionDeclarations.map((declaration) => declaration.name).join(", ")}`);
    this.#log("🧠 LLM REQUEST", lines);
    return undefined;
  }

  override async afterModelCallback({ callbackContext, llmResponse }: { callbackContext: Context; llmResponse: LlmResponse }) {
    const lines = [`Agent: ${callbackContext.agentName}`];
    if (llmResponse.errorCode) lines.push(`❌ ERROR - Code: ${llmResponse.errorCode}`, `Error Message: ${llmResponse.errorMessage}`);
    else lines.push(`Content: ${formatContent(llmResponse.content)}`);
    if (llmResponse.usageMetadata) lines.push(`Token Usage - Input: ${llmResponse.usageMetadata.promptTokenCount}, Output: ${llmResponse.usageMetadata.candidatesTokenCount}`);
    this.#log("🧠 LLM RESPONSE", lines);
    return undefined;
  }

  override async onModelErrorCallback({ callbackContext, error }: { callbackContext: Context; llmRequest: LlmRequest; error: Error }) {
    this.#log("🧠 LLM ERROR", [`Agent: ${callbackContext.agentName}`, `Error: ${error.message}`]);
    return undefined;
  }

  override async beforeToolCallback({ tool, toolArgs, toolContext }: { tool: Tool; toolArgs: Record<string, unknown>; toolContext: ToolContext }) {
    this.#log("🔧 TOOL STARTING", [`Tool Name: ${tool.name}`, `Agent: ${toolContext.agentName}`, `Function Call ID: ${toolContext.functionCallId}`, `Arguments: ${truncate(JSON.stringify(toolArgs), 300)}`]);
    return undefined;
  }

  override async afterToolCallback({ tool, toolContext, result }: { tool: Tool; toolArgs: Record<string, unknown>; toolContext: ToolContext; result: Record<string, unknown> }) {
    this.#log("🔧 TOOL COMPLETED", [`Tool Name: ${tool.name}`, `Agent: ${toolContext.agentName}`, `Function Call ID: ${toolContext.functionCallId}`, `Result: ${truncate(JSON.stringify(result), 300)}`]);
    return undefined;
  }

  override async onToolErrorCallback({ tool, toolContext, error }: { tool: Tool; toolArgs: Record<string, unknown>; toolContext: ToolContext; error: Error }) {
    this.#log("🔧 TOOL ERROR", [`Tool Name: ${tool.name}`, `Agent: ${toolContext.agentName}`, `Function Call ID: ${toolContext.functionCallId}`, `Error: ${error.message}`]);
    return undefined;
  }

  #log(title: string, lines: readonly string[]): void {
    this.#write(`[${this.name}] ${title}`);
    for (const line of lines) this.#write(`[${this.name}]    ${line}`);
  }
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}...` : text;
}

function formatContent(content: Content | undefined): string {
  if (!content?.parts?.length) return "None";
  const parts = content.parts.map((part) => {
    if (part.text !== undefined) return `text: '${truncate(part.text, 200)}'`;
    if (part.functionCall) return `function_call: ${part.functionCall.name}`;
    if (part.functionResponse) return `function_response: ${part.functionResponse.name}`;
    return "other_part";
  });
  return parts.join(" | ");
}
