import type { LlmRequest } from "../models/llm-request.js";
import type { LlmResponse } from "../models/llm-response.js";
import type { GenerateContentOptions, Model } from "../models/model.js";
import { playStep, snapshotRequest, type ScriptedAnswer } from "./scripted-model.js";

/** Options of {@link FunctionModel}. */
export interface FunctionModelOptions {
  /** The model's name. Default `"function-model"`. */
  name?: string;
  /**
   * When an answer is an array of chunks and the run streams, the pause before
   * each chunk, so a client shows them one by one as it would a real model's.
   * Default 0.
   */
  chunkDelayMs?: number;
}

/**
 * A model whose every answer comes from a function of the request: a stand-in
 * for demos and tests that decide what to say from what they are asked, with no
 * script to run out of. Return a response, an array of chunks to stream, or an
 * `Error` to throw. Every request is kept in {@link FunctionModel.requests}.
 *
 * @example
 * ```ts
 * import { FunctionModel, lastUserText, textResponse } from "toolsmith/testing";
 *
 * const model = new FunctionModel((request) => textResponse(`You said: ${lastUserText(request) ?? "nothing"}`));
 * ```
 */
export class FunctionModel implements Model {
  readonly name: string;
  /** `toolsmith.testing`: the provider name its spans carry. */
  readonly provider = "toolsmith.testing";
  /** Every request received, in order. */
  readonly requests: LlmRequest[] = [];
  readonly #respond: (request: LlmRequest) => ScriptedAnswer | Promise<ScriptedAnswer>;
  readonly #chunkDelayMs: number;

  constructor(respond: (request: LlmRequest) => ScriptedAnswer | Promise<ScriptedAnswer>, options: FunctionModelOptions = {}) {
    this.#respond = respond;
    this.name = options.name ?? "function-model";
    this.#chunkDelayMs = options.chunkDelayMs ?? 0;
  }

  async *generateContent(request: LlmRequest, options: GenerateContentOptions): AsyncGenerator<LlmResponse> {
    this.requests.push(snapshotRequest(request));
    yield* playStep(this.#respond, request, { ...options, chunkDelayMs: this.#chunkDelayMs });
  }
}
