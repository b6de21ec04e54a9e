import { ConfigurationError } from "../errors/toolsmith-error.js";
import { refuseUnhonouredOptions } from "../errors/unhonoured-option.js";
import { BaseLlm } from "./base-llm.js";
import type { LlmRequest } from "./llm-request.js";
import type { LlmResponse } from "./llm-response.js";
import type { Model } from "./model.js";
import { runWithRouting, type Attempt, type Router } from "./routing.js";

/** Picks the model for a request (ADK's `LlmRouter`); called again with the failure when the picked one failed. */
export type LlmRouter = Router<Model, LlmRequest>;

/**
 * A model that sends each request to one of several, as ADK's `RoutedLlm`: `router` picks by key (the models'
 * names when given as a list), and when the picked model fails before answering anything (unreachable, rate
 * limited, refused), the router is asked again with the keys tried and the error, to fail over to another. A model
 * that has begun to answer is not replaced mid-answer. When the router gives up, the last error stands, and the
 * agent ends the turn with it as an error event.
 *
 * @example
 * ```ts
 * const model = new RoutedLlm({
 *   models: [new Gemini({ model: "gemini-2.5-flash" }), new Gemini({ model: "gemini-2.5-pro" })],
 *   router: (models, _request, failure) => (failure ? "gemini-2.5-pro" : "gemini-2.5-flash"),
 * });
 * ```
 */
export class RoutedLlm extends BaseLlm {
  readonly #models: Readonly<Record<string, Model>>;
  readonly #router: LlmRouter;

  constructor(options: { models: Readonly<Record<string, Model>> | readonly Model[]; router: LlmRouter; modelName?: string }) {
    refuseUnhonouredOptions("RoutedLlm", options, ["models", "router", "modelName"]);
    const { models, router, modelName = "routed-llm" } = options;
    const byKey: Record<string, Model> = Array.isArray(models) ? Object.fromEntries(models.map((model) => [nameOf(model), model])) : { ...(models as Record<string, Model>) };
    for (const [key, model] of Object.entries(byKey)) {
      if (typeof model?.generateContent !== "function") throw new ConfigurationError("INVALID_ROUTING", `RoutedLlm's model "${key}" is not a model: give BaseLlm instances or toolsmith models.`);
    }
    if (Object.keys(byKey).length === 0) throw new ConfigurationError("INVALID_ROUTING", "RoutedLlm needs at least one model to route to.");
    if (typeof router !== "function") throw new ConfigurationError("INVALID_ROUTING", "RoutedLlm needs a router: a function that returns the key of the model to use.");
    super({ model: modelName === "routed-llm" ? `RoutedLlm[${Object.entries(byKey).map(([key, model]) => `${key} (${nameOf(model)})`).join(", ")}]` : modelName });
    this.#models = byKey;
    this.#router = router;
  }

  async *generateContentAsync(request: LlmRequest, stream?: boolean, abortSignal?: AbortSignal): AsyncGenerator<LlmResponse, void> {
    yield* runWithRouting<Model, LlmRequest, LlmResponse>({
      items: this.#models,
      context: request,
      router: this.#router,
      run: (model) => answer(model, request, stream ?? false, abortSignal),
      giveUp: (error) => {
        throw error;
      },
      noneSelected: () => new ConfigurationError("INVALID_ROUTING", `${this.model}: the router picked no model for the request. Return the key of one of: ${Object.keys(this.#models).join(", ")}.`),
      unknownKey: (key) => new ConfigurationError("INVALID_ROUTING", `${this.model}: the router picked "${key}", which is none of its models (${Object.keys(this.#models).join(", ")}).`),
    });
  }
}

/** One model's answer, yielded as it comes; a failure before the first response is reported instead of thrown. */
async function* answer(model: Model, request: LlmRequest, stream: boolean, abortSignal: AbortSignal | undefined): AsyncGenerator<LlmResponse, Attempt, undefined> {
  let answered = false;
  try {
    for await (const response of model.generateContent(request, { stream, abortSignal })) {
      answered = true;
      yield response;
    }
    return { failed: false };
  } catch (error) {
    if (answered || abortSignal?.aborted) throw error;
    return { failed: true, error };
  }
}

function nameOf(model: Model): string {
  return (model as Partial<BaseLlm>).model ?? model.name;
}
