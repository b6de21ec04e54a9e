import type { JsonSchema } from "../tools/tool.js";

/** The model providers whose view of a tool schema `toolsmith tools --provider` shows. */
export const PROVIDERS = ["gemini", "openai", "anthropic"] as const;
/** One of {@link PROVIDERS}. */
export type Provider = (typeof PROVIDERS)[number];

/** A problem a provider would have with a tool's schema. */
export interface SchemaLintWarning {
  tool: string;
  /** Where in the schema, as a JSON pointer. */
  path: string;
  message: string;
}

/**
 * The tool's parameters as `provider` receives them. This is the seam where
 * the model adapters' schema compiler plugs in; until then a provider receives
 * the JSON Schema unchanged.
 */
export function providerSchemaFor(_provider: Provider, schema: JsonSchema | undefined): JsonSchema | undefined {
  return schema;
}

/** Warnings about schemas `provider` would reject or change. The seam for the adapters' schema lint; none until then. */
export function lintTools(_provider: Provider, _tools: readonly { name: string; parameters?: JsonSchema }[]): SchemaLintWarning[] {
  return [];
}
