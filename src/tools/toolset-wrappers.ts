import type { ReadonlyContext } from "../agents/readonly-context.js";
import { isToolset, type Tool, type Toolset, type ToolUnion } from "./tool.js";
import { forwardTool } from "./forward-tool.js";

/** Which tools of a toolset to keep: a list of names, or a predicate. */
export type ToolFilter = readonly string[] | ((tool: Tool, context: ReadonlyContext) => boolean);

/**
 * The toolset with only the tools the filter keeps. Names in a list are the
 * toolset's own names, before any prefix.
 *
 * @example
 * ```ts
 * tools: [filterToolset(mcpTools, ["read_file", "list_directory"])]
 * ```
 */
export function filterToolset(toolset: Toolset, filter: ToolFilter): Toolset {
  const keep =
    typeof filter === "function"
      ? filter
      : (tool: Tool) => filter.includes(tool.name);
  return {
    async getTools(context) {
      return (await toolset.getTools(context)).filter((tool) => keep(tool, context));
    },
    close: () => toolset.close(),
  };
}

/**
 * The toolset with every tool's name prefixed (`prefix_name`), so two toolsets
 * with the same tool names can serve one agent. The tool itself still runs
 * under its own name.
 */
export function prefixToolset(toolset: Toolset, prefix: string): Toolset {
  return {
    async getTools(context) {
      return (await toolset.getTools(context)).map((tool) => renameTool(tool, `${prefix}_${tool.name}`));
    },
    close: () => toolset.close(),
  };
}

/** The same tool under another name (a {@link BaseTool}); every other member is forwarded to it. */
export function renameTool(tool: Tool, name: string): Tool {
  return forwardTool(tool, { name });
}

/** Every tool of a tools list changed by `change`, a toolset's tools as it gives them (the toolset itself is kept behind). */
export function mapToolUnions(entries: readonly ToolUnion[], change: (tool: Tool) => Tool): ToolUnion[] {
  return entries.map((entry) =>
    isToolset(entry)
      ? {
          getTools: async (context: ReadonlyContext) => (await entry.getTools(context)).map(change),
          close: () => entry.close(),
        }
      : change(entry),
  );
}
