import type { ReadonlyContext } from "../agents/readonly-context.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { isToolset, type Tool, type ToolUnion } from "./tool.js";

/**
 * The tools an agent offers for one model request: toolsets are asked again
 * each time. Two tools with one name are a configuration error.
 */
export async function resolveTools(entries: readonly ToolUnion[], context: ReadonlyContext, agentName: string): Promise<Tool[]> {
  const tools: Tool[] = [];
  let hasToolset = false;
  for (const entry of entries) {
    if (isToolset(entry)) {
      hasToolset = true;
      tools.push(...(await entry.getTools(context)));
    } else tools.push(entry);
  }
  if (hasToolset) assertUniqueToolNames(tools, agentName);
  return tools;
}

/** Throws a {@link ConfigurationError} naming every tool name used twice. */
export function assertUniqueToolNames(tools: readonly Tool[], agentName: string): void {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const tool of tools) (seen.has(tool.name) ? duplicates : seen).add(tool.name);
  if (duplicates.size === 0) return;
  throw new ConfigurationError(
    "DUPLICATE_TOOL_NAME",
    `Agent "${agentName}" has more than one tool named ${[...duplicates].map((name) => `"${name}"`).join(", ")}. ` +
      "Rename one, or give a toolset a prefix with prefixToolset(toolset, prefix).",
  );
}
