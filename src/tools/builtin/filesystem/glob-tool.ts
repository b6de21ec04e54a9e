import { FunctionTool } from "../../function-tool.js";
import type { Tool } from "../../tool.js";
import { withErrorResult } from "../tool-status.js";
import { normalizeAgentPath } from "./agent-path.js";
import type { Backend } from "./backend.js";
import { globFiles } from "./glob-files.js";
import { entryResult } from "./entry-result.js";
import { resolveRipgrep, type RipgrepSetting } from "./ripgrep-binary.js";

/** `glob(pattern, path = "/")`: files matching a pattern with `**` and braces, as seed 002's entries. */
export function createGlobTool(options: { backend: Backend; ripgrep?: RipgrepSetting }): Tool {
  return new FunctionTool({
    name: "glob",
    description: "Finds files whose path matches a glob pattern such as **/*.ts or src/{a,b}/*.md, relative to path (default /). Returns absolute paths.",
    parameters: {
      type: "object",
      properties: { pattern: { type: "string", description: "Glob pattern, such as **/*.py or src/{a,b}/*.ts." }, path: { type: "string", description: "Base directory to search from; default /." } },
      required: ["pattern"],
    },
    execute: (args, context) =>
      withErrorResult(async () => {
        const path = normalizeAgentPath(args.path ?? "/");
        const ripgrep = await resolveRipgrep(options.ripgrep);
        const files = await globFiles({ backend: options.backend, context, pattern: String(args.pattern), path, ripgrep, abortSignal: context.abortSignal });
        // Described one by one: a file removed since the search is left out rather than failing the call.
        const described = await Promise.all(files.map((file) => options.backend.describe({ context, path: file }).catch(() => undefined)));
        return { status: "success", entries: described.filter((entry) => entry !== undefined).map(entryResult) };
      }),
  });
}
