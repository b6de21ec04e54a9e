import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Agent } from "../agents/agent.js";
import { createInvocationContext } from "../agents/invocation-context.js";
import { createEvent } from "../events/event.js";
import { newId } from "../events/new-id.js";
import type { Session } from "../sessions/session.js";
import type { SessionService } from "../sessions/session-service.js";
import { checkToolArguments } from "../tools/argument-limits.js";
import type { Tool } from "../tools/tool.js";
import { ToolContext } from "../tools/tool-context.js";
import { normalizeToolResult } from "../tools/tool-result.js";
import type { ArtifactService } from "../artifacts/artifact-service.js";
import type { JsonSchema } from "../models/function-declaration.js";
import { withScope, type TraceScope } from "../telemetry/spans.js";
import { withProgressReporter, type ProgressUpdate } from "./report-progress.js";
import { withMcpClientChannel, type McpClientChannel } from "./served-context.js";
import { toolValueToCallResult } from "./tool-value-to-call-result.js";

/** What serving one call needs. */
export interface ServedCall {
  tool: Tool;
  args: Record<string, unknown>;
  /** The toolsmith session behind the MCP session. */
  session: Session;
  sessionService: SessionService;
  /** Stands in for the agent a tool normally runs under. */
  agent: Agent;
  abortSignal: AbortSignal;
  /** Passes the tool's progress to the client, when it asked for progress. */
  onProgress?: (update: ProgressUpdate) => void;
  /** Sampling, elicitation and logging towards the client, for the tool to use through its context. */
  client?: McpClientChannel;
  /** The tool's output schema: with one, its result is `structuredContent`. */
  outputSchema?: JsonSchema;
  artifactService?: ArtifactService;
  /** Where the call's spans go: under the MCP request's span, which continues the client's trace. */
  trace?: TraceScope;
}

/**
 * Runs a toolsmith tool for an MCP client: checks the arguments, runs the
 * tool with a context backed by the session, stores its state changes in that
 * session, and answers as {@link toolValueToCallResult} describes.
 * Failures and `{status: "error"}` results become `isError` results.
 */
export async function callServedTool(call: ServedCall): Promise<CallToolResult> {
  const { tool, session, sessionService, agent, abortSignal } = call;
  const checked = checkToolArguments(tool, call.args);
  if (!checked.ok) return errorResult(String(checked.result.error));

  const invocation = createInvocationContext({ agent, session, sessionService, abortSignal, artifactService: call.artifactService, trace: call.trace });
  const context = new ToolContext({ invocation, functionCallId: newId("mcp-") });
  if (call.onProgress) withProgressReporter(context, call.onProgress);
  if (call.client) withMcpClientChannel(context, call.client);
  if (tool.requiresConfirmation && (await tool.requiresConfirmation(checked.value, context))) {
    return errorResult(`Tool "${tool.name}" needs a person's confirmation, which this MCP server cannot ask for. Run it from a toolsmith agent instead.`);
  }
  let value: unknown;
  try {
    // With the request's span active, a tool that starts a run of its own (a served agent) continues the trace.
    value = call.trace ? await withScope(call.trace, () => tool.run(checked.value, context)) : await tool.run(checked.value, context);
  } catch (error) {
    return errorResult(`Tool "${tool.name}" failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const actions = context.actions;
  if (Object.keys(actions.stateDelta).length || Object.keys(actions.artifactDelta).length) {
    await sessionService.appendEvent({ session, event: createEvent({ invocationId: invocation.invocationId, author: agent.name, actions }) });
  }
  const response = normalizeToolResult(value);
  if (response.status === "error" && typeof response.error === "string") return errorResult(response.error);
  return toolValueToCallResult(value, call.outputSchema);
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
