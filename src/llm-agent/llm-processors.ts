import { invocationAborted, type InvocationContext } from "../agents/invocation-context.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { Event } from "../events/event.js";
import type { LlmRequest } from "../models/llm-request.js";
import type { LlmResponse } from "../models/llm-response.js";

/**
 * A step that changes an LLM agent's request before each model call (ADK's `BaseLlmRequestProcessor`): push one
 * onto `agent.requestProcessors`, or give the agent a list. It runs after the agent's own steps made the request
 * (the history, the instruction with the state filled in, the output schema) and before the tools declare
 * themselves and change it (`processLlmRequest`), then the model callbacks run. It changes `llmRequest` in place;
 * the events it yields are stored and reach the caller before the model is called.
 */
export abstract class BaseLlmRequestProcessor {
  /**
   * Changes the request in place, yielding any events to store first.
   * @param invocationContext - the run, as ADK's processors get it (`agent`, `session`, `invocationId`, …).
   * @param llmRequest - the request about to go to the model.
   */
  abstract runAsync(invocationContext: InvocationContext, llmRequest: LlmRequest): AsyncGenerator<Event, void, void>;
}

/**
 * A step that changes each model response before it becomes an event (ADK's `BaseLlmResponseProcessor`): push one
 * onto `agent.responseProcessors`, or give the agent a list. It runs after the model callbacks
 * (`afterModelCallback`), on every response the model or a `beforeModelCallback` gave (the partial ones of a
 * streaming run too), and changes `llmResponse` in place; the events it yields are stored and reach the caller
 * before the response's own event.
 */
export abstract class BaseLlmResponseProcessor {
  /**
   * Changes the response in place, yielding any events to store first.
   * @param invocationContext - the run, as ADK's processors get it.
   * @param llmResponse - the response, before it becomes the model's event.
   */
  abstract runAsync(invocationContext: InvocationContext, llmResponse: LlmResponse): AsyncGenerator<Event, void, void>;
}

/**
 * Runs `processors` in order on `subject` (a request or a response), giving each event they yield to `take`
 * (awaited: the event is stored before the processor goes on). Stops, with `false`, when the run was cancelled:
 * as in ADK, the event that arrived after the cancellation is not passed on.
 */
export async function runProcessors<T>(
  processors: readonly (BaseLlmRequestProcessor | BaseLlmResponseProcessor)[],
  list: "requestProcessors" | "responseProcessors",
  context: InvocationContext,
  subject: T,
  take: (event: Event) => Promise<void> | void,
): Promise<boolean> {
  for (let index = 0; index < processors.length; index++) {
    const processor = processors[index] as { runAsync?: (context: InvocationContext, subject: T) => AsyncIterable<Event> } | undefined;
    if (typeof processor?.runAsync !== "function") {
      // Lists are public and changed after the agent is made (as ADK programs push onto them): checked where used.
      throw new ConfigurationError("UNSUPPORTED_OPTION", `Agent "${context.agent.name}": ${list}[${index}] has no runAsync method. Give it a class that extends Base${list === "requestProcessors" ? "LlmRequestProcessor" : "LlmResponseProcessor"} and implements async *runAsync(invocationContext, ${list === "requestProcessors" ? "llmRequest" : "llmResponse"}).`);
    }
    for await (const event of processor.runAsync(context, subject)) {
      if (invocationAborted(context)) return false;
      await take(event);
    }
  }
  return true;
}
