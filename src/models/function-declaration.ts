/** A JSON Schema object, as zod produces it or as MCP and OpenAPI deliver it. */
export type JsonSchema = Record<string, unknown>;

/**
 * How a tool is described to a model; `parameters` is plain JSON Schema. It is
 * part of the model contract (what a request carries), so model adapters know
 * nothing of runnable tools.
 */
export interface FunctionDeclaration {
  name: string;
  description: string;
  parameters?: JsonSchema;
  /**
   * What the function answers, as JSON Schema, when its tool says (an MCP tool's `outputSchema`). Gemini is told it,
   * as ADK tells it; OpenAI and Anthropic have no place for it.
   */
  response?: JsonSchema;
}
