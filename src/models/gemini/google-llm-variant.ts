import { vertexAiFromEnvironment } from "./gemini-backend.js";

/**
 * Which Google service serves Gemini, with ADK's names and values: Vertex AI (Google Cloud credentials) or the
 * Gemini API (an API key from Google AI Studio). `Gemini.apiBackend` says which one a model uses, and
 * `BaseTool.apiVariant` which one the environment asks for.
 *
 * @example
 * ```ts
 * import { GoogleLLMVariant } from "toolsmith";
 * import { Gemini } from "toolsmith/models/gemini";
 *
 * const model = new Gemini({ model: "gemini-2.5-flash" });
 * if (model.apiBackend === GoogleLLMVariant.VERTEX_AI) console.log("on Vertex AI");
 * ```
 */
export enum GoogleLLMVariant {
  /** Google Cloud's Vertex AI, with Google Cloud's credentials. */
  VERTEX_AI = "VERTEX_AI",
  /** The Gemini API, with an API key from Google AI Studio. */
  GEMINI_API = "GEMINI_API",
}

/**
 * The variant the environment asks for, as ADK's `getGoogleLlmVariant` reads it: Vertex AI when
 * `GOOGLE_GENAI_USE_ENTERPRISE` (else the older `GOOGLE_GENAI_USE_VERTEXAI`) is `true` or `1`, the Gemini API
 * otherwise. The same reading chooses the backend of a `Gemini` model made without `vertexai`.
 */
export function getGoogleLlmVariant(): GoogleLLMVariant {
  return vertexAiFromEnvironment() ? GoogleLLMVariant.VERTEX_AI : GoogleLLMVariant.GEMINI_API;
}
