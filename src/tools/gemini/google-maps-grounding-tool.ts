import { GeminiBuiltInTool } from "./gemini-built-in-tool.js";

/**
 * Grounds Gemini's answers in Google Maps (places, routes, reviews): Gemini looks places up while it answers, and
 * the answer's `groundingMetadata` names its sources. Gemini 2 models and later, on the Gemini API or Vertex AI;
 * with another provider the first model call ends in a `GEMINI_TOOL_UNSUPPORTED` error. Most agents use the
 * shared {@link GOOGLE_MAPS_GROUNDING}.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({ name: "guide", model: "gemini-2.5-flash", tools: [GOOGLE_MAPS_GROUNDING] });
 * ```
 */
export class GoogleMapsGroundingTool extends GeminiBuiltInTool {
  constructor() {
    super({ name: "google_maps", description: "Google Maps Grounding Tool", key: "googleMaps" });
  }
}

/** The Google Maps grounding tool, as ADK's `GOOGLE_MAPS_GROUNDING`. */
export const GOOGLE_MAPS_GROUNDING: GoogleMapsGroundingTool = new GoogleMapsGroundingTool();
