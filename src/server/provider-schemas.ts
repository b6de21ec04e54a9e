import { compileAnthropicSchema } from "../models/schema/compile-anthropic-schema.js";
import { compileGeminiSchema } from "../models/schema/compile-gemini-schema.js";
import { compileOpenAISchema } from "../models/schema/compile-openai-schema.js";
import { lintToolSchemas, type SchemaProvider } from "../models/schema/lint-tool-schemas.js";
import type { JsonSchema } from "../tools/tool.js";

/** The model providers whose view of a tool schema `toolsmith tools --provider` shows. */
export const PROVIDERS = ["gemini", "openai", "openai-compatible", "anthropic"] as const satisfies readonly SchemaProvider[];
/** One of {@link PROVIDERS}. */
export type Provider = (typeof PROVIDERS)[number];

/** A problem a provider would have with a tool's schema. */
export interface SchemaLintWarning {
  tool: string;
  /** Where in the schema, as a JSON pointer. */
  path: string;
  message: string;
}

/** The tool's parameters as `provider` receives them, compiled by the same compiler the model adapters use. */
export function providerSchemaFor(provider: Provider, schema: JsonSchema | undefined): JsonSchema | undefined {
  switch (provider) {
    case "gemini":
      return compileGeminiSchema(schema).schema;
    case "openai":
      return compileOpenAISchema(schema).schema;
    case "openai-compatible":
      return compileOpenAISchema(schema, { strict: false }).schema;
    case "anthropic":
      return compileAnthropicSchema(schema).schema;
  }
}

/** Every schema `provider` would reject as written or silently weaken, and why (the schema lint). */
export function lintTools(provider: Provider, tools: readonly { name: string; parameters?: JsonSchema }[]): SchemaLintWarning[] {
  const declarations = tools.map((tool) => ({ name: tool.name, description: "", parameters: tool.parameters }));
  return lintToolSchemas({ provider, declarations }).map((finding) => ({ tool: finding.tool, path: finding.path, message: finding.message }));
}
