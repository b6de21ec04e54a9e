import { FunctionTool } from "../../function-tool.js";
import type { Tool } from "../../tool.js";
import { errorResult, withErrorResult } from "../tool-status.js";
import { normalizeAgentPath } from "./agent-path.js";
import type { Backend } from "./backend.js";
import { grepSearch, type GrepFileResult, type GrepOutputMode } from "./grep-search.js";
import { resolveRipgrep, type RipgrepSetting } from "./ripgrep-binary.js";

/** Output beyond this many characters is cut, with a note. */
export const GREP_MAX_OUTPUT_CHARS = 80_000;

/** `grep(pattern, path?, glob?, output_mode)`: a literal text search, by ripgrep when available. */
export function createGrepTool(options: { backend: Backend; ripgrep?: RipgrepSetting }): Tool {
  return new FunctionTool({
    name: "grep",
    description:
      "Searches file contents for a literal string (not a regular expression). output_mode: files_with_matches (default), content (path:line:text), or count. Narrow with path and a glob such as *.ts.",
    parameters: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "Exact text to find, within one line." },
        path: { type: "string", description: "Directory to limit the search to; default /." },
        glob: { type: "string", description: "Glob pattern to filter files, such as *.py." },
        output_mode: { type: "string", enum: ["files_with_matches", "content", "count"] },
      },
      required: ["pattern"],
    },
    execute: (args, context) =>
      withErrorResult(async () => {
        const pattern = String(args.pattern);
        if (pattern.length === 0) return errorResult("pattern is empty. Give the text to search for.");
        if (pattern.includes("\n")) return errorResult("pattern spans lines. Search for one line of text at a time.");
        const path = normalizeAgentPath(args.path ?? "/");
        const mode = (args.output_mode as GrepOutputMode | undefined) ?? "files_with_matches";
        const ripgrep = await resolveRipgrep(options.ripgrep);
        const results = await grepSearch({ backend: options.backend, context, pattern, path, glob: args.glob as string | undefined, mode, ripgrep, abortSignal: context.abortSignal });
        return { status: "success", ...formatGrepOutput(results, mode) };
      }),
  });
}

/** The tool's text output for results, cut at {@link GREP_MAX_OUTPUT_CHARS}. */
export function formatGrepOutput(results: readonly GrepFileResult[], mode: GrepOutputMode): { result: string; truncated?: boolean } {
  if (results.length === 0) return { result: "No matches found." };
  const rows =
    mode === "files_with_matches"
      ? results.map((result) => result.path)
      : mode === "count"
        ? results.map((result) => `${result.path}: ${result.count}`)
        : results.flatMap((result) => result.lines!.map((line) => `${result.path}:${line.lineNumber}:${line.text}`));
  let output = "";
  for (const row of rows) {
    if (output.length + row.length + 1 > GREP_MAX_OUTPUT_CHARS) {
      return { result: `${output}... (output cut at ${GREP_MAX_OUTPUT_CHARS} characters. Narrow the search with path or glob, or use output_mode "files_with_matches".)`, truncated: true };
    }
    output += `${row}\n`;
  }
  return { result: output.trimEnd() };
}
