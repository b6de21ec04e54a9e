import type { Content, Part } from "../content/content.js";
import { setOwnField } from "../content/own-field.js";
import { ToolsmithError } from "../errors/toolsmith-error.js";
import type { LlmRequest } from "../models/llm-request.js";
import type { LlmResponse } from "../models/llm-response.js";
import type { GenerateContentOptions, Model } from "../models/model.js";
import { signalAborted } from "../agents/run-cancellation.js";

/**
 * One scripted model turn: a response; an `Error` to throw; an array of chunks
 * to stream, which are also joined into the complete response; or a function of
 * the request that returns one of those (for answers that depend on it).
 */
export type ScriptedStep = ScriptedAnswer | ((request: LlmRequest) => ScriptedAnswer | Promise<ScriptedAnswer>);

/** What a step plays: a response, chunks to stream, or an error to throw. */
export type ScriptedAnswer = LlmResponse | LlmResponse[] | Error;

/** The script ran out, or was not used up. */
export class ScriptError extends ToolsmithError {}

/**
 * A model that answers from a script, for tests and examples: each call takes
 * the next step. Every request is kept in {@link ScriptedModel.requests}.
 *
 * @example
 * ```ts
 * const model = new ScriptedModel([
 *   { content: { role: "model", parts: [{ functionCall: { name: "get_weather_report", args: { city: "Paris" } } }] } },
 *   (request) => ({ content: { role: "model", parts: [{ text: "It is sunny." }] } }),
 * ]);
 * // … run the agent …
 * model.assertComplete();
 * ```
 */
export class ScriptedModel implements Model {
  readonly name: string;
  /** `toolsmith.testing`: the provider name its spans carry. */
  readonly provider = "toolsmith.testing";
  /** Every request received, in order. */
  readonly requests: LlmRequest[] = [];
  readonly #steps: ScriptedStep[];

  constructor(steps: readonly ScriptedStep[], options: { name?: string } = {}) {
    this.#steps = [...steps];
    this.name = options.name ?? "scripted-model";
  }

  /** Steps not yet used. */
  get remainingSteps(): number {
    return this.#steps.length;
  }

  /** Adds steps at the end of the script. */
  push(...steps: ScriptedStep[]): void {
    this.#steps.push(...steps);
  }

  /** Throws when steps are left over: the conversation ended sooner than the test expected. */
  assertComplete(): void {
    if (this.#steps.length > 0) {
      throw new ScriptError("SCRIPT_NOT_COMPLETE", `ScriptedModel has ${this.#steps.length} unused step(s) after ${this.requests.length} request(s). The agent stopped calling the model earlier than scripted.`);
    }
  }

  async *generateContent(request: LlmRequest, options: GenerateContentOptions): AsyncGenerator<LlmResponse> {
    this.requests.push(snapshotRequest(request));
    const step = this.#steps.shift();
    if (step === undefined) {
      throw new ScriptError("SCRIPT_EXHAUSTED", `ScriptedModel received request ${this.requests.length} but has no step left. Add a step for it.`);
    }
    // A plain response is played here: delegating to playStep would cost every model call a generator hop.
    if (typeof step === "function" || step instanceof Error || Array.isArray(step)) yield* playStep(step, request, options);
    else yield playResponse(step, options);
  }
}

/**
 * Plays one step as a model would: throws an `Error` step, yields a response,
 * or streams an array of chunks (as partial responses when the request asks
 * for streaming, `chunkDelayMs` apart) followed by the complete response.
 */
export async function* playStep(step: ScriptedStep, request: LlmRequest, options: GenerateContentOptions & { chunkDelayMs?: number }): AsyncGenerator<LlmResponse> {
  const played = typeof step === "function" ? await step(request) : step;
  if (played instanceof Error) throw played;
  if (!Array.isArray(played)) {
    yield playResponse(played, options);
    return;
  }
  if (signalAborted(options)) throw options.abortSignal!.reason;
  if (options.stream) {
    for (const chunk of played) {
      if (options.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, options.chunkDelayMs));
      yield { ...cloneData(chunk), partial: true };
    }
  }
  yield joinChunks(played);
}

/** One complete response as the model gives it: a copy of the scripted one, unless the call was cancelled. */
function playResponse(response: LlmResponse, options: GenerateContentOptions): LlmResponse {
  // Asked without reading the signal, which a run makes only when it is read.
  if (signalAborted(options)) throw options.abortSignal!.reason;
  return cloneData(response);
}

/** The complete response that a list of streamed chunks adds up to. */
function joinChunks(chunks: readonly LlmResponse[]): LlmResponse {
  const parts: Part[] = [];
  let last: LlmResponse = {};
  for (const chunk of chunks) {
    last = chunk;
    for (const part of chunk.content?.parts ?? []) {
      const previous = parts[parts.length - 1];
      if (part.text !== undefined && previous?.text !== undefined && !!previous.thought === !!part.thought && Object.keys(part).length <= 2) {
        previous.text += part.text;
      } else parts.push(cloneData(part));
    }
  }
  const content: Content = { role: "model", parts };
  const { partial: _partial, content: _content, ...rest } = last;
  return { ...cloneData(rest), content };
}

/** A copy of the request's lists, so later changes to the request do not show; contents are shared, as events are immutable. */
export function snapshotRequest(request: LlmRequest): LlmRequest {
  // Field by field: spreading the request would go through its systemInstruction accessor the slow way.
  return {
    model: request.model,
    contents: request.contents.slice(),
    systemInstruction: request.systemInstruction,
    functionDeclarations: request.functionDeclarations.slice(),
    config: { ...request.config },
  };
}

/**
 * A deep copy of JSON-like data; much faster than structuredClone for the
 * small objects of a script. A `__proto__` key (as `JSON.parse` makes one from
 * a model's hostile arguments) is copied as data: assigned, it would become the
 * copy's prototype, and the run would meet other arguments than a real model's.
 */
function cloneData<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneData) as T;
  const copy: Record<string, unknown> = {};
  for (const key in value) setOwnField(copy, key, cloneData((value as Record<string, unknown>)[key]));
  return copy as T;
}
