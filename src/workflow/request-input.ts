import { randomUUID } from "node:crypto";
import { createEvent, type Event } from "../events/event.js";
import { pausedResponse } from "../pause/paused-call.js";
import { REQUEST_INPUT_FUNCTION_CALL_NAME } from "../tools/request-input-tool.js";
import { schemaToJsonSchema, type ToolParameters } from "../tools/tool-parameters.js";
import type { JsonSchema } from "../tools/tool.js";

const REQUEST_INPUT_BRAND = Symbol.for("toolsmith.workflow.requestInput");

/** What a node asks the person (ADK's `RequestInputParams`). */
export interface RequestInputParams {
  /** The id the answer names; a new UUID by default. Give a fixed one to ask the same question again after a resume. */
  interruptId?: string;
  /** Anything the client shows with the question. */
  payload?: unknown;
  /** The question. */
  message?: string;
  /** The shape of the answer (zod or JSON Schema): a structured answer that does not match is refused, and the node waits on. */
  responseSchema?: ToolParameters;
}

/**
 * A question a workflow node yields to the person (ADK's `RequestInput`): the run ends there, waiting; the person's
 * answer (a `functionResponse` to `adk_request_input` with the interrupt id, or plain text when it is the only
 * question waiting) resumes the workflow in the next run, and the answer is the node's output.
 *
 * @example
 * ```ts
 * const approve = node(async function* approve(ctx, draft) {
 *   yield new RequestInput({ message: `Publish this? ${draft}`, interruptId: "approve" });
 * });
 * ```
 */
export class RequestInput {
  readonly [REQUEST_INPUT_BRAND] = true;
  readonly interruptId: string;
  readonly payload?: unknown;
  readonly message?: string;
  readonly responseSchema?: ToolParameters;

  constructor(params: RequestInputParams = {}) {
    this.interruptId = params.interruptId ?? randomUUID();
    this.payload = params.payload;
    this.message = params.message;
    this.responseSchema = params.responseSchema;
  }
}

/** Whether a value is a {@link RequestInput} (branded, so one of another copy of toolsmith counts). */
export function isRequestInput(value: unknown): value is RequestInput {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[REQUEST_INPUT_BRAND] === true;
}

/**
 * The events of a question: ADK's `adk_request_input` call (long-running, its id the interrupt id), then the paused
 * placeholder it holds until the person answers, as every call waiting for the person does in toolsmith (so a run
 * that moves on does not take it for a call a killed run left unanswered).
 */
export function requestInputEvents(request: RequestInput, author: string, invocationId: string, branch: string | undefined): Event[] {
  const responseSchema: JsonSchema | null = request.responseSchema ? schemaToJsonSchema(request.responseSchema, `${author} input request`) : null;
  const args = { interruptId: request.interruptId, payload: request.payload ?? null, message: request.message ?? null, response_schema: responseSchema };
  const call = createEvent({ author, invocationId, branch, content: { role: "model", parts: [{ functionCall: { id: request.interruptId, name: REQUEST_INPUT_FUNCTION_CALL_NAME, args } }] }, longRunningToolIds: [request.interruptId] });
  const placeholder = createEvent({ author, invocationId, branch, content: { role: "user", parts: [{ functionResponse: { id: request.interruptId, name: REQUEST_INPUT_FUNCTION_CALL_NAME, response: pausedResponse("client") } }] } });
  return [call, placeholder];
}
