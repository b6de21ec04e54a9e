import { FunctionTool } from "../../function-tool.js";
import type { Tool } from "../../tool.js";
import { errorResult, withErrorResult } from "../tool-status.js";
import { normalizeAgentPath } from "./agent-path.js";
import type { Backend } from "./backend.js";

/** `edit_file(file_path, old_string, new_string, replace_all)`: exact string replacement in an existing file. */
export function createEditFileTool(options: { backend: Backend }): Tool {
  return new FunctionTool({
    name: "edit_file",
    description:
      "Replaces old_string with new_string in an existing file. old_string must match exactly once, unless replace_all is true. Read the file first to copy the exact text.",
    parameters: {
      type: "object",
      properties: {
        file_path: { type: "string", description: "Absolute path to the file." },
        old_string: { type: "string", description: "Exact text to find and replace, including whitespace." },
        new_string: { type: "string", description: "Replacement text." },
        replace_all: { type: "boolean", description: "If true, replace all occurrences; default false." },
      },
      required: ["file_path", "old_string", "new_string"],
    },
    execute: (args, context) =>
      withErrorResult(async () => {
        const path = normalizeAgentPath(args.file_path);
        const oldString = String(args.old_string);
        const newString = String(args.new_string);
        if (oldString.length === 0) return errorResult("old_string is empty. Give the exact text to replace; to create a file use write_file.");
        if (oldString === newString) return errorResult("old_string and new_string are identical");
        const text = Buffer.from(await options.backend.readBytes({ context, path })).toString("utf8");
        const occurrences = text.split(oldString).length - 1;
        if (occurrences === 0) return errorResult("old_string not found in file content. Call read_file and copy the exact text, including whitespace.");
        if (occurrences > 1 && args.replace_all !== true) {
          return errorResult(`old_string appears ${occurrences} times. Provide more context to make it unique, or set replace_all=True.`, { occurrences });
        }
        const updated = args.replace_all === true ? text.split(oldString).join(newString) : text.replace(oldString, () => newString);
        await options.backend.write({ context, path, content: updated, overwrite: true });
        return { status: "success", path, occurrences: args.replace_all === true ? occurrences : 1 };
      }),
  });
}
