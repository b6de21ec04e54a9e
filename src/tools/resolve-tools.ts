import type { ReadonlyContext } from "../agents/readonly-context.js";
import { ConfigurationError, isToolsmithError, ToolsmithError } from "../errors/toolsmith-error.js";
import { isToolset, type Tool, type Toolset, type ToolUnion } from "./tool.js";
import { endSentence, thrownMessage } from "../errors/sentence.js";

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
      tools.push(...(await listTools(entry, context, agentName)));
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

/** A toolset's tools; a failure to list them (a server down, a bad spec) is a `TOOLSET_FAILED` error saying what to check. */
async function listTools(toolset: Toolset, context: ReadonlyContext, agentName: string): Promise<Tool[]> {
  try {
    return await toolset.getTools(context);
  } catch (error) {
    if (isToolsmithError(error)) throw error;
    const name = (toolset as { constructor?: { name?: string } }).constructor?.name;
    throw new ToolsmithError(
      "TOOLSET_FAILED",
      `A toolset of agent "${agentName}"${name && name !== "Object" ? ` (${name})` : ""} could not list its tools: ${endSentence(thrownMessage(error))} Check that its server is running and reachable (or its specification is valid), then run the turn again.`,
      { cause: error },
    );
  }
}
