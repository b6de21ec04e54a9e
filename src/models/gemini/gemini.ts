import { ConfigurationError } from "../../errors/toolsmith-error.js";
import { BaseLlm } from "../base-llm.js";
import type { LlmRequest } from "../llm-request.js";
import type { LlmResponse } from "../llm-response.js";
import { GeminiModel } from "./gemini-model.js";

/** ADK's options of {@link Gemini}; those toolsmith does not support are refused by name. */
export interface GeminiParams {
  /** Default `gemini-2.5-flash`, as in ADK. */
  model?: string;
  /** Default: the `GOOGLE_API_KEY` or `GEMINI_API_KEY` environment variable. */
  apiKey?: string;
  /** Not supported: toolsmith talks to the Gemini API, not Vertex AI. */
  vertexai?: boolean;
  /** Not supported (Vertex AI). */
  project?: string;
  /** Not supported (Vertex AI). */
  location?: string;
  /** Not supported: make a `GoogleGenAI` client with your headers and pass it to `new GeminiModel({ client })`. */
  headers?: Record<string, string>;
  /** Not supported: toolsmith uses the generateContent API. */
  useInteractionsApi?: boolean;
}

const UNSUPPORTED: Record<string, string> = {
  vertexai: "toolsmith's Gemini adapter talks to the Gemini API, not Vertex AI",
  project: "it is a Vertex AI setting, and toolsmith's Gemini adapter talks to the Gemini API",
  location: "it is a Vertex AI setting, and toolsmith's Gemini adapter talks to the Gemini API",
  headers: "make a GoogleGenAI client with httpOptions.headers and pass it to new GeminiModel({ model, client })",
  useInteractionsApi: "toolsmith's Gemini adapter uses the generateContent API",
};

/**
 * ADK's `Gemini` model class: Gemini through `@google/genai`, as a
 * {@link BaseLlm}. It runs on toolsmith's {@link GeminiModel} (retries,
 * schema compilation, error mapping); use that directly for its options.
 */
export class Gemini extends BaseLlm {
  static override readonly supportedModels: Array<string | RegExp> = [/gemini-.*/, /projects\/.+\/locations\/.+\/endpoints\/.+/, /projects\/.+\/locations\/.+\/publishers\/google\/models\/gemini.+/];
  readonly #model: GeminiModel;

  constructor(params: GeminiParams = {}) {
    super({ model: params.model ?? "gemini-2.5-flash" });
    for (const [option, value] of Object.entries(params)) {
      if (value !== undefined && option in UNSUPPORTED) {
        throw new ConfigurationError("UNSUPPORTED_OPTION", `new Gemini({ ${option} }) is not supported: ${UNSUPPORTED[option]}.`);
      }
    }
    this.#model = new GeminiModel({ model: this.model, apiKey: params.apiKey });
  }

  async *generateContentAsync(llmRequest: LlmRequest, stream = false, abortSignal?: AbortSignal): AsyncGenerator<LlmResponse, void> {
    yield* this.#model.generateContent(llmRequest, { stream, abortSignal });
  }
}
