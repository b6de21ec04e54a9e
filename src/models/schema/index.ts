/**
 * toolsmith/models: the provider-neutral schema compiler and its lint. One
 * JSON Schema (from zod, MCP or OpenAPI) becomes what Gemini, OpenAI (strict
 * or not) and Anthropic accept, and arguments coming back are mapped to the
 * original shape. No vendor SDK is loaded here.
 *
 * @module toolsmith/models
 */
export { compileGeminiSchema, type GeminiCompiledSchema } from "./compile-gemini-schema.js";
export { compileOpenAISchema, type OpenAICompiledSchema, type CompileOpenAISchemaOptions } from "./compile-openai-schema.js";
export { compileAnthropicSchema, type AnthropicCompiledSchema } from "./compile-anthropic-schema.js";
export { restoreArguments } from "./restore-arguments.js";
export { lintToolSchemas, type LintToolSchemasOptions, type SchemaLintFinding, type SchemaProvider } from "./lint-tool-schemas.js";
export type { SchemaFinding, SchemaFindingEffect } from "./schema-finding.js";
