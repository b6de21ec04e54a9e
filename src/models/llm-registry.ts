import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { BaseLlm } from "./base-llm.js";
import { findModelProvider, registerModelProvider, unknownModelMessage } from "./model-registry.js";

/** A {@link BaseLlm} subclass that {@link LLMRegistry} can make: constructed from a model name, naming the models it serves. */
export type BaseLlmClass = (new (params: { model: string }) => BaseLlm) & { readonly supportedModels: ReadonlyArray<string | RegExp> };

const registeredClasses = new Map<string | RegExp, BaseLlmClass>();

/** ADK's reading of a supported-models entry: the whole name must match. */
function wholeNamePattern(entry: string | RegExp): RegExp {
  return entry instanceof RegExp ? new RegExp(`^(?:${entry.source})$`, entry.flags) : new RegExp(`^(?:${entry})$`);
}

/**
 * ADK's registry of model classes by name, on top of toolsmith's
 * {@link registerModelProvider}: a class registered here also serves agents
 * given the model as a string (`model: "my-model-1"`).
 *
 * One difference from ADK: a class registered for names toolsmith's built-in
 * providers also serve (`gemini-…`) wins over the built-in one, where in ADK
 * the first registration (its own `Gemini`) wins. Registering a class for a
 * name is asking for it to serve that name.
 */
export class LLMRegistry {
  /** Registers a class for every entry of its `supportedModels` (strings are regular expressions, as in ADK). */
  static register(llmClass: BaseLlmClass): void {
    for (const entry of llmClass.supportedModels) {
      registeredClasses.set(entry, llmClass);
      registerModelProvider(wholeNamePattern(entry), (model) => new llmClass({ model }));
    }
  }

  /** The registered class serving a model name; the first registered match wins, as in ADK. */
  static resolve(model: string): BaseLlmClass {
    for (const [entry, llmClass] of registeredClasses) if (wholeNamePattern(entry).test(model)) return llmClass;
    // ADK registers its Gemini class up front; toolsmith's built-in providers load their SDK on first use, so they
    // are not classes here. Say so for a name they serve, rather than that nothing serves it.
    const builtIn = findModelProvider(model) !== undefined;
    throw new ConfigurationError(
      "UNKNOWN_MODEL",
      builtIn
        ? `"${model}" is served by toolsmith's built-in provider, which is not a class in LLMRegistry (it loads its SDK when first used): give the name to the agent (model: "${model}"), or make the model with its class (new Gemini({ model: "${model}" }) from "toolsmith/models/gemini" for Gemini).`
        : `No class registered with LLMRegistry serves "${model}". ${unknownModelMessage(model)}`,
    );
  }

  /** A new instance of the registered class serving a model name. */
  static newLlm(model: string): BaseLlm {
    return new (LLMRegistry.resolve(model))({ model });
  }
}
