import type { Blob, Content, Part } from "../content/content.js";
import type { LlmRequest } from "../models/llm-request.js";
import { MEDIA_KEY } from "./call-tool-result.js";

const processed = new WeakSet<LlmRequest>();

/**
 * Puts the images and audio that tools returned where a model can see them.
 * A function response holds JSON only, so the bytes stored under `media` in
 * the response are replaced (in the outgoing request only; the session keeps
 * them) by a note, and a user message with the bytes as inline parts follows
 * the tool responses. Runs once per request however many MCP tools call it.
 */
export function moveMediaIntoParts(request: LlmRequest): void {
  if (processed.has(request)) return;
  processed.add(request);
  const contents: Content[] = [];
  for (const content of request.contents) {
    const inline: Part[] = [];
    let changed = false;
    const parts = (content.parts ?? []).map((part): Part => {
      const response = part.functionResponse?.response;
      const media = response?.[MEDIA_KEY];
      if (!part.functionResponse || !isMediaList(media)) return part;
      changed = true;
      inline.push({ text: `Media returned by tool "${part.functionResponse.name}" (call ${part.functionResponse.id ?? "?"}):` });
      for (const blob of media) inline.push({ inlineData: { ...blob } });
      const described = media.map((blob) => ({ mimeType: blob.mimeType, shownAs: "inline part in the next user message" }));
      return { functionResponse: { ...part.functionResponse, response: { ...response, [MEDIA_KEY]: described } } };
    });
    contents.push(changed ? { ...content, parts } : content);
    if (inline.length) contents.push({ role: "user", parts: inline });
  }
  request.contents = contents;
}

function isMediaList(value: unknown): value is Blob[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((item) => typeof item === "object" && item !== null && typeof item.mimeType === "string" && typeof item.data === "string")
  );
}
