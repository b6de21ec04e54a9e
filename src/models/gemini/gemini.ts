import { ConfigurationError } from "../../errors/toolsmith-error.js";
import { refuseUnhonouredOptions } from "../../errors/unhonoured-option.js";
import { BaseLlm } from "../base-llm.js";
import type { BaseLlmConnection } from "../live-connection.js";
import type { LlmRequest } from "../llm-request.js";
import type { LlmResponse } from "../llm-response.js";
import { GeminiModel } from "./gemini-model.js";
import { GoogleLLMVariant } from "./google-llm-variant.js";

/** ADK's options of {@link Gemini}; those toolsmith does not support are refused by name. */
export interface GeminiParams {
  /** Default `gemini-2.5-flash`, as in ADK. */
  model?: string;
  /** Default: the `GOOGLE_API_KEY`, `GEMINI_API_KEY` or `GOOGLE_GENAI_API_KEY` environment variable. */
  apiKey?: string;
  /** Vertex AI instead of the Gemini API. Default: `GOOGLE_GENAI_USE_ENTERPRISE` (or `GOOGLE_GENAI_USE_VERTEXAI`). */
  vertexai?: boolean;
  /** Vertex AI's project. Default: `GOOGLE_CLOUD_PROJECT`. */
  project?: string;
  /** Vertex AI's location. Default: `GOOGLE_CLOUD_LOCATION`. */
  location?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Not supported: toolsmith uses the generateContent API. */
  useInteractionsApi?: boolean;
}

/** The options `Gemini` takes. */
const GEMINI_OPTIONS = ["model", "apiKey", "vertexai", "project", "location", "headers", "useInteractionsApi"] as const;

const UNSUPPORTED: Record<string, string> = {
  useInteractionsApi: "toolsmith's Gemini adapter uses the generateContent API",
};

/**
 * ADK's `Gemini` model class: Gemini through `@google/genai`, on the Gemini API or Vertex AI, as a
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
    // A misspelt option (`vertexAi`, say) would otherwise leave the model on the Gemini API without a word.
    refuseUnhonouredOptions("Gemini", params, GEMINI_OPTIONS);
    const { apiKey, vertexai, project, location, headers } = params;
    this.#model = new GeminiModel({ model: this.model, apiKey, vertexai, project, location, headers });
  }

  /** The service this model's requests go to (ADK's `apiBackend`): Vertex AI or the Gemini API, as chosen when it was made. */
  get apiBackend(): GoogleLLMVariant {
    return this.#model.provider === "gcp.vertex_ai" ? GoogleLLMVariant.VERTEX_AI : GoogleLLMVariant.GEMINI_API;
  }

  /**
   * Opens a live (bidirectional) connection to the model, for `Runner.runLive`, as ADK's `Gemini.connect` does
   * (see {@link GeminiModel.connect}); the request is not changed. One that cannot be opened rejects with
   * `LIVE_CONNECTION_FAILED`.
   */
  override connect(llmRequest: LlmRequest): Promise<BaseLlmConnection> {
    return this.#model.connect(llmRequest);
  }

  async *generateContentAsync(llmRequest: LlmRequest, stream = false, abortSignal?: AbortSignal): AsyncGenerator<LlmResponse, void> {
    yield* this.#model.generateContent(llmRequest, { stream, abortSignal });
  }
}
