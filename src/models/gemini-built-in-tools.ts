import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { LlmRequest } from "./llm-request.js";

/**
 * The entries of `config.tools` that Gemini runs on its side, by their key in
 * the Gemini request, with the toolsmith name that adds each.
 */
const GEMINI_BUILT_IN_TOOLS: Readonly<Record<string, string>> = {
  googleSearch: "GOOGLE_SEARCH",
  googleSearchRetrieval: "GOOGLE_SEARCH",
  urlContext: "URL_CONTEXT",
  googleMaps: "GOOGLE_MAPS_GROUNDING",
  codeExecution: "codeExecutor: new BuiltInCodeExecutor()",
};

/** The Gemini built-in tools a request asks for (`googleSearch`, `codeExecution`, …), in order. */
export function geminiBuiltInToolsOf(request: LlmRequest): string[] {
  const tools = request.config.tools;
  if (!Array.isArray(tools)) return [];
  const keys: string[] = [];
  for (const tool of tools) {
    if (typeof tool !== "object" || tool === null) continue;
    for (const key of Object.keys(tool)) if (key in GEMINI_BUILT_IN_TOOLS) keys.push(key);
  }
  return keys;
}

/**
 * Throws when a request for another provider asks for Gemini's built-in tools,
 * which only Gemini runs. Called by each non-Gemini adapter before it sends
 * anything, so the first model call fails with this message rather than with
 * the provider's complaint about an unknown tool, or with the tool silently left out.
 */
export function refuseGeminiBuiltInTools(request: LlmRequest, provider: string, modelName: string): void {
  const keys = geminiBuiltInToolsOf(request);
  if (keys.length === 0) return;
  const givenAs = [...new Set(keys.map((key) => GEMINI_BUILT_IN_TOOLS[key]))].join(", ");
  throw new ConfigurationError(
    "GEMINI_TOOL_UNSUPPORTED",
    `Gemini's built-in tools (${[...new Set(keys)].join(", ")}) run only on Gemini models, and this agent's model is ${provider} "${modelName}". ` +
      `Give this agent a Gemini model (such as "gemini-2.5-flash"), or remove ${givenAs} from it; a sub-agent with a Gemini model can do the search or code execution for it.`,
  );
}
