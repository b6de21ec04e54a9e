import type { Part } from "../../../content/content.js";
import { leavesContentsAlone, type LlmRequest } from "../../../models/llm-request.js";
import { FunctionTool } from "../../function-tool.js";
import type { Tool } from "../../tool.js";
import { errorResult, withErrorResult } from "../tool-status.js";
import { normalizeAgentPath } from "./agent-path.js";
import type { Backend } from "./backend.js";
import { formatNumberedLines } from "./format-lines.js";

const IMAGE_TYPES: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp" };

/** An image as read_file returns it, in seed 002's shape. */
interface ImageContent {
  type: "image";
  media_type: string;
  data?: string;
}

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
      "Reads a file as numbered lines (like cat -n), from line offset (0-based) for up to limit lines (default 2000). Images (png, jpg, jpeg, gif, webp) are shown to you as images.",
    parameters: {
      type: "object",
      properties: {
        file_path: { type: "string", description: "Absolute path to the file." },
        offset: { type: "integer", minimum: 0, description: "Line number to start reading from (0-based); default 0." },
        limit: { type: "integer", minimum: 1, description: "Maximum number of lines to return; default 2000." },
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
          const content: ImageContent = { type: "image", media_type: mimeType, data: Buffer.from(bytes).toString("base64") };
          return { status: "success", content };
        }
        const offset = typeof args.offset === "number" ? args.offset : 0;
        const limit = typeof args.limit === "number" ? args.limit : 2000;
        const { lines, remaining } = await options.backend.readLines({ context, path, offset, limit });
        if (lines.length === 0 && offset > 0) return errorResult(`offset ${offset} is past the end of ${path}. Use a smaller offset, or offset 0 to read from the start.`);
        let content = lines.length === 0 ? "(the file is empty)" : formatNumberedLines(lines, offset + 1);
        if (remaining > 0) content += `\n... (${remaining} more lines. Use offset=${offset + lines.length} to continue reading)`;
        return { status: "success", content };
      }),
  });
  return Object.assign(tool, { processLlmRequest: leavesContentsAlone(moveImagesIntoParts) });
}

/**
 * Function responses are JSON, so an image read earlier is carried in the
 * response (`content: {type: "image", media_type, data}`, as seed 002 has it)
 * and moved here into an inline part right after it, where the model sees it
 * as an image; the response keeps the type and media type, not the bytes, so
 * they reach the model once. The stored event is left unchanged.
 */
function moveImagesIntoParts({ llmRequest: request }: { llmRequest: LlmRequest }): void {
  request.contents = request.contents.map((content) => {
    if (!content.parts?.some((part) => imageOf(part.functionResponse?.response))) return content;
    const parts: Part[] = [];
    for (const part of content.parts) {
      const image = imageOf(part.functionResponse?.response);
      if (!image || !part.functionResponse) {
        parts.push(part);
        continue;
      }
      const { data, ...described } = image;
      parts.push({ functionResponse: { ...part.functionResponse, response: { ...part.functionResponse.response, content: described } } }, { inlineData: { mimeType: image.media_type, data } });
    }
    return { ...content, parts };
  });
}

/** The image a read_file response carries, if it carries one with its bytes. */
function imageOf(response: Record<string, unknown> | undefined): (ImageContent & { data: string }) | undefined {
  const content = response?.content as ImageContent | undefined;
  return content?.type === "image" && typeof content.data === "string" && typeof content.media_type === "string" ? (content as ImageContent & { data: string }) : undefined;
}
