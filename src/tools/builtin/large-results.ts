import type { Tool } from "../tool.js";
import { isPlainObject } from "../tool-result.js";
import { joinAgentPath, normalizeAgentPath } from "./filesystem/agent-path.js";
import type { Backend } from "./filesystem/backend.js";
import { forwardTool } from "../forward-tool.js";

/** Options of {@link offloadLargeResults}. */
export interface LargeResultOptions {
  /** Where the full results are written. */
  backend: Backend;
  /** Results whose JSON is longer than this many characters are offloaded; default 40,000 (about 10,000 tokens). */
  maxChars?: number;
  /** The directory for offloaded results; default `/large_tool_results`. */
  directory?: string;
  /** Characters of the result shown in the preview; default 2,000. */
  previewChars?: number;
}

/**
 * The tool with any result too large for the model's context written to the
 * backend and replaced by a short preview and the path, which the model can
 * page through with `read_file` or search with `grep`.
 */
export function offloadLargeResults(tool: Tool, options: LargeResultOptions): Tool {
  const maxChars = options.maxChars ?? 40_000;
  const directory = normalizeAgentPath(options.directory ?? "/large_tool_results");
  const previewChars = options.previewChars ?? 2_000;
  return forwardTool(tool, {
    run: async (args, context) => {
      const result = await tool.run(args, context);
      // A single large text field (output, content) is saved as plain text, so read_file shows real lines.
      const text = typeof result === "string" ? result : JSON.stringify(result, null, 2);
      if (text === undefined || text.length <= maxChars) return result;
      const textField = isPlainObject(result) ? Object.entries(result).find(([, value]) => typeof value === "string" && value.length > maxChars / 2) : undefined;
      const saved = textField ? (textField[1] as string) : text;
      const path = joinAgentPath(directory, `${tool.name}-${safeName(context.functionCallId)}.txt`);
      try {
        await options.backend.write({ context, path, content: saved, overwrite: true });
      } catch {
        return result;
      }
      const status = isPlainObject(result) && typeof result.status === "string" ? result.status : "success";
      return {
        status,
        message: `The result was ${saved.length} characters, too large to show, and was saved to ${path}${textField ? ` (the "${textField[0]}" field)` : ""}. Read it with read_file using offset and limit, or search it with grep.`,
        file_path: path,
        preview: saved.slice(0, previewChars),
      };
    },
  });
}

function safeName(callId: string): string {
  return (callId || `${Date.now()}`).replace(/[^a-zA-Z0-9_-]/g, "_");
}
