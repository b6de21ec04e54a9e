import { leavesContentsAlone } from "../models/llm-request.js";
import type { Content } from "../content/content.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { appendInstructions } from "../models/llm-request.js";
import { BaseTool, type RunAsyncToolRequest, type ToolProcessLlmRequest } from "./base-tool.js";

/** A few-shot example, as ADK's `Example`: a user's message and the turns that answered it. */
export interface Example {
  /** What the user said. */
  input: Content;
  /** The turns that followed: the model's calls and text, the tools' responses. */
  output: Content[];
}

const EXAMPLE_PROVIDER_BRAND = Symbol.for("google.adk.baseExampleProvider");

/**
 * Gives the examples that suit a user's message, for an {@link ExampleTool} whose examples depend on the query
 * (a search over a larger set, say). As in ADK, `getExamples` answers at once: it runs at every model call.
 */
export abstract class BaseExampleProvider {
  /** ADK's brand, so a provider made against either package is recognised by {@link isBaseExampleProvider}. */
  readonly [EXAMPLE_PROVIDER_BRAND] = true;

  /** The examples for this user message's text. */
  abstract getExamples(query: string): Example[];
}

/** Whether a value is a {@link BaseExampleProvider} (ADK's check: by its brand, not by class). */
export function isBaseExampleProvider(value: unknown): value is BaseExampleProvider {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[EXAMPLE_PROVIDER_BRAND] === true;
}

/**
 * ADK's few-shot tool: not a tool the model calls, but one that adds examples of conversations to each request's
 * system instruction, in ADK's `<EXAMPLES>` text (word for word, so a model tuned on ADK's prompts reads the same).
 * Added only when the invocation's user message has text; a provider is asked with that text.
 *
 * @example
 * ```ts
 * const examples = new ExampleTool([
 *   { input: { role: "user", parts: [{ text: "Weather in Paris?" }] },
 *     output: [{ role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }] }] },
 * ]);
 * const agent = new LlmAgent({ name: "weather", model, tools: [getWeather, examples] });
 * ```
 */
export class ExampleTool extends BaseTool {
  // Its processLlmRequest changes no content of the request in place: a request only it sees is not copied.
  static {
    leavesContentsAlone(ExampleTool.prototype.processLlmRequest);
  }

  readonly examples: Example[] | BaseExampleProvider;

  constructor(examples: Example[] | BaseExampleProvider) {
    // As in ADK: the name is only for the agent's list of tools; the model is never offered this tool.
    super({ name: "example_tool", description: "example tool" });
    if (!Array.isArray(examples) && !isBaseExampleProvider(examples)) {
      throw new ConfigurationError("INVALID_TOOL", "ExampleTool takes an array of examples ({ input, output }) or a BaseExampleProvider; it got neither.");
    }
    if (Array.isArray(examples)) assertExamples(examples, "ExampleTool");
    this.examples = examples;
  }

  /** Never called by a run: the tool declares nothing, so the model cannot call it. */
  async runAsync(_request: RunAsyncToolRequest): Promise<unknown> {
    throw new ConfigurationError("INVALID_TOOL", "ExampleTool only adds examples to requests; it is not called. Call the tools its examples show instead.");
  }

  override processLlmRequest({ toolContext, llmRequest }: ToolProcessLlmRequest): void {
    const query = toolContext.userContent?.parts?.[0]?.text;
    if (!query) return;
    appendInstructions(llmRequest, [buildExampleInstruction(this.examples, query, llmRequest.model)]);
  }
}

/** The examples' text for the system instruction: the given examples, or the provider's for `query`. */
export function buildExampleInstruction(examples: Example[] | BaseExampleProvider, query: string, model?: string): string {
  if (Array.isArray(examples)) return convertExamplesToText(examples, model);
  const provided = examples.getExamples(query);
  assertExamples(provided, `${examples.constructor.name}.getExamples`);
  return convertExamplesToText(provided, model);
}

/**
 * Refuses examples that are not `{ input, output }` with `output` a list, naming the first such and what it lacks:
 * ADK fails at the model call with "not iterable".
 */
function assertExamples(examples: unknown, source: string): asserts examples is Example[] {
  if (!Array.isArray(examples)) throw new ConfigurationError("INVALID_TOOL", `${source} gave ${typeof examples}, not a list of examples ({ input, output }).`);
  examples.forEach((example: unknown, index) => {
    const candidate = example as Partial<Example> | null;
    if (typeof candidate !== "object" || candidate === null || typeof candidate.input !== "object" || candidate.input === null || !Array.isArray(candidate.output)) {
      throw new ConfigurationError("INVALID_TOOL", `${source}: example ${index + 1} is not { input: Content, output: Content[] }. Give the user's message as input and the turns that answered it as a list in output.`);
    }
  });
}

/**
 * ADK's text for few-shot examples. Calls and responses are fenced with plain backticks for Gemini 2 models (and
 * when no model is named), with `tool_code` / `tool_outputs` fences for other models, as ADK writes them.
 */
export function convertExamplesToText(examples: readonly Example[], model?: string): string {
  const plainFences = !model || model.includes("gemini-2");
  let text = "";
  examples.forEach((example, index) => {
    text += `EXAMPLE ${index + 1}:\nBegin example\n[user]\n`;
    const inputParts = example.input?.parts;
    if (inputParts) text += `${inputParts.flatMap((part) => (part.text ? [part.text] : [])).join("\n")}\n`;
    let previousSpeaker: string | undefined;
    for (const content of example.output) {
      const speaker = content.role === "model" ? "[model]\n" : "[user]\n";
      if (speaker !== previousSpeaker) text += speaker;
      previousSpeaker = speaker;
      for (const part of content.parts ?? []) {
        if (part.functionCall) {
          const args = Object.entries(part.functionCall.args ?? {}).map(([name, value]) => (typeof value === "string" ? `${name}='${value}'` : `${name}=${String(value)}`));
          text += `${plainFences ? "```\n" : "```tool_code\n"}${part.functionCall.name}(${args.join(", ")})\n\`\`\`\n`;
        } else if (part.functionResponse) {
          text += `${plainFences ? "```\n" : "```tool_outputs\n"}${JSON.stringify(part.functionResponse)}\n\`\`\`\n`;
        } else if (part.text) text += `${part.text}\n`;
      }
    }
    text += "End example\n\n";
  });
  return `<EXAMPLES>\nBegin few-shot\nThe following are examples of user queries and model responses using the available tools.\n\n${text}End few-shot\n<EXAMPLES>`;
}
