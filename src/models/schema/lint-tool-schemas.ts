import type { FunctionDeclaration } from "../function-declaration.js";
import { compileAnthropicSchema } from "./compile-anthropic-schema.js";
import { compileGeminiSchema } from "./compile-gemini-schema.js";
import { compileOpenAISchema } from "./compile-openai-schema.js";
import type { SchemaFinding } from "./schema-finding.js";

/** A provider the schema compiler knows; `openai-compatible` is OpenAI without strict mode (Ollama, vLLM, …). */
export type SchemaProvider = "gemini" | "openai" | "openai-compatible" | "anthropic";

/** One problem a provider has with one tool's schema. */
export interface SchemaLintFinding extends SchemaFinding {
  tool: string;
  provider: SchemaProvider;
}

/** Options of {@link lintToolSchemas}. */
export interface LintToolSchemasOptions {
  /** The declarations to check, as `tool.declaration()` returns them. */
  declarations: readonly FunctionDeclaration[];
  provider: SchemaProvider;
}

/**
 * Reports every tool schema the provider would reject as written (toolsmith
 * rewrites those) or silently weaken (a rule the model no longer sees; the
 * arguments are still checked against the original schema), and why.
 *
 * @example
 * ```ts
 * const findings = lintToolSchemas({ provider: "gemini", declarations: tools.map((tool) => tool.declaration()!) });
 * for (const finding of findings) console.log(`${finding.tool}${finding.path}: ${finding.message}`);
 * ```
 */
export function lintToolSchemas(options: LintToolSchemasOptions): SchemaLintFinding[] {
  const findings: SchemaLintFinding[] = [];
  for (const declaration of options.declarations) {
    const seen = new Set<string>();
    for (const finding of compileForProvider(declaration, options.provider)) {
      const key = `${finding.path}\u0000${finding.keyword}\u0000${finding.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push({ ...finding, tool: declaration.name, provider: options.provider });
    }
  }
  return findings;
}

function compileForProvider(declaration: FunctionDeclaration, provider: SchemaProvider): SchemaFinding[] {
  switch (provider) {
    case "gemini":
      return compileGeminiSchema(declaration.parameters).findings;
    case "openai":
      return compileOpenAISchema(declaration.parameters).findings;
    case "openai-compatible":
      return compileOpenAISchema(declaration.parameters, { strict: false }).findings;
    case "anthropic":
      return compileAnthropicSchema(declaration.parameters).findings;
  }
}
