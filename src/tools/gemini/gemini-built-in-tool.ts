import { leavesContentsAlone } from "../../models/llm-request.js";
import type { LlmRequest } from "../../models/llm-request.js";
import { BaseTool } from "../base-tool.js";
import type { FunctionDeclaration } from "../tool.js";

/** The key of a tool Gemini runs on its side, as the Gemini request names it in `tools`. */
export type GeminiBuiltInToolKey = "googleSearch" | "urlContext" | "codeExecution" | "googleMaps";

/**
 * A tool Gemini runs itself (Google Search, URL context, code execution, Google Maps). It
 * has no declaration: before each model call it adds its entry (`{googleSearch: {}}`)
 * to the request's `config.tools`, as ADK does, and the Gemini adapter sends it
 * beside the function declarations. Other providers' adapters refuse such a
 * request before sending it, with a message naming the tool.
 */
export class GeminiBuiltInTool extends BaseTool {
  // Its processLlmRequest changes no content of the request in place: a request only it sees is not copied.
  static {
    leavesContentsAlone(GeminiBuiltInTool.prototype.processLlmRequest);
  }

  /** The entry this tool adds to the Gemini request's `tools`. */
  readonly key: GeminiBuiltInToolKey;

  // A BaseTool, as ADK's GOOGLE_SEARCH and URL_CONTEXT are: `isBaseTool` is true of them.
  constructor(options: { name: string; description: string; key: GeminiBuiltInToolKey }) {
    super({ name: options.name, description: options.description });
    this.key = options.key;
  }

  /** None: the model does not call this tool as a function; Gemini runs it while answering. */
  override declaration(): FunctionDeclaration | undefined {
    return undefined;
  }

  /** Only reached when a model calls the name as a function; the model reads this error. */
  async runAsync(): Promise<unknown> {
    throw new Error(`"${this.name}" is run by Gemini while it answers, not called as a function. Answer without calling it.`);
  }

  /** Adds `{[key]: {}}` to `config.tools` once, in a new array so the agent's own config is never changed. */
  // Done at once, not as a promise: a turn of the event loop per request would reorder parallel agents' events.
  override processLlmRequest({ llmRequest: request }: { llmRequest: LlmRequest }): void {
    const tools = Array.isArray(request.config.tools) ? (request.config.tools as unknown[]) : [];
    if (tools.some((tool) => typeof tool === "object" && tool !== null && this.key in tool)) return;
    request.config.tools = [...tools, { [this.key]: {} }];
  }
}
