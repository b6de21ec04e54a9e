import { isDeepStrictEqual } from "node:util";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Blob } from "../content/content.js";
import { isPlainObject, toolErrorResult } from "../tools/tool-result.js";

/** The key of a function response that carries images and audio; see {@link moveMediaIntoParts}. */
export const MEDIA_KEY = "media";

/**
 * An MCP tool result as a function response the model can read, keeping
 * everything:
 * - `text`: the text blocks joined by blank lines, leaving out the JSON copy of `structuredContent`;
 * - `structuredContent`: the structured result, as an object (sent once, not again as text);
 * - `media`: images and audio as `{mimeType, data}` (base64), shown to the model as inline parts;
 * - `resources`: embedded resources (`{uri, mimeType, text}` or `{uri, mimeType, blob}`) and resource links.
 *
 * An `isError` result becomes `{status: "error", error: text}`.
 */
export function callToolResultToResponse(toolName: string, result: CallToolResult): Record<string, unknown> {
  const texts: string[] = [];
  const media: Blob[] = [];
  const resources: Record<string, unknown>[] = [];
  for (const block of result.content ?? []) {
    if (block.type === "text") texts.push(block.text);
    else if (block.type === "image" || block.type === "audio") media.push({ mimeType: block.mimeType, data: block.data });
    else if (block.type === "resource") {
      const { uri, mimeType, ...body } = block.resource;
      if ("blob" in body && typeof mimeType === "string" && /^(image|audio)\//.test(mimeType)) {
        media.push({ mimeType, data: String(body.blob), displayName: uri });
      } else resources.push({ uri, ...(mimeType ? { mimeType } : {}), ...body });
    } else if (block.type === "resource_link") {
      resources.push({ uri: block.uri, name: block.name, ...(block.mimeType ? { mimeType: block.mimeType } : {}), ...(block.description ? { description: block.description } : {}) });
    }
  }
  // The JSON copy of structuredContent the spec asks servers to add is the same data again: it is sent once.
  const text = texts.filter((block) => result.structuredContent === undefined || !isJsonOf(block, result.structuredContent)).join("\n\n");
  if (result.isError) {
    return toolErrorResult(text || `Tool "${toolName}" reported an error without a message.`, isPlainObject(result.structuredContent) ? { structuredContent: result.structuredContent } : {});
  }
  const response: Record<string, unknown> = {};
  if (text) response.text = text;
  if (result.structuredContent !== undefined) response.structuredContent = result.structuredContent;
  if (media.length) response[MEDIA_KEY] = media;
  if (resources.length) response.resources = resources;
  return response;
}

/** Whether a text block is the JSON serialization of the structured result (however it was spaced). */
function isJsonOf(text: string, structured: unknown): boolean {
  try {
    return isDeepStrictEqual(JSON.parse(text), JSON.parse(JSON.stringify(structured)));
  } catch {
    return false;
  }
}
