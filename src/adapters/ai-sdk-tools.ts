import type { Tool as AiSdkTool } from "ai";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { FunctionDeclaration, JsonSchema, Tool, Toolset } from "../tools/tool.js";
import type { ToolContext } from "../tools/tool-context.js";

/**
 * Vercel AI SDK tools (made with `tool()` from `ai`, version 6) as toolsmith
 * tools, named by their keys. Their input schema (zod, `jsonSchema()`,
 * Standard Schema) becomes the declared JSON Schema; `execute` receives the
 * call id and the run's abort signal; `needsApproval` becomes the
 * confirmation rule; a streaming `execute` answers with its last value.
 *
 * @example
 * ```ts
 * import { tool } from "ai";
 * const weather = tool({ description: "Weather in a city", inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, sky: "clear" }) });
 * const tools = await fromAiSdkTools({ weather });
 * const agent = new LlmAgent({ name: "assistant", model, tools });
 * ```
 */
export async function fromAiSdkTools(tools: Record<string, AiSdkTool>): Promise<Tool[]> {
  return Promise.all(Object.entries(tools).map(([name, tool]) => fromAiSdkTool(name, tool)));
}

/** One AI SDK tool as a toolsmith tool; see {@link fromAiSdkTools}. */
export async function fromAiSdkTool(name: string, tool: AiSdkTool): Promise<Tool> {
  const execute = tool.execute;
  if (!execute) {
    throw new ConfigurationError("AI_SDK_TOOL_WITHOUT_EXECUTE", `AI SDK tool "${name}" has no execute function, so toolsmith cannot run it. Give it one, or leave it out.`);
  }
  // Loaded here, so that the adapters entry does not need `ai` installed unless AI SDK tools are adapted.
  const { asSchema } = await import("ai");
  const parameters = (await asSchema(tool.inputSchema).jsonSchema) as JsonSchema;
  const declaration: FunctionDeclaration = { name, description: tool.description ?? name, parameters };
  return {
    name,
    description: declaration.description,
    declaration: () => declaration,
    async requiresConfirmation(args: Record<string, unknown>, context: ToolContext) {
      const rule = tool.needsApproval;
      if (typeof rule === "function") return rule(args, { toolCallId: context.functionCallId, messages: [] });
      return rule ?? false;
    },
    async run(args, context) {
      const output = execute(args, { toolCallId: context.functionCallId, messages: [], abortSignal: context.abortSignal });
      if (isAsyncIterable(output)) {
        let last: unknown;
        for await (const value of output) last = value;
        return last;
      }
      return output;
    },
  };
}

/** The same tools as a toolset, for agents that take one. */
export function aiSdkToolset(tools: Record<string, AiSdkTool>): Toolset {
  let adapted: Promise<Tool[]> | undefined;
  return { getTools: () => (adapted ??= fromAiSdkTools(tools)), close: async () => undefined };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function";
}
