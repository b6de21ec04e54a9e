import type { Content } from "../content/content.js";
import type { FunctionDeclaration } from "./function-declaration.js";

/** Generation settings passed through to the model (temperature, token limits, …). */
export interface GenerateContentConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  candidateCount?: number;
  seed?: number;
  /** Anything else a provider adapter understands, passed through unchanged. */
  [key: string]: unknown;
}

/**
 * What is sent to a model: the conversation, the system instruction and the
 * tools, provider-neutral. Tools and callbacks may change it before it is sent.
 */
export interface LlmRequest {
  /** The model name, for adapters that serve several. */
  model?: string;
  contents: Content[];
  /** Instructions joined with blank lines. */
  systemInstruction: string;
  /** Declarations in the order the tools were given; schemas are plain JSON Schema. */
  functionDeclarations: FunctionDeclaration[];
  config: GenerateContentConfig;
}

/** Adds instructions to a request, each after a blank line. */
export function appendInstructions(request: LlmRequest, instructions: readonly string[]): void {
  const text = instructions.filter((line) => line.length > 0).join("\n\n");
  if (!text) return;
  request.systemInstruction = request.systemInstruction ? `${request.systemInstruction}\n\n${text}` : text;
}
