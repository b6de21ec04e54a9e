import { leavesContentsAlone } from "../models/llm-request.js";
import { ErrorCode, McpError, type CallToolResult, type Tool as McpToolDefinition } from "@modelcontextprotocol/sdk/types.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { LlmRequest } from "../models/llm-request.js";
import type { ArgumentsCheck, FunctionDeclaration, JsonSchema, Tool } from "../tools/tool.js";
import { compileThirdPartyArgumentsCheck } from "../tools/json-schema-validator.js";
import type { ToolContext } from "../tools/tool-context.js";
import { BaseTool, type RunAsyncToolRequest } from "../tools/base-tool.js";
import { runByHand } from "../tools/run-by-hand.js";
import type { Context } from "../agents/context.js";
import { declinedCallResult, toolErrorResult } from "../tools/tool-result.js";
import type { ToolConfirmation } from "../events/event-actions.js";
import { pausedResponse } from "../pause/paused-call.js";
import { CallInFlight, CallTimedOut, type ElicitationAsked } from "./call-in-flight.js";
import { answersElicitation, elicitationRequest, elicitResultOf, parkingKey, type ParkedCalls } from "./elicitation-pause.js";
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
  /** The calls in flight (server log messages stream to their runs; a server's question goes to the one listening). */
  inFlight: Set<CallInFlight>;
  /** Calls kept open while a person answers their server's question. */
  parked: ParkedCalls;
}

/** Long enough never to fire: the call's own clock ({@link CallInFlight}) times it out, and stops while a person is asked. */
const SDK_TIMEOUT_MS = 2_147_483_647;

/**
 * One tool of an MCP server, and a {@link BaseTool} as ADK's `MCPTool` is; `toolsmith/mcp` exports it under that
 * name too, so `tool instanceof MCPTool` holds for the tools an `MCPToolset` without a prefix gives (with a
 * prefix they are renamed copies, `BaseTool`s that forward to it). Its declaration is the server's: the input
 * schema is passed as is. It calls the server under its own name, so a toolset prefix never reaches the server.
 * The toolset makes it; programs do not (ADK's `new MCPTool(mcpTool, sessionManager, originalName?)` is not its
 * constructor).
 */
export class McpTool extends BaseTool implements Tool {
  // Its processLlmRequest changes no content of the request in place: a request only it sees is not copied.
  static {
    leavesContentsAlone(McpTool.prototype.processLlmRequest);
  }

  readonly #definition: McpToolDefinition;
  readonly #settings: McpToolSettings;

  constructor(definition: McpToolDefinition, settings: McpToolSettings) {
    super({ name: definition.name, description: definition.description ?? definition.title ?? definition.name });
    this.#definition = definition;
    this.#settings = settings;
  }

  override declaration(): FunctionDeclaration {
    const { inputSchema, outputSchema } = this.#definition;
    return { name: this.name, description: this.description, parameters: inputSchema as JsonSchema, ...(outputSchema ? { response: outputSchema as JsonSchema } : {}) };
  }

  /**
   * The arguments checked against the server's input schema, but for its regular expressions, which the server
   * checks itself: one of a hostile server's could block this process for minutes (see `compileThirdPartyArgumentsCheck`).
   */
  checkArguments(args: Record<string, unknown>): ArgumentsCheck {
    return compileThirdPartyArgumentsCheck(this.#definition.inputSchema as JsonSchema, this.name)(args);
  }

  /** ADK's name for what the model sees: the server's declaration, its input schema as JSON Schema. */
  override _getDeclaration(): FunctionDeclaration {
    return this.declaration();
  }

  /**
   * Calls the tool as ADK programs call a tool by hand, as a run calls it: arguments checked against the server's
   * schema, a confirmation asked when the toolset's rule holds the call. The answer is the one the model gets: the
   * server's result read into a response (ADK's `MCPTool.runAsync` hands back the raw `CallToolResult` unchecked).
   */
  runAsync({ args, toolContext }: RunAsyncToolRequest): Promise<unknown> {
    return runByHand(this, args, toolContext as ToolContext | undefined);
  }

  override requiresConfirmation(args: Record<string, unknown>, context: ToolContext): Promise<boolean> {
    return this.checkRequireConfirmation(args, context);
  }

  /** Whether the toolset's `requireConfirmation` holds this call for a person. */
  override async checkRequireConfirmation(args: Record<string, unknown>, context?: Context): Promise<boolean> {
    const rule = this.#settings.requireConfirmation;
    if (typeof rule === "function") return rule(this.name, args, context as ToolContext);
    return rule ?? false;
  }

  override processLlmRequest({ llmRequest }: { llmRequest: LlmRequest }): void {
    moveMediaIntoParts(llmRequest);
  }

  /** A "no" to the server's question must reach the server, so declined confirmations come to {@link McpTool.run} too. */
  readonly runsWhenDeclined = true;

  override async run(args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    const confirmation = context.toolConfirmation;
    if (confirmation && answersElicitation(confirmation)) return this.#resume(context, confirmation);
    if (confirmation && !confirmation.confirmed) return declinedCallResult(this.name);
    const { headers, session, callTimeoutMs, inFlight } = this.#settings;
    const callHeaders = typeof headers === "function" ? await headers(context) : undefined;
    const flight = new CallInFlight(callTimeoutMs);
    // The user's session stays open while the call is in flight, a pause for the person included.
    const call = () => withCallHeaders(callHeaders, () => session.hold(() => this.#call(args, context, flight, true)));
    inFlight.add(flight);
    flight.attach(context);
    const asked = flight.nextAsk();
    const { authorization } = session;
    const result = authorization ? authorization.run(call, context) : call();
    void result.then(
      () => this.#forget(flight),
      () => this.#forget(flight),
    );
    return this.#follow(flight, result, asked, context);
  }

  /** The person answered the server's question: the answer goes to the call kept open, which the run follows again. */
  async #resume(context: ToolContext, confirmation: ToolConfirmation): Promise<unknown> {
    const key = parkingKey(context);
    const parked = this.#settings.parked.take(key);
    if (!parked) {
      return toolErrorResult(
        `The MCP server asked the user a question during the call to "${this.name}", but that call was no longer open when the answer came (the app restarted, or the answer took longer than the wait allowed, after which the server was told the user cancelled). Its result is unknown and the answer was not delivered. Call the tool again if it is still needed.`,
        { code: "MCP_CALL_INTERRUPTED" },
      );
    }
    const answer = elicitResultOf(confirmation, parked.asked.params);
    if ("problem" in answer) {
      // Asked again, with what was wrong: the call stays open.
      this.#settings.parked.park(key, parked);
      context.requestConfirmation(elicitationRequest(parked.asked.params, answer.problem));
      return pausedResponse("confirmation");
    }
    parked.flight.attach(context);
    this.#settings.inFlight.add(parked.flight);
    const asked = parked.flight.nextAsk();
    parked.asked.answer(answer.result);
    return this.#follow(parked.flight, parked.result, asked, context);
  }

  /**
   * The call's result, or, when the server asks the person a question first,
   * a pause: the call is kept open (parked) and the run asks the person by a
   * confirmation request whose answer resumes it.
   */
  async #follow(flight: CallInFlight, result: Promise<unknown>, asked: Promise<ElicitationAsked>, context: ToolContext): Promise<unknown> {
    try {
      const outcome = await Promise.race([result.then((value) => ({ value })), asked.then((question) => ({ question }))]);
      if ("value" in outcome) return outcome.value;
      flight.detach();
      this.#settings.inFlight.delete(flight);
      this.#settings.parked.park(parkingKey(context), { flight, result, asked: outcome.question });
      context.requestConfirmation(elicitationRequest(outcome.question.params));
      return pausedResponse("confirmation");
    } catch (error) {
      // The SDK reports an abort as a timeout; the run's cancellation is what happened.
      if (context.abortSignal.aborted) throw context.abortSignal.reason ?? error;
      if (error instanceof CallTimedOut || (error instanceof McpError && error.code === ErrorCode.RequestTimeout)) {
        return toolErrorResult(`Tool "${this.name}" did not answer within ${this.#settings.callTimeoutMs} ms. Try again with a smaller request, or tell the user it timed out.`);
      }
      throw error;
    }
  }

  #forget(flight: CallInFlight): void {
    flight.detach();
    this.#settings.inFlight.delete(flight);
  }

  async #call(args: Record<string, unknown>, context: ToolContext, flight: CallInFlight, mayRetry: boolean): Promise<Record<string, unknown>> {
    const { session, onProgress } = this.#settings;
    // What the server sends on this session during the call (questions, log messages) is this call's run's.
    flight.sessionKey = session.key;
    const client = await session.client();
    // A client span of its own (as OpenTelemetry's MCP conventions have it), whose context goes to the server in `_meta`.
    const span = startSpan(traceScopeOf(context.invocationContext), `tools/call ${this.name}`, { "mcp.method.name": "tools/call", [GenAi.toolName]: this.name, [GenAi.operationName]: "execute_tool" }, "client");
    const meta = traceContextEntries(span.scope);
    const signal = flight.controller.signal;
    try {
      const result = (await client.callTool({ name: this.name, arguments: args, ...(Object.keys(meta).length ? { _meta: meta } : {}) }, undefined, {
        signal,
        timeout: SDK_TIMEOUT_MS,
        onprogress: (progress) => {
          flight.touch();
          const current = flight.context ?? context;
          onProgress?.({ toolName: this.name, ...progress, context: current });
          // Relayed to whoever runs this tool and can pass progress on (toolsmith's MCP server, for one).
          if (flight.context) reportProgress(flight.context, { progress: progress.progress, total: progress.total, message: progress.message });
        },
      })) as CallToolResult;
      if (result.isError) span.fail("tool_error");
      return callToolResultToResponse(this.name, result);
    } catch (error) {
      span.fail(errorTypeOf(error), (error as Error)?.message);
      if (signal.aborted) throw signal.reason ?? error;
      // The request never reached a live session (server restarted, nothing listening): sending it again is safe.
      if (mayRetry && neverReachedServer(error)) {
        session.reset(client);
        return this.#call(args, context, flight, false);
      }
      // The connection was lost while the call was in flight: the server may have done the work. It is sent
      // again only to a tool that declares itself idempotent; otherwise the model is told it may have run.
      if (lostDuringCall(error)) {
        session.reset(client);
        if (mayRetry && this.#definition.annotations?.idempotentHint === true) return this.#call(args, context, flight, false);
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
