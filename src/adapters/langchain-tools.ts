import type { StructuredToolInterface } from "@langchain/core/tools";
import type { FunctionDeclaration, JsonSchema, Tool } from "../tools/tool.js";

/**
 * LangChain.js tools (`tool()` from `@langchain/core/tools`,
 * `DynamicStructuredTool`, `StructuredTool` subclasses) as toolsmith tools.
 * Their schema (zod or JSON Schema) becomes the declared JSON Schema; the
 * run's abort signal reaches `invoke`; a `returnDirect` tool ends the turn
 * with its result.
 *
 * @example
 * ```ts
 * import { tool } from "@langchain/core/tools";
 * const add = tool(({ a, b }) => String(a + b), { name: "add", description: "Adds two numbers", schema: z.object({ a: z.number(), b: z.number() }) });
 * const agent = new LlmAgent({ name: "calculator", model, tools: await fromLangChainTools([add]) });
 * ```
 */
export async function fromLangChainTools(tools: readonly StructuredToolInterface[]): Promise<Tool[]> {
  // Loaded here, so that the adapters entry does not need @langchain/core installed unless LangChain tools are adapted.
  const { toJsonSchema } = await import("@langchain/core/utils/json_schema");
  return tools.map((tool) => {
    const parameters = toJsonSchema(tool.schema as Parameters<typeof toJsonSchema>[0]) as JsonSchema;
    const declaration: FunctionDeclaration = { name: tool.name, description: tool.description, parameters };
    const returnDirect = (tool as { returnDirect?: boolean }).returnDirect === true;
    return {
      name: tool.name,
      description: tool.description,
      declaration: () => declaration,
      async run(args, context) {
        if (returnDirect) context.actions.skipSummarization = true;
        return tool.invoke(args as never, { signal: context.abortSignal });
      },
    } satisfies Tool;
  });
}
