import { GeminiBuiltInTool } from "./gemini-built-in-tool.js";

/**
 * Lets Gemini read the web pages whose URLs appear in the conversation
 * (Gemini 2 and later). Gemini models only; with another provider the first
 * model call ends in a `GEMINI_TOOL_UNSUPPORTED` error. Most agents use the
 * shared {@link URL_CONTEXT}.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({ name: "reader", model: "gemini-2.5-flash", tools: [URL_CONTEXT] });
 * ```
 */
export class UrlContextTool extends GeminiBuiltInTool {
  constructor() {
    super({ name: "url_context", description: "URL Context Tool", key: "urlContext" });
  }
}

/** The URL context tool, as ADK's `URL_CONTEXT`. */
export const URL_CONTEXT: UrlContextTool = new UrlContextTool();
