import { FunctionTool } from "../../function-tool.js";
import type { Tool } from "../../tool.js";
import { errorResult, withErrorResult } from "../tool-status.js";
import { normalizeAgentPath } from "./agent-path.js";
import { BackendError, type Backend } from "./backend.js";

/** `write_file(file_path, content)`: creates a file; never overwrites one (that is what `edit_file` is for). */
export function createWriteFileTool(options: { backend: Backend }): Tool {
  return new FunctionTool({
    name: "write_file",
    description: "Creates a new file with the given content. Fails if the file exists: use edit_file to change an existing file.",
    parameters: {
      type: "object",
      properties: { file_path: { type: "string", description: "Absolute path for the new file." }, content: { type: "string", description: "Content to write to the file." } },
      required: ["file_path", "content"],
    },
    execute: (args, context) =>
      withErrorResult(async () => {
        const path = normalizeAgentPath(args.file_path);
        try {
          await options.backend.write({ context, path, content: String(args.content), overwrite: false });
        } catch (error) {
          if (error instanceof BackendError && error.code === "EXISTS") {
            return errorResult(`File already exists: ${path}. Use edit_file to modify.`, { code: "EXISTS" });
          }
          throw error;
        }
        return { status: "success", path };
      }),
  });
}
