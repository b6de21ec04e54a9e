import { ErrorCode, McpError, type CallToolResult, type Tool as McpToolDefinition } from "@modelcontextprotocol/sdk/types.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { LlmRequest } from "../models/llm-request.js";
import type { FunctionDeclaration, JsonSchema, Tool } from "../tools/tool.js";
import type { ToolContext } from "../tools/tool-context.js";
import { toolErrorResult } from "../tools/tool-result.js";
import { callToolResultToResponse } from "./call-tool-result.js";
import type { McpHeaders } from "./mcp-connection.js";
import { withCallHeaders, type McpSession } from "./mcp-session.js";
import { moveMediaIntoParts } from "./move-media-into-parts.js";
import { reportProgress } from "./report-progress.js";
import { traceScopeOf } from "../agents/invocation-context.js";
import { errorTypeOf } from "../telemetry/error-type.js";
import { GenAi } from "../telemetry/gen-ai-attributes.js";
import { startSpan, traceContextEntries } from "../telemetry/spans.js";

/** A progress notification the server sent while a tool ran. */
export interface McpProgress {
  /** The tool's own (unprefixed) name. */
  toolName: string;
  progress: number;
  total?: number;
  message?: string;
  /** The context of the call the progress belongs to. */
  context: ToolContext;
}

/** Whether a call needs a person's confirmation: always, never, or per tool and arguments. */
export type McpConfirmationRule = boolean | ((toolName: string, args: Record<string, unknown>, context: ToolContext) => boolean | Promise<boolean>);

/** What the tools of one toolset share. */
export interface McpToolSettings {
  session: McpSession;
  headers?: McpHeaders;
  requireConfirmation?: McpConfirmationRule;
  /** The longest a call may take; progress notifications restart the clock. */
  callTimeoutMs: number;
  onProgress?: (progress: McpProgress) => void;
  /** The contexts of calls in flight (server log messages stream to them as events). */
  activeCalls?: Set<ToolContext>;
}

/**
 * One tool of an MCP server. Its declaration is the server's: the input
 * schema is passed as is. It calls the server under its own name, so a
 * toolset prefix never reaches the server.
 */
export class McpTool implements Tool {
  readonly name: string;
  readonly description: string;
  readonly #definition: McpToolDefinition;
  readonly #settings: McpToolSettings;

  constructor(definition: McpToolDefinition, settings: McpToolSettings) {
    this.name = definition.name;
    this.description = definition.description ?? definition.title ?? definition.name;
    this.#definition = definition;
    this.#settings = settings;
  }

  declaration(): FunctionDeclaration {
    return { name: this.name, description: this.description, parameters: this.#definition.inputSchema as JsonSchema };
  }

  async requiresConfirmation(args: Record<string, unknown>, context: ToolContext): Promise<boolean> {
    const rule = this.#settings.requireConfirmation;
    if (typeof rule === "function") return rule(this.name, args, context);
    return rule ?? false;
  }

  processLlmRequest({ llmRequest }: { llmRequest: LlmRequest }): void {
    moveMediaIntoParts(llmRequest);
  }

  async run(args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    const { headers } = this.#settings;
    const callHeaders = typeof headers === "function" ? await headers(context) : undefined;
    this.#settings.activeCalls?.add(context);
    try {
      const call = () => withCallHeaders(callHeaders, () => this.#call(args, context, true));
      const { authorization } = this.#settings.session;
      return await (authorization ? authorization.run(call, context) : call());
    } catch (error) {
      // The SDK reports an abort as a timeout; the run's cancellation is what happened.
      if (context.abortSignal.aborted) throw context.abortSignal.reason ?? error;
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        return toolErrorResult(`Tool "${this.name}" did not answer within ${this.#settings.callTimeoutMs} ms. Try again with a smaller request, or tell the user it timed out.`);
      }
      throw error;
    } finally {
      this.#settings.activeCalls?.delete(context);
    }
  }

  async #call(args: Record<string, unknown>, context: ToolContext, mayRetry: boolean): Promise<Record<string, unknown>> {
    const { session, onProgress, callTimeoutMs } = this.#settings;
    const client = await session.client();
    // A client span of its own (as OpenTelemetry's MCP conventions have it), whose context goes to the server in `_meta`.
    const span = startSpan(traceScopeOf(context.invocationContext), `tools/call ${this.name}`, { "mcp.method.name": "tools/call", [GenAi.toolName]: this.name, [GenAi.operationName]: "execute_tool" }, "client");
    const meta = traceContextEntries(span.scope);
    try {
      const result = (await client.callTool({ name: this.name, arguments: args, ...(Object.keys(meta).length ? { _meta: meta } : {}) }, undefined, {
        signal: context.abortSignal,
        timeout: callTimeoutMs,
        resetTimeoutOnProgress: true,
        onprogress: (progress) => {
          onProgress?.({ toolName: this.name, ...progress, context });
          // Relayed to whoever runs this tool and can pass progress on (toolsmith's MCP server, for one).
          reportProgress(context, { progress: progress.progress, total: progress.total, message: progress.message });
        },
      })) as CallToolResult;
      if (result.isError) span.fail("tool_error");
      return callToolResultToResponse(this.name, result);
    } catch (error) {
      span.fail(errorTypeOf(error), (error as Error)?.message);
      if (context.abortSignal.aborted) throw error;
      // The request never reached a live session (server restarted, nothing listening): sending it again is safe.
      if (mayRetry && neverReachedServer(error)) {
        session.reset(client);
        return this.#call(args, context, false);
      }
      // The connection was lost while the call was in flight: the server may have done the work. It is sent
      // again only to a tool that declares itself idempotent; otherwise the model is told it may have run.
      if (lostDuringCall(error)) {
        session.reset(client);
        if (mayRetry && this.#definition.annotations?.idempotentHint === true) return this.#call(args, context, false);
        return toolErrorResult(
          `The connection to the MCP server was lost during the call to "${this.name}", so it may or may not have run. Check its effect (read what it would have changed) before calling it again.`,
          { code: "MCP_CALL_INTERRUPTED" },
        );
      }
      throw error;
    } finally {
      span.end();
    }
  }
}

/** The error's message and its cause's, where the network failure is named. */
function messageOf(error: unknown): string {
  return error instanceof Error ? `${error.message} ${String((error.cause as Error | undefined)?.message ?? "")} ${String((error.cause as { code?: string } | undefined)?.code ?? "")}` : "";
}

/** Errors that mean the request never reached a live session, so sending it again is safe. */
function neverReachedServer(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404 || (error.code === 400 && /session/i.test(error.message));
  return /Not connected|ECONNREFUSED/i.test(messageOf(error));
}

/** Errors that mean the connection went while the request may already have been delivered. */
function lostDuringCall(error: unknown): boolean {
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed;
  return /ECONNRESET|socket hang up|fetch failed|terminated/i.test(messageOf(error));
}
