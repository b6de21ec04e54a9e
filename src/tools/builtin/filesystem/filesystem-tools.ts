import type { Tool } from "../../tool.js";
import type { Backend } from "./backend.js";
import { createEditFileTool } from "./edit-file-tool.js";
import { createGlobTool } from "./glob-tool.js";
import { createGrepTool } from "./grep-tool.js";
import { createLsTool } from "./ls-tool.js";
import { createReadFileTool } from "./read-file-tool.js";
import type { RipgrepSetting } from "./ripgrep-binary.js";
import { createWriteFileTool } from "./write-file-tool.js";

/** Options of {@link createFilesystemTools}. */
export interface FilesystemToolsOptions {
  backend: Backend;
  /** How grep and glob find ripgrep; default `"auto"`. */
  ripgrep?: RipgrepSetting;
}

/**
 * The six filesystem tools over one backend: `ls`, `read_file`, `write_file`,
 * `edit_file`, `glob`, `grep`.
 *
 * @example
 * ```ts
 * const tools = createFilesystemTools({ backend: new FilesystemBackend({ rootDirectory: "./workspace" }) });
 * const agent = new LlmAgent({ name: "coder", model, tools });
 * ```
 */
export function createFilesystemTools(options: FilesystemToolsOptions): Tool[] {
  return [
    createLsTool(options),
    createReadFileTool(options),
    createWriteFileTool(options),
    createEditFileTool(options),
    createGlobTool(options),
    createGrepTool(options),
  ];
}
