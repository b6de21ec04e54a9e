import { FunctionTool } from "../../function-tool.js";
import type { Tool } from "../../tool.js";
import { withErrorResult } from "../tool-status.js";
import { normalizeAgentPath } from "./agent-path.js";
import type { Backend } from "./backend.js";

/** `ls(path)`: the entries of a directory, directories marked with a trailing `/`. */
export function createLsTool(options: { backend: Backend }): Tool {
  return new FunctionTool({
    name: "ls",
    description: "Lists the files and directories directly inside a directory. Paths are absolute, such as / or /src.",
    parameters: { type: "object", properties: { path: { type: "string", description: "Absolute directory path; default /." } } },
    execute: (args, context) =>
      withErrorResult(async () => {
        const path = normalizeAgentPath(args.path ?? "/");
        const entries = await options.backend.list({ context, path });
        return { status: "success", path, entries: entries.map((entry) => (entry.isDirectory ? `${entry.path}/` : entry.path)) };
      }),
  });
}
