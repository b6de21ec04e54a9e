import type { Content, Part } from "../../content/content.js";

/**
 * A content as Gemini is sent it: ids toolsmith made up (`adk-…`) mean nothing to Gemini and are left out, as ADK
 * does. So is what other adapters keep in `partMetadata` to send back to their own provider (a part holding nothing
 * else is left out whole). Used for generateContent's contents and for what a live connection sends.
 */
export function withoutClientIds(content: Content): Content {
  const parts = content.parts?.flatMap((part) => (part.partMetadata ? withoutMetadata(part) : [part])).map((part) => {
    if (part.functionCall?.id?.startsWith("adk-")) {
      const { id: _id, ...call } = part.functionCall;
      return { ...part, functionCall: call };
    }
    if (part.functionResponse?.id?.startsWith("adk-")) {
      const { id: _id, ...response } = part.functionResponse;
      return { ...part, functionResponse: response };
    }
    return part;
  });
  return { ...content, ...(parts ? { parts } : {}) };
}

function withoutMetadata(part: Part): Part[] {
  const { partMetadata: _metadata, ...rest } = part;
  return Object.keys(rest).length > 0 ? [rest] : [];
}
