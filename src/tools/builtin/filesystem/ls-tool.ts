import { FunctionTool } from "../../function-tool.js";
import type { Tool } from "../../tool.js";
import { withErrorResult } from "../tool-status.js";
import { normalizeAgentPath } from "./agent-path.js";
import type { Backend } from "./backend.js";
import { entryResult } from "./entry-result.js";

/** `ls(path)`: the entries of a directory, as seed 002 gives them (`{path, is_dir, size, modified_at}`). */
export function createLsTool(options: { backend: Backend }): Tool {
  return new FunctionTool({
    name: "ls",
    description: "Lists the files and directories directly inside a directory, with their size and modification time. The path must be absolute, such as / or /src.",
    parameters: { type: "object", properties: { path: { type: "string", description: "Absolute path to list (must start with /)." } }, required: ["path"] },
    execute: (args, context) =>
      withErrorResult(async () => {
        const path = normalizeAgentPath(args.path);
        const entries = await options.backend.list({ context, path });
        return { status: "success", entries: entries.map(entryResult) };
      }),
  });
}
