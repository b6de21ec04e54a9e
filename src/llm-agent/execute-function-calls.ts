import { runCallbacks } from "./callbacks.js";
import type { InvocationContext } from "../agents/invocation-context.js";
import type { LlmAgentSettings } from "./llm-agent-settings.js";
import type { FunctionCall, FunctionResponse } from "../content/content.js";
import { createEventActions, hasKeys, mergeEventActions, type EventActions } from "../events/event-actions.js";
import { eventFromResponse, type Event } from "../events/event.js";
import type { Tool } from "../tools/tool.js";
import { checkToolArguments } from "../tools/argument-limits.js";
import { ToolContext } from "../tools/tool-context.js";
import { confirmationHint, declinedCallResult, normalizeToolResult, toolErrorResult, toolResultProblem } from "../tools/tool-result.js";
import type { ClientAnswer } from "../agents/invocation-context.js";
import { acceptCredential } from "../auth/credential-flow.js";
import { clientRequestEvent } from "../pause/client-requests.js";
import { pausedResponse, type PauseReason } from "../pause/paused-call.js";
import { onSignalAbort, RunCancellation } from "../agents/run-cancellation.js";
import { newEventId } from "../events/new-id.js";
import { endSentence } from "../errors/sentence.js";
import { invocationAborted, invocationCancellation, pluginsFor, traceScopeOf, withTraceScope } from "../agents/invocation-context.js";
import { errorTypeOf } from "../telemetry/error-type.js";
import { GenAi, spanJson } from "../telemetry/gen-ai-attributes.js";
import { metricsEnabled, recordToolCall } from "../telemetry/metrics.js";
import { traced, tracingEnabled, withScope } from "../telemetry/spans.js";
import { stopStreamingFunction } from "../agents/active-streaming-tool.js";
import { STOP_STREAMING_TOOL_NAME } from "../tools/stop-streaming-tool.js";
import { closeResultStream, inputStreamFor, isResultStream, startStreamingTool, streamingToolNotLive } from "./streaming-tools.js";

/** The outcome of one function call: its response and the side effects it recorded. */
interface CallOutcome {
  response: FunctionResponse;
  actions: EventActions;
  paused: boolean;
  /** Why the call failed, for its span and metrics: an error code or an exception's name. */
  errorType?: string;
}

/**
 * What a batch of calls produced, for the caller to yield in this order: the event with every response, then,
 * when calls wait for a confirmation or a credential, the event asking the client; and whether the run must wait.
 */
export interface CallsResult {
  responseEvent: Event;
  clientRequest: Event | undefined;
  paused: boolean;
}

/**
 * Runs the function calls of one model response concurrently. What the tools
 * stream while they run (an agent tool's events) goes to `emit`, each awaited
 * until the caller passed it on; the result is one event with all responses in
 * call order and, if calls wait for a confirmation or a credential, the event
 * asking the client (see {@link CallsResult}); the caller yields them. State
 * written by several calls is merged in call order: for the same key, the call
 * that comes later in the model's response wins. `undefined` when the run was
 * cancelled. An async function, not a generator: most batches stream nothing,
 * and the loop reads `emit`'s events only once there are some ({@link EventChannel.emitsBefore}).
 */
export async function executeFunctionCalls(
  agent: LlmAgentSettings,
  context: InvocationContext,
  calls: readonly FunctionCall[],
  toolsByName: ReadonlyMap<string, Tool>,
  options: { answers?: ReadonlyMap<string, ClientAnswer>; emit: (event: Event) => Promise<void> },
): Promise<CallsResult | undefined> {
  // Parallel calls may each listen on the run's signal.
  if (calls.length > 1) invocationCancellation(context)?.allowManyListeners();
  const emit = options.emit;
  // The response event's id is known before the calls run, so each call's span can name it (as ADK's do).
  const responseEventId = newEventId();
  // Unobserved (no SDK, no meter, no listener), a call runs without its measuring wrapper: one promise less each.
  const observed = tracingEnabled() || metricsEnabled();
  const started = calls.map((call) => {
    const tool = call.name === undefined ? undefined : toolsByName.get(call.name);
    const answer = options.answers?.get(call.id!);
    return observed ? tracedFunctionCall(agent, context, call, tool, toolsByName, emit, answer, responseEventId) : executeFunctionCall(agent, context, call, tool, toolsByName, emit, answer);
  });
  // A single call (most batches) is waited for as it is: Promise.all would add promises for nothing.
  const outcomes = started.length === 1 ? [await started[0]!] : await Promise.all(started);
  if (invocationAborted(context)) return undefined;
  const actions = mergeEventActions(outcomes.map((outcome) => outcome.actions));
  const responseEvent = eventFromResponse(
    { content: { role: "user", parts: outcomes.map((outcome) => ({ functionResponse: outcome.response })) } },
    { id: responseEventId, invocationId: context.invocationId, author: agent.name, branch: context.branch, actions, longRunningToolIds: waitingIds(outcomes) },
  );
  const paused = outcomes.some((outcome) => outcome.paused);
  return { responseEvent, clientRequest: paused ? clientRequestEvent(context, agent.name, calls, actions) : undefined, paused };
}

/**
 * Ids of the calls this event leaves waiting for the client (confirmations,
 * credentials, agent tools paused inside), so the run stops on it. A
 * long-running tool's pending result does not stop the run: as in ADK, the
 * model is called again with it (so it can tell the user the work is under
 * way), and the final result arrives later as a function response.
 */
function waitingIds(outcomes: readonly CallOutcome[]): string[] | undefined {
  const ids: string[] = [];
  for (const outcome of outcomes) if (outcome.paused && outcome.response.id) ids.push(outcome.response.id);
  return ids.length ? ids : undefined;
}

/** One call inside its `execute_tool` span, measured. */
async function tracedFunctionCall(
  agent: LlmAgentSettings,
  context: InvocationContext,
  call: FunctionCall,
  tool: Tool | undefined,
  toolsByName: ReadonlyMap<string, Tool>,
  emitEvent: (event: Event) => Promise<void>,
  answer: ClientAnswer | undefined,
  responseEventId: string,
): Promise<CallOutcome> {
  const scope = traceScopeOf(context);
  const span = traced(scope, () => ({
    name: `execute_tool ${call.name ?? ""}`.trimEnd(),
    attributes: {
      [GenAi.operationName]: "execute_tool",
      [GenAi.toolName]: call.name ?? "",
      [GenAi.toolCallId]: call.id ?? "",
      [GenAi.toolType]: "function",
      [GenAi.conversationId]: context.session.id,
      [GenAi.invocationId]: context.invocationId,
      [GenAi.eventId]: responseEventId,
      ...(tool?.description ? { [GenAi.toolDescription]: tool.description } : {}),
      ...(scope.captureContent ? { [GenAi.toolArguments]: spanJson(call.args ?? {}) } : {}),
    },
  }));
  const startedAt = performance.now();
  let outcome: CallOutcome | undefined;
  try {
    outcome = await executeFunctionCall(agent, span.recording ? withTraceScope(context, span.scope) : context, call, tool, toolsByName, emitEvent, answer);
    return outcome;
  } finally {
    const errorType = outcome ? outcome.errorType : "RUN_FAILED";
    if (errorType) span.fail(errorType, typeof outcome?.response.response?.error === "string" ? outcome.response.response.error : undefined);
    if (outcome && span.recording && scope.captureContent) span.setAttributes({ [GenAi.toolResult]: spanJson(outcome.response.response) });
    span.end();
    recordToolCall({ tool: call.name ?? "", seconds: (performance.now() - startedAt) / 1000, errorType });
  }
}

async function executeFunctionCall(
  agent: LlmAgentSettings,
  context: InvocationContext,
  call: FunctionCall,
  tool: Tool | undefined,
  toolsByName: ReadonlyMap<string, Tool>,
  emitEvent: (event: Event) => Promise<void>,
  answer: ClientAnswer | undefined,
): Promise<CallOutcome> {
  const actions = createEventActions();
  const respond = (response: Record<string, unknown>, paused = false, errorType?: string): CallOutcome => ({ response: { id: call.id, name: call.name, response }, actions, paused, errorType });
  const pause = (reason: PauseReason) => {
    // A paused call has not done its work: it leaves no state behind, only its request.
    for (const key of Object.keys(actions.stateDelta)) delete actions.stateDelta[key];
    return respond(pausedResponse(reason), true);
  };
  if (!tool) {
    const available = [...toolsByName.keys()];
    return respond(
      toolErrorResult(
        `${call.name === undefined ? "The function call names no tool." : `Tool "${call.name}" does not exist.`} ${available.length ? `Available tools: ${available.join(", ")}. Call one of these instead.` : "This agent has no tools; answer without calling one."}`,
      ),
      false,
      "TOOL_NOT_FOUND",
    );
  }
  const checked = checkToolArguments(tool, call.args ?? {});
  if (!checked.ok) return respond(checked.result, false, "INVALID_ARGUMENTS");
  const args = checked.value;

  const runCancellation = invocationCancellation(context);
  const live = context.liveRequestQueue !== undefined;
  // A streaming tool (an async generator) is not run outside a live run: no one would hear its results.
  const streaming = (tool as { isStreaming?: boolean }).isStreaming === true;
  if (streaming && !live) throw streamingToolNotLive(tool);
  // A streaming tool's stream has a stop of its own (stop_streaming, the end of the agent's live run) besides the run's.
  const deadline = tool.timeoutMs === undefined && !streaming ? undefined : new RunCancellation(runCancellation ?? context.abortSignal);
  // Without a deadline the tool context reads the run's signal only when asked: a run's signal is made when first read.
  const toolContext = new ToolContext({ invocation: context, functionCallId: call.id ?? "", actions, abortSignal: deadline?.signal, toolConfirmation: answer?.confirmation, emitEvent, inputStream: streaming ? inputStreamFor(context, tool.name) : undefined });

  if (answer?.confirmation && !answer.confirmation.confirmed && !tool.runsWhenDeclined) return respond(declinedCallResult(tool.name));
  if (answer?.credential) {
    try {
      await acceptCredential(answer.credential, { scope: toolContext, service: context.credentialService, signal: toolContext.abortSignal });
    } catch (error) {
      return respond(toolErrorResult(`The credential for "${tool.name}" could not be used: ${(error as Error).message}`), false, errorTypeOf(error));
    }
  }
  // An answer given at once (most tools have no rule) is not awaited: a turn of the event loop for nothing.
  const asked = answer?.confirmation ? false : tool.requiresConfirmation?.(args, toolContext);
  if (typeof asked === "boolean" || asked === undefined ? asked : await asked) {
    toolContext.requestConfirmation({ hint: confirmationHint(tool.name, args) });
    return pause("confirmation");
  }

  // Plugins first, then the agent's callbacks, as in ADK; the first answer wins.
  const pluginsBefore = pluginsFor(context, "beforeToolCallback");
  const pluginsAfter = pluginsFor(context, "afterToolCallback");
  // With neither, nothing is awaited: a call's result is not held back by turns of the event loop for no one.
  const replaced = pluginsBefore || agent.beforeToolCallback ? ((await pluginsBefore?.runBeforeToolCallback({ tool, toolArgs: args, toolContext })) ?? (await runCallbacks(agent.beforeToolCallback, { tool, args, context: toolContext }, "beforeToolCallback"))) : undefined;
  let response: Record<string, unknown>;
  let thrown: Error | undefined;
  let unheardStream = false;
  if (replaced !== undefined) response = normalizeToolResult(replaced);
  else {
    try {
      // In a live run a call named stop_streaming stops the stream it names, whatever the tool's own function (ADK's).
      const stopsStream = live && call.name === STOP_STREAMING_TOOL_NAME && typeof args.function_name === "string";
      const result = stopsStream ? await stopStreamingFunction(context.activeStreamingTools, args.function_name as string) : await withScope(traceScopeOf(context), () => runUntilAborted(tool, args, toolContext, deadline, runCancellation));
      // As in ADK, a long-running tool that returns nothing (undefined or null) has no result to tell the model
      // yet: the run ends waiting for the client to send it (held meanwhile by a paused placeholder, so the call
      // stays answered).
      if ((result === undefined || result === null) && tool.isLongRunning) return pause("client");
      if (isResultStream(result)) {
        // A tool that hands back a stream of results without being an async generator itself, found only now.
        if (live) response = startStreamingTool(context, tool, result, deadline ?? new RunCancellation(runCancellation ?? context.abortSignal));
        else {
          closeResultStream(result);
          unheardStream = true;
          response = {};
        }
      } else response = normalizeToolResult(result);
    } catch (error) {
      // A failed call leaves no half-made state behind; saved artifact versions stay recorded, as they exist.
      for (const key of Object.keys(actions.stateDelta)) delete actions.stateDelta[key];
      const failure = error instanceof Error ? error : new Error(String(error));
      const recovered = (await pluginsFor(context, "onToolErrorCallback")?.runOnToolErrorCallback({ tool, toolArgs: args, toolContext, error: failure })) ?? (await runCallbacks(agent.onToolErrorCallback, { tool, args, context: toolContext, error: failure }, "onToolErrorCallback"));
      response = recovered !== undefined ? normalizeToolResult(recovered) : toolErrorResult(describeToolFailure(tool, failure));
      if (recovered === undefined) thrown = failure;
    }
  }
  if (unheardStream) throw streamingToolNotLive(tool);
  // Most calls request nothing: their empty records are not searched for the call's id (a lookup by a freshly made
  // string goes through V8's runtime, and showed as the costliest line of a call).
  if (hasKeys(actions.requestedToolConfirmations) && actions.requestedToolConfirmations[call.id!]) return pause("confirmation");
  if (hasKeys(actions.requestedAuthConfigs) && actions.requestedAuthConfigs[call.id!]) return pause("credential");
  if (toolContext.pausedForClient) return pause("client");
  const errorType = thrown ? (thrown instanceof ToolStoppedError ? "TOOL_STOPPED" : errorTypeOf(thrown)) : undefined;
  const after = pluginsAfter || agent.afterToolCallback ? ((await pluginsAfter?.runAfterToolCallback({ tool, toolArgs: args, toolContext, result: response })) ?? (await runCallbacks(agent.afterToolCallback, { tool, args, context: toolContext, response, ...(thrown ? { error: thrown } : {}) }, "afterToolCallback"))) : undefined;
  const final = after === undefined ? response : normalizeToolResult(after);
  // A response JSON cannot keep would fail the store, or reach the model changed without a word.
  const problem = toolResultProblem(final);
  if (problem) return respond(toolErrorResult(`Tool "${tool.name}" returned a result that JSON cannot keep: ${problem.path ? `${problem.path.replace(/^\./, "")} ` : ""}${problem.reason}. Tell the user the tool failed; its developer must return JSON values (strings, finite numbers, booleans, null, arrays and plain objects).`), false, "TOOL_RESULT_NOT_JSON");
  return respond(final, false, errorType);
}

/** Why a tool call stopped early. */
class ToolStoppedError extends Error {}

/**
 * The tool's result, or a rejection as soon as the run is cancelled or the
 * deadline passes, even if the tool ignores its abort signal. The abort callback is removed when the call
 * settles: a run of ten thousand calls keeps none of the finished ones' (a race against one shared "aborted"
 * promise kept a reaction per call until the run ended). The tool context's signal is the deadline's when there is
 * one, else the run's: its cancellation, when known, is listened to without reading the signal.
 */
function runUntilAborted(tool: Tool, args: Record<string, unknown>, context: ToolContext, deadline: RunCancellation | undefined, runCancellation: RunCancellation | undefined): Promise<unknown> {
  const cancellation = deadline ?? runCancellation;
  if (cancellation ? cancellation.aborted : context.abortSignal.aborted) return Promise.reject(new ToolStoppedError(`Tool "${tool.name}" was cancelled before it started.`));
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    if (deadline && tool.timeoutMs !== undefined) {
      const message = `Tool "${tool.name}" did not finish within ${tool.timeoutMs} ms and was stopped. Try again with a smaller request, or tell the user it timed out.`;
      timer = setTimeout(() => deadline.abort(new ToolStoppedError(message)), tool.timeoutMs);
    }
    const stop = (reason: unknown) => reject(reason instanceof ToolStoppedError ? reason : new ToolStoppedError("The tool was cancelled because the run was cancelled."));
    const stopListening = cancellation ? cancellation.onAbort(stop) : onSignalAbort(context.abortSignal, stop);
    const settle = () => {
      stopListening?.();
      if (timer) clearTimeout(timer);
    };
    let running: Promise<unknown>;
    try {
      running = Promise.resolve(tool.run(args, context));
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(
      (result) => {
        settle();
        resolve(result);
      },
      (error: unknown) => {
        settle();
        reject(error);
      },
    );
  });
}

function describeToolFailure(tool: Tool, error: Error): string {
  if (error instanceof ToolStoppedError) return error.message;
  return `Tool "${tool.name}" failed: ${endSentence(error.message || error.name)} Check the arguments, or try a different approach.`;
}
