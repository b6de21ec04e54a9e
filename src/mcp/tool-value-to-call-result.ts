import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchema } from "../models/function-declaration.js";
import { isPlainObject } from "../tools/tool-result.js";
import { MEDIA_KEY } from "./call-tool-result.js";

type ContentBlock = CallToolResult["content"][number];

/**
 * A tool's return value as an MCP tool result, sent once and whole (the
 * inverse of what {@link MCPToolset} makes of one):
 * - images and audio under `media` (`[{mimeType, data}]`) become image and
 *   audio content, and `resources` (`[{uri, mimeType, text | blob}]`)
 *   embedded resources or resource links, never base64 inside structured data;
 * - the rest of an object (all of it when it has no media or resources; the
 *   other keys beside `text` when it has) is the tool's data: with an output
 *   schema it is `structuredContent`, with its JSON as the one text copy the
 *   MCP spec asks for; without one it is a text block of JSON only;
 * - a string is one text block, anything else its JSON.
 */
export function toolValueToCallResult(value: unknown, outputSchema?: JsonSchema): CallToolResult {
  if (!isPlainObject(value)) {
    const text = typeof value === "string" ? value : JSON.stringify(value ?? null);
    return outputSchema ? { content: [{ type: "text", text }], structuredContent: { result: value ?? null } } : { content: [{ type: "text", text }] };
  }
  const media = Array.isArray(value[MEDIA_KEY]) ? (value[MEDIA_KEY] as unknown[]) : [];
  const resources = Array.isArray(value.resources) ? (value.resources as unknown[]) : [];
  if (media.length === 0 && resources.length === 0) return dataResult(value, outputSchema);

  const { [MEDIA_KEY]: _media, resources: _resources, text, ...data } = value;
  const content: ContentBlock[] = [];
  if (typeof text === "string") content.push({ type: "text", text });
  else if (text !== undefined) data.text = text;
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
  // Data returned beside the media is kept, as structured data or as text.
  if (Object.keys(data).length === 0) return { content };
  const rest = dataResult(data, outputSchema);
  return { ...rest, content: [...content, ...rest.content] };
}

function dataResult(data: Record<string, unknown>, outputSchema: JsonSchema | undefined): CallToolResult {
  const json: ContentBlock = { type: "text", text: JSON.stringify(data) };
  return outputSchema ? { content: [json], structuredContent: data } : { content: [json] };
}
