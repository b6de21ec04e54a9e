import { ConfigurationError } from "../../errors/toolsmith-error.js";
import { logger } from "../../logging/logger.js";
import { requireApiKey } from "../api-key.js";

/** How Gemini is reached: the Gemini API with a key, or Vertex AI in a Google Cloud project and location. */
export type GeminiBackend = { vertexai: false; apiKey: string } | { vertexai: true; project: string; location: string };

/** What a program may say about the backend; anything left out is read from the environment, as ADK reads it. */
export interface GeminiBackendOptions {
  apiKey?: string;
  vertexai?: boolean;
  project?: string;
  location?: string;
}

let warnedDeprecatedVariable = false;

/**
 * Whether the environment asks for Vertex AI, as ADK and `@google/genai` read it: `GOOGLE_GENAI_USE_ENTERPRISE`
 * (`true` or `1`), else the older `GOOGLE_GENAI_USE_VERTEXAI`, which still works and is warned about once.
 */
export function vertexAiFromEnvironment(environment: NodeJS.ProcessEnv = process.env): boolean {
  const flag = (name: string) => ["true", "1"].includes((environment[name] ?? "").toLowerCase());
  if (environment.GOOGLE_GENAI_USE_ENTERPRISE !== undefined) return flag("GOOGLE_GENAI_USE_ENTERPRISE");
  if (environment.GOOGLE_GENAI_USE_VERTEXAI === undefined) return false;
  if (!warnedDeprecatedVariable && environment === process.env) {
    warnedDeprecatedVariable = true;
    logger.warn("GOOGLE_GENAI_USE_VERTEXAI is deprecated, please use GOOGLE_GENAI_USE_ENTERPRISE instead");
  }
  return flag("GOOGLE_GENAI_USE_VERTEXAI");
}

/** Whether the environment alone sets Vertex AI up: asked for, with a project and a location. */
export function vertexAiConfigured(environment: NodeJS.ProcessEnv = process.env): boolean {
  return vertexAiFromEnvironment(environment) && !!environment.GOOGLE_CLOUD_PROJECT && !!environment.GOOGLE_CLOUD_LOCATION;
}

/**
 * The backend the options and the environment give, checked as ADK's `Gemini` checks it: Vertex AI (`vertexai`, or
 * the environment's flag) needs a project (`GOOGLE_CLOUD_PROJECT`) and a location (`GOOGLE_CLOUD_LOCATION`), and
 * authenticates with Google Cloud's application default credentials; the Gemini API needs a key. A missing setting
 * is a `ConfigurationError` naming what to set.
 */
export function geminiBackend(options: GeminiBackendOptions, environment: NodeJS.ProcessEnv = process.env): GeminiBackend {
  const vertexai = options.vertexai ?? vertexAiFromEnvironment(environment);
  if (!vertexai) {
    if (options.project !== undefined || options.location !== undefined) {
      throw new ConfigurationError("VERTEX_AI_NOT_CONFIGURED", "A project and a location are Vertex AI settings: add vertexai: true (or set GOOGLE_GENAI_USE_ENTERPRISE=true) to use Vertex AI, or leave them out for the Gemini API.");
    }
    return { vertexai: false, apiKey: requireApiKey({ apiKey: options.apiKey, provider: "Gemini" }, environment) };
  }
  const project = options.project ?? environment.GOOGLE_CLOUD_PROJECT;
  const location = options.location ?? environment.GOOGLE_CLOUD_LOCATION;
  if (!project) throw new ConfigurationError("VERTEX_AI_NOT_CONFIGURED", "Vertex AI needs a Google Cloud project: pass project to the model's options, or set GOOGLE_CLOUD_PROJECT.");
  if (!location) throw new ConfigurationError("VERTEX_AI_NOT_CONFIGURED", "Vertex AI needs a location: pass location to the model's options (us-central1, global, …), or set GOOGLE_CLOUD_LOCATION.");
  return { vertexai: true, project, location };
}
