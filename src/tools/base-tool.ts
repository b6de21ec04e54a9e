import type { Context } from "../agents/context.js";
import type { FunctionDeclaration, JsonSchema } from "../models/function-declaration.js";
import type { LlmRequest } from "../models/llm-request.js";
import { getGoogleLlmVariant, type GoogleLLMVariant } from "../models/gemini/google-llm-variant.js";
import type { Tool } from "./tool.js";
import { isOfKind, markKind } from "../platform/kind.js";

/** ADK's `BaseToolParams`. */
export interface BaseToolParams {
  name: string;
  description: string;
  /** The tool returns before its work is done; see long-running tools in the README. */
  isLongRunning?: boolean;
}

/** What {@link BaseTool.runAsync} receives, as in ADK. */
export interface RunAsyncToolRequest {
  args: Record<string, unknown>;
  toolContext: Context;
}

/** What {@link BaseTool.processLlmRequest} receives, as in ADK. */
export interface ToolProcessLlmRequest {
  toolContext: Context;
  llmRequest: LlmRequest;
}

/**
 * A declaration as ADK tools write it: `parameters` in `@google/genai`'s
 * Schema (types such as `"OBJECT"`, `"STRING"`), or `parametersJsonSchema`.
 */
export interface AdkFunctionDeclaration {
  name?: string;
  description?: string;
  parameters?: Record<string, unknown>;
  parametersJsonSchema?: unknown;
  [key: string]: unknown;
}

/**
 * ADK's base class of tools, for tools written the ADK way: override
 * `_getDeclaration()` (what the model sees) and `runAsync({ args, toolContext })`.
 * It is a toolsmith {@link Tool}, so an instance goes in any agent's tools;
 * arguments are checked against the declared parameters before `runAsync`.
 * toolsmith's `FunctionTool` and `AgentTool` extend it.
 *
 * @example
 * ```ts
 * class Dice extends BaseTool {
 *   constructor() { super({ name: "roll", description: "Rolls a die." }); }
 *   override _getDeclaration() { return { name: this.name, description: this.description, parameters: { type: Type.OBJECT, properties: {} } }; }
 *   async runAsync() { return { value: 1 + Math.floor(Math.random() * 6) }; }
 * }
 * ```
 */
export abstract class BaseTool implements Tool {
  // Known as a BaseTool by every copy of toolsmith loaded beside this one (platform/kind.ts).
  static {
    markKind(this, "BaseTool");
  }

  readonly name: string;
  readonly description: string;
  readonly isLongRunning: boolean;

  constructor(params: BaseToolParams) {
    this.name = params.name;
    this.description = params.description;
    this.isLongRunning = params.isLongRunning ?? false;
  }

  /** What the model sees; `undefined` (the default) hides the tool from the model. */
  _getDeclaration(): AdkFunctionDeclaration | FunctionDeclaration | undefined {
    return undefined;
  }

  /** Runs the tool. */
  abstract runAsync(request: RunAsyncToolRequest): Promise<unknown>;

  /** Whether this call needs a person's confirmation before it runs; default no. */
  async checkRequireConfirmation(_args: Record<string, unknown>, _toolContext?: Context): Promise<boolean> {
    return false;
  }

  /**
   * Changes the outgoing model request before each model call. toolsmith adds
   * the declaration to the request itself, so the default does nothing;
   * calling it from an override (`super.processLlmRequest(...)`) is harmless.
   */
  processLlmRequest(_request: ToolProcessLlmRequest): Promise<void> | void {
    return Promise.resolve();
  }

  /**
   * The Google service the environment asks for (ADK's `apiVariant`): Vertex AI when `GOOGLE_GENAI_USE_ENTERPRISE`
   * (or the older `GOOGLE_GENAI_USE_VERTEXAI`) is `true` or `1`, the Gemini API otherwise; read at each access.
   */
  get apiVariant(): GoogleLLMVariant {
    return getGoogleLlmVariant();
  }

  /** toolsmith's contract: `_getDeclaration()`, with genai Schema parameters read as JSON Schema. */
  declaration(): FunctionDeclaration | undefined {
    const declared = this._getDeclaration();
    if (!declared) return undefined;
    const { parametersJsonSchema, parameters, ...rest } = declared as AdkFunctionDeclaration;
    const schema = (parametersJsonSchema ?? (parameters ? jsonSchemaOfGenaiSchema(parameters) : undefined)) as JsonSchema | undefined;
    // A tool without parameters takes an empty object: every provider accepts that schema, not all accept none.
    return { ...rest, name: rest.name ?? this.name, description: rest.description ?? this.description, parameters: schema ?? { type: "object", properties: {} } } as FunctionDeclaration;
  }

  /** toolsmith's contract: {@link BaseTool.runAsync}. */
  run(args: Record<string, unknown>, context: Context): Promise<unknown> {
    return this.runAsync({ args, toolContext: context });
  }

  /**
   * toolsmith's contract: {@link BaseTool.checkRequireConfirmation}. Subclasses may answer at once (a boolean) or
   * later (a promise); an answer given at once is not awaited.
   */
  requiresConfirmation(args: Record<string, unknown>, context: Context): boolean | Promise<boolean> {
    return this.checkRequireConfirmation(args, context);
  }
}

/** Whether a value is a {@link BaseTool} (ADK's check). */
export function isBaseTool(value: unknown): value is BaseTool {
  return isOfKind(value, BaseTool, "BaseTool");
}

const GENAI_TYPES: Record<string, string> = { OBJECT: "object", STRING: "string", NUMBER: "number", INTEGER: "integer", BOOLEAN: "boolean", ARRAY: "array", NULL: "null" };

/**
 * A `@google/genai` Schema (upper-case types, `nullable`) as JSON Schema, so
 * ADK-style declarations are checked by the same validator as every tool's.
 */
export function jsonSchemaOfGenaiSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "type" && typeof value === "string") result.type = GENAI_TYPES[value.toUpperCase()] ?? value.toLowerCase();
    else if (key === "properties" && value && typeof value === "object") {
      result.properties = Object.fromEntries(Object.entries(value as Record<string, Record<string, unknown>>).map(([name, inner]) => [name, jsonSchemaOfGenaiSchema(inner)]));
    } else if (key === "items" && value && typeof value === "object") result.items = jsonSchemaOfGenaiSchema(value as Record<string, unknown>);
    // zodObjectToSchema writes a discriminated union as oneOf, as ADK's does.
    else if ((key === "anyOf" || key === "oneOf" || key === "allOf") && Array.isArray(value)) result[key] = value.map((inner) => jsonSchemaOfGenaiSchema(inner as Record<string, unknown>));
    else if (key === "nullable") continue;
    else if (key === "minItems" || key === "maxItems" || key === "minLength" || key === "maxLength" || key === "minProperties" || key === "maxProperties") result[key] = Number(value);
    else result[key] = value;
  }
  if (schema.nullable === true && typeof result.type === "string") result.type = [result.type, "null"];
  return result;
}
