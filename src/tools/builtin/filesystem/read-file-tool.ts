import type { Part } from "../../../content/content.js";
import type { LlmRequest } from "../../../models/llm-request.js";
import { FunctionTool } from "../../function-tool.js";
import type { Tool } from "../../tool.js";
import { errorResult, withErrorResult } from "../tool-status.js";
import { normalizeAgentPath } from "./agent-path.js";
import type { Backend } from "./backend.js";
import { formatNumberedLines } from "./format-lines.js";

const IMAGE_TYPES: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp" };

/** The function-response field carrying an image until the request moves it into an inline part. */
const IMAGE_FIELD = "inlineImage";

/**
 * `read_file(file_path, offset = 0, limit = 2000)`: numbered lines, with a
 * note saying where to continue; images come back as an inline image part
 * the model can see. The backend streams, so reading near the end of a huge
 * file does not load it whole.
 */
export function createReadFileTool(options: { backend: Backend }): Tool {
  const tool = new FunctionTool({
    name: "read_file",
    description:
      "Reads a file as numbered lines (like cat -n), from line offset (0-based) for up to limit lines (default 2000). Images (png, jpg, gif, webp) are shown to you as images.",
    parameters: {
      type: "object",
      properties: {
        file_path: { type: "string", description: "Absolute path, such as /src/main.ts." },
        offset: { type: "integer", minimum: 0, description: "Line to start from, 0-based; default 0." },
        limit: { type: "integer", minimum: 1, description: "Most lines to return; default 2000." },
      },
      required: ["file_path"],
    },
    execute: (args, context) =>
      withErrorResult(async () => {
        const path = normalizeAgentPath(args.file_path);
        const extension = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
        const mimeType = path.includes(".") ? IMAGE_TYPES[extension] : undefined;
        if (mimeType) {
          const bytes = await options.backend.readBytes({ context, path });
          return { status: "success", file_path: path, mimeType, message: "The image follows as an inline part.", [IMAGE_FIELD]: { mimeType, data: Buffer.from(bytes).toString("base64") } };
        }
        const offset = typeof args.offset === "number" ? args.offset : 0;
        const limit = typeof args.limit === "number" ? args.limit : 2000;
        const { lines, remaining } = await options.backend.readLines({ context, path, offset, limit });
        if (lines.length === 0 && offset > 0) return errorResult(`offset ${offset} is past the end of ${path}. Use a smaller offset, or offset 0 to read from the start.`);
        let content = lines.length === 0 ? "(the file is empty)" : formatNumberedLines(lines, offset + 1);
        if (remaining > 0) content += `\n… (${remaining} more lines. Use offset=${offset + lines.length} to continue)`;
        return { status: "success", file_path: path, content };
      }),
  });
  return Object.assign(tool, { processLlmRequest: moveImagesIntoParts });
}

/**
 * Function responses are JSON, so an image read earlier is carried in the
 * response and moved here into an inline part right after it, where the
 * model sees it as an image (the stored event is left unchanged).
 */
function moveImagesIntoParts(request: LlmRequest): void {
  request.contents = request.contents.map((content) => {
    if (!content.parts?.some((part) => part.functionResponse?.response?.[IMAGE_FIELD])) return content;
    const parts: Part[] = [];
    for (const part of content.parts) {
      const image = part.functionResponse?.response?.[IMAGE_FIELD] as { mimeType: string; data: string } | undefined;
      if (!image || !part.functionResponse) {
        parts.push(part);
        continue;
      }
      const { [IMAGE_FIELD]: _image, ...response } = part.functionResponse.response ?? {};
      parts.push({ functionResponse: { ...part.functionResponse, response } }, { inlineData: { mimeType: image.mimeType, data: image.data } });
    }
    return { ...content, parts };
  });
}
