import { getText } from "../../content/content.js";
import { appendInstructions, type LlmRequest } from "../../models/llm-request.js";
import type { MemoryEntry } from "../../memory/memory-service.js";
import { FunctionTool } from "../function-tool.js";
import type { Tool } from "../tool.js";
import type { ToolContext } from "../tool-context.js";
import { errorResult } from "./tool-status.js";

function describeMemory(memory: MemoryEntry): string {
  const when = memory.timestamp ? `[${memory.timestamp}] ` : "";
  return `${when}${memory.author ?? "unknown"}: ${getText(memory.content)}`;
}

/** `load_memory(query)`: searches the user's long-term memory. */
export function createLoadMemoryTool(): Tool {
  return new FunctionTool({
    name: "load_memory",
    description: "Searches what you remember from the user's earlier conversations. Use when the answer may be in past sessions.",
    parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    execute: async (args, context) => {
      try {
        const { memories } = await context.searchMemory(String(args.query));
        return { status: "success", memories: memories.map(describeMemory) };
      } catch (error) {
        return errorResult(`Memory is not available: ${(error as Error).message} Answer without it.`);
      }
    },
  });
}

/**
 * `preload_memory`: no tool call; before each model call it searches memory
 * with the user's latest message and adds what it finds to the instructions.
 * Without a memory service it adds nothing.
 */
export function createPreloadMemoryTool(): Tool {
  return {
    name: "preload_memory",
    description: "Adds relevant memories of past conversations to the instructions.",
    declaration: () => undefined,
    run: async () => errorResult("preload_memory is not called; it works before each model call."),
    async processLlmRequest({ llmRequest: request, toolContext: context }: { llmRequest: LlmRequest; toolContext: ToolContext }) {
      const query = getText(context.userContent);
      if (!query) return;
      let memories: MemoryEntry[];
      try {
        ({ memories } = await context.searchMemory(query));
      } catch {
        return;
      }
      if (memories.length === 0) return;
      appendInstructions(request, [`The following content is from your previous conversations with the user. It may help you answer:\n<PAST_CONVERSATIONS>\n${memories.map(describeMemory).join("\n")}\n</PAST_CONVERSATIONS>`]);
    },
  };
}
