import { Context } from "../agents/context.js";
import { withinModelCallLimit } from "../agents/run-config.js";
import { newEventId } from "../events/new-id.js";
import { runCallbacks } from "./callbacks.js";
import type { InvocationContext } from "../agents/invocation-context.js";
import type { LlmAgentSettings } from "./llm-agent-settings.js";
import { isToolsmithError, LlmCallsLimitExceededError } from "../errors/toolsmith-error.js";
import type { EventActions } from "../events/event-actions.js";
import { eventFromResponse, type Event } from "../events/event.js";
import { EventChannel } from "./event-channel.js";
import { runProcessors } from "./llm-processors.js";
import { createEventActions } from "../events/event-actions.js";
import { detachContents, type LlmRequest } from "../models/llm-request.js";
import type { LlmResponse } from "../models/llm-response.js";
import type { GenerateContentOptions, Model } from "../models/model.js";
import { assertResponseShape } from "../models/model-response.js";
import { callOptionsWithLazySignal } from "../agents/run-cancellation.js";
import { invocationAborted, invocationCancellation, pluginsFor, traceScopeOf } from "../agents/invocation-context.js";
import { GenAi, modelCallAttributes, modelOperation, modelResponseAttributes } from "../telemetry/gen-ai-attributes.js";
import { metricsEnabled, recordModelCall } from "../telemetry/metrics.js";
import { iterateInScope, traced } from "../telemetry/spans.js";

/**
 * One model call with its callbacks: returns the complete model event (or an error event when the call failed
 * and no error callback answered, or when the invocation already made `runConfig.maxLlmCalls` model calls);
 * returns nothing once the run is cancelled. Given `emit`, the call streams when the run does (`streamingMode`
 * "sse"): each partial event goes to it, and the next chunk is read once it resolved (the event was passed on); the
 * events of the agent's response processors go to it too (ADK's `responseProcessors`, run on each response after
 * the model callbacks, before it becomes an event). An async function, not a generator:
 * most calls stream nothing, and a generator would cost each of them its hops; {@link streamModelCall} is the
 * generator for runs that stream.
 */
export async function callModel(
  agent: LlmAgentSettings,
  context: InvocationContext,
  model: Model,
  request: LlmRequest,
  actions?: EventActions,
  emit?: (event: Event) => Promise<void>,
): Promise<Event | undefined> {
  // The event carries what preparing the request recorded (`actions`), and what the callbacks record.
  const eventActions = actions ?? createEventActions();
  // The callbacks' context records on the event's actions; made only when a callback or plugin runs (most calls have none).
  let madeContext: Context | undefined;
  const callbackContext = () => (madeContext ??= new Context({ invocation: context, actions: eventActions }));
  const eventId = newEventId();
  let final: LlmResponse | undefined;
  const toEvent = (response: LlmResponse): Event => {
    // A partial event gets its own copy of the actions; the complete one takes over the callbacks' record.
    const actions = response.partial ? createEventActions(eventActions) : eventActions;
    const event = eventFromResponse(response, { id: eventId, invocationId: context.invocationId, author: agent.name, branch: context.branch, actions });
    if (!response.partial) final = event;
    return event;
  };
  // The response processors change a response in place before it becomes an event; false once the run was cancelled.
  // The loop gives `emit` to every call of an agent that has them; without them nothing is awaited.
  const processors = agent.responseProcessors?.length && emit ? agent.responseProcessors : undefined;
  const processed = processors ? (response: LlmResponse) => runProcessors(processors, "responseProcessors", context, response, emit!) : undefined;
  // Past the limit the run ends with an error event, stored like any other: a run never throws for what happens inside it.
  if (!withinModelCallLimit(++context.counters.llmCalls, context.runConfig)) return toEvent(errorResponse(new LlmCallsLimitExceededError(context.runConfig.maxLlmCalls)));

  const scope = traceScopeOf(context);
  const provider = model.provider ?? "unknown";
  const operation = modelOperation(provider);
  const modelName = request.model ?? model.name;
  const span = traced(scope, () => ({
    name: `${operation} ${modelName}`,
    attributes: { [GenAi.conversationId]: context.session.id, [GenAi.invocationId]: context.invocationId, [GenAi.eventId]: eventId, [GenAi.agentName]: agent.name, ...modelCallAttributes(request, model, scope.captureContent) },
  }));
  // Timed only for a meter: reading the clock twice a call showed in the loop's profile.
  const metered = metricsEnabled();
  const startedAt = metered ? performance.now() : 0;
  let sentToModel = false;
  try {
    // Plugins first, then the agent's callbacks, as in ADK; the first answer wins.
    // With neither, nothing is awaited (a turn of the event loop each, for no one).
    const pluginsBefore = pluginsFor(context, "beforeModelCallback");
    if (agent.beforeModelCallback || pluginsBefore?.changesRequestContents()) detachContents(request);
    let response = pluginsBefore || agent.beforeModelCallback ? ((await pluginsBefore?.runBeforeModelCallback({ callbackContext: callbackContext(), llmRequest: request })) ?? (await runCallbacks(agent.beforeModelCallback, { context: callbackContext(), request }, "beforeModelCallback"))) : undefined;
    if (response === undefined) {
      try {
        const stream = emit !== undefined && context.runConfig.streamingMode === "sse";
        sentToModel = true;
        const chunks = model.generateContent(request, modelCallOptions(stream, context));
        // The vendor SDK's HTTP requests run with the model call's span active, so instrumented clients nest under it.
        for await (const chunk of span.recording ? iterateInScope(span.scope, chunks) : chunks) {
          if (invocationAborted(context)) return;
          assertResponseShape(model.name, chunk);
          if (chunk.partial) {
            if (emit && (!processed || (await processed(chunk)))) await emit(toEvent(chunk));
          } else response = chunk;
        }
      } catch (error) {
        if (invocationAborted(context)) return;
        const failure = error instanceof Error ? error : new Error(String(error));
        response = (await pluginsFor(context, "onModelErrorCallback")?.runOnModelErrorCallback({ callbackContext: callbackContext(), llmRequest: request, error: failure })) ?? (await runCallbacks(agent.onModelErrorCallback, { context: callbackContext(), request, error: failure }, "onModelErrorCallback"));
        if (response === undefined) {
          const failed = errorResponse(failure);
          return toEvent((await runCallbacks(agent.afterModelCallback, { context: callbackContext(), response: failed, error: failure }, "afterModelCallback")) ?? failed);
        }
      }
      if (response === undefined) response = errorResponse(new Error(`Model "${model.name}" ended its response without content.`));
      const answered = response;
      const pluginsAfter = pluginsFor(context, "afterModelCallback");
      if (pluginsAfter || agent.afterModelCallback) response = (await pluginsAfter?.runAfterModelCallback({ callbackContext: callbackContext(), llmResponse: answered })) ?? (await runCallbacks(agent.afterModelCallback, { context: callbackContext(), response: answered }, "afterModelCallback")) ?? answered;
    }
    if (processed && !(await processed(response))) return;
    return toEvent(response);
  } finally {
    const ended = final as Event | undefined;
    if (ended?.errorCode) span.fail(ended.errorCode, ended.errorMessage);
    if (ended && span.recording) span.setAttributes(modelResponseAttributes(ended, scope.captureContent));
    span.end();
    const usage = ended?.usageMetadata;
    // A call a callback answered never reached the model: it has a span (as in ADK), but no model metrics.
    if (sentToModel && metered) recordModelCall({ operation, provider, model: modelName, seconds: (performance.now() - startedAt) / 1000, inputTokens: usage?.promptTokenCount, outputTokens: usage?.candidatesTokenCount, errorType: ended?.errorCode });
  }
}

/**
 * {@link callModel} for a run that streams (`runConfig.streamingMode` "sse") or an agent with response processors:
 * yields the partial events as the model sends them and the processors' events, each passed on before the next
 * chunk is read (or the processor goes on), and returns what `callModel` returns.
 */
export async function* streamModelCall(agent: LlmAgentSettings, context: InvocationContext, model: Model, request: LlmRequest, actions?: EventActions): AsyncGenerator<Event, Event | undefined, undefined> {
  const channel = new EventChannel();
  const called = callModel(agent, context, model, request, actions, (event) => channel.emit(event));
  yield* channel.drain(called);
  return called;
}

function errorResponse(error: Error): LlmResponse {
  return { errorCode: isToolsmithError(error) ? error.code : "MODEL_ERROR", errorMessage: error.message };
}

/**
 * A model call's options. The run's signal stays unmade until the model reads it: vendor adapters hand it to their
 * SDK, the scripted model asks `signalAborted` instead.
 */
function modelCallOptions(stream: boolean, context: InvocationContext): GenerateContentOptions {
  const cancellation = invocationCancellation(context);
  if (!cancellation) return { stream, abortSignal: context.abortSignal };
  // Made once an invocation (a property with a getter costs a hidden-class change), shared by its model calls.
  const memo = context.memo!;
  return stream ? (memo.streamingCallOptions ??= callOptionsWithLazySignal(true, cancellation)) : (memo.modelCallOptions ??= callOptionsWithLazySignal(false, cancellation));
}
