import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isPlainObject } from "../tools/tool-result.js";
import { MEDIA_KEY } from "./call-tool-result.js";

type ContentBlock = CallToolResult["content"][number];

/**
 * A tool's return value as an MCP tool result, the inverse of what
 * {@link MCPToolset} makes of one:
 * - an object with `media` (`[{mimeType, data}]`) or `resources`
 *   (`[{uri, mimeType, text | blob}]`) becomes image/audio and embedded
 *   resource content, with its `text` as a text block;
 * - any other object becomes `structuredContent`, with its JSON as text;
 * - anything else becomes one text block.
 */
export function toolValueToCallResult(value: unknown): CallToolResult {
  if (!isPlainObject(value)) return { content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value ?? null) }] };
  const media = Array.isArray(value[MEDIA_KEY]) ? (value[MEDIA_KEY] as unknown[]) : [];
  const resources = Array.isArray(value.resources) ? (value.resources as unknown[]) : [];
  if (media.length === 0 && resources.length === 0) return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };

  const content: ContentBlock[] = [];
  if (typeof value.text === "string") content.push({ type: "text", text: value.text });
  for (const item of media) {
    if (!isPlainObject(item) || typeof item.mimeType !== "string" || typeof item.data !== "string") continue;
    content.push({ type: item.mimeType.startsWith("audio/") ? "audio" : "image", mimeType: item.mimeType, data: item.data });
  }
  for (const item of resources) {
    if (!isPlainObject(item) || typeof item.uri !== "string") continue;
    const mimeType = typeof item.mimeType === "string" ? { mimeType: item.mimeType } : {};
    if (typeof item.text === "string") content.push({ type: "resource", resource: { uri: item.uri, ...mimeType, text: item.text } });
    else if (typeof item.blob === "string") content.push({ type: "resource", resource: { uri: item.uri, ...mimeType, blob: item.blob } });
    else content.push({ type: "resource_link", uri: item.uri, name: typeof item.name === "string" ? item.name : item.uri, ...mimeType });
  }
  return { content };
}
