import { GeminiBuiltInTool } from "./gemini-built-in-tool.js";

/**
 * Google Search, run by Gemini while it answers (grounding). The answer's
 * event carries `groundingMetadata`: the queries, the pages and which span
 * each supports. Gemini models only; with another provider the first model
 * call ends in a `GEMINI_TOOL_UNSUPPORTED` error. Most agents use the shared
 * {@link GOOGLE_SEARCH}.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({ name: "researcher", model: "gemini-2.5-flash", tools: [GOOGLE_SEARCH] });
 * ```
 */
export class GoogleSearchTool extends GeminiBuiltInTool {
  constructor() {
    super({ name: "google_search", description: "Google Search Tool", key: "googleSearch" });
  }
}

/** The Google Search tool, as ADK's `GOOGLE_SEARCH`. */
export const GOOGLE_SEARCH: GoogleSearchTool = new GoogleSearchTool();
