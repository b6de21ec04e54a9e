import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { LlmRequest } from "./llm-request.js";
import type { LlmResponse } from "./llm-response.js";
import type { BaseLlmConnection } from "./live-connection.js";
import type { GenerateContentOptions, Model } from "./model.js";

/**
 * ADK's base class for models, for programs that bring their own model as ADK
 * programs do: extend it and implement `generateContentAsync`. It is a
 * toolsmith {@link Model}, so an instance goes wherever a model does.
 *
 * @example
 * ```ts
 * class EchoLlm extends BaseLlm {
 *   static override readonly supportedModels = [/^echo-/];
 *   async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
 *     yield { content: { role: "model", parts: [{ text: "echo" }] } };
 *   }
 * }
 * ```
 */
export abstract class BaseLlm implements Model {
  /** Names this class serves, for {@link LLMRegistry.register}. */
  static readonly supportedModels: Array<string | RegExp> = [];
  readonly model: string;

  constructor({ model }: { model: string }) {
    this.model = model;
  }

  /** The model's name, as toolsmith's {@link Model} contract names it. */
  get name(): string {
    return this.model;
  }

  /**
   * Yields the model's answer to the request: with `stream`, partial
   * responses (`partial: true`) and then the complete one; without, the
   * complete one alone.
   */
  abstract generateContentAsync(llmRequest: LlmRequest, stream?: boolean, abortSignal?: AbortSignal): AsyncGenerator<LlmResponse, void>;

  /**
   * Opens a live (bidirectional) connection, for `Runner.runLive`. ADK makes it abstract; here a model that does
   * not override it refuses (`LIVE_UNSUPPORTED`), so a model for `runAsync` alone need not write one.
   */
  connect(_llmRequest: LlmRequest): Promise<BaseLlmConnection> {
    return Promise.reject(new ConfigurationError("LIVE_UNSUPPORTED", `Model "${this.model}" (${this.constructor.name}) cannot run live: it does not implement connect(). Use a model that does (Gemini's live models), or runAsync.`));
  }

  /** toolsmith's model contract, answered by {@link generateContentAsync}. */
  generateContent(request: LlmRequest, options: GenerateContentOptions): AsyncIterable<LlmResponse> {
    return this.generateContentAsync(request, options.stream, options.abortSignal);
  }
}

/** Whether a value is a {@link BaseLlm} (ADK's check). */
export function isBaseLlm(value: unknown): value is BaseLlm {
  return value instanceof BaseLlm;
}
