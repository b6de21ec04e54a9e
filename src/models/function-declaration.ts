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
}
