import type { Part } from "../content/content.js";
import { endSentence } from "../errors/sentence.js";
import { ToolsmithError } from "../errors/toolsmith-error.js";
import { describeGiven } from "../errors/unhonoured-option.js";
import type { Citation, LlmResponse, UsageMetadata } from "./llm-response.js";

/** What a complete response carries beside its parts. */
export interface ResponseDetails {
  finishReason?: string;
  usage?: UsageMetadata;
  /** The provider's usage object as it sent it, kept in `customMetadata.providerUsage`. */
  providerUsage?: unknown;
  /** Sources the text cites, in genai's shape. */
  citations?: Citation[];
  /** The provider's own citation or annotation objects, kept in `customMetadata.citations`. */
  providerCitations?: unknown[];
  /** Output the adapter has no mapping for, kept in `customMetadata.unhandledOutput` so nothing vanishes in silence. */
  unhandled?: UnhandledOutput[];
  /** A refusal that came beside tool calls, kept in `customMetadata.refusal` (its words are also the answer's first text part). */
  refusal?: string;
}

/** One output item or block toolsmith does not map, as the provider sent it. */
export interface UnhandledOutput {
  type: string;
  item: unknown;
}

/**
 * The complete response an adapter yields last. When the provider answered
 * only with output toolsmith cannot act on (an `mcp_approval_request`, say), it
 * is an error response (`MODEL_UNHANDLED_OUTPUT`) naming the types, not an
 * empty answer.
 */
export function completeResponse(provider: string, parts: Part[], details: ResponseDetails): LlmResponse {
  const unhandled = details.unhandled ?? [];
  const customMetadata = {
    ...(details.providerUsage ? { providerUsage: details.providerUsage } : {}),
    ...(details.providerCitations?.length ? { citations: details.providerCitations } : {}),
    ...(unhandled.length > 0 ? { unhandledOutput: unhandled } : {}),
    ...(details.refusal ? { refusal: details.refusal } : {}),
  };
  const common: LlmResponse = {
    turnComplete: true,
    ...(details.finishReason ? { finishReason: details.finishReason } : {}),
    ...(details.usage ? { usageMetadata: details.usage } : {}),
    ...(details.citations?.length ? { citationMetadata: { citations: details.citations } } : {}),
    ...(Object.keys(customMetadata).length > 0 ? { customMetadata } : {}),
  };
  if (parts.every((part) => part.thought) && unhandled.length > 0) {
    const types = [...new Set(unhandled.map((entry) => entry.type))].join(", ");
    return {
      ...common,
      errorCode: "MODEL_UNHANDLED_OUTPUT",
      errorMessage: `${provider} answered only with output toolsmith cannot act on (${types}); it is kept in customMetadata.unhandledOutput. Turn off the provider feature that produces it, or handle it in an afterModelCallback.`,
    };
  }
  return { content: { role: "model", parts }, ...common };
}

/** Why a model gave no answer: it declined (`MODEL_REFUSED`) or a safety filter stopped it (`MODEL_SAFETY_BLOCKED`). */
export type DeclineCode = "MODEL_REFUSED" | "MODEL_SAFETY_BLOCKED";

/**
 * An error response for a refusal or a safety block, as ADK makes one for a
 * blocked Gemini answer: no content, `errorCode`, and an `errorMessage` quoting
 * the provider's words. `finishReason` stays the provider's reason (`SAFETY`, …).
 */
export function declinedResponse(code: DeclineCode, provider: string, words: string, details: ResponseDetails): LlmResponse {
  const what = code === "MODEL_REFUSED" ? `${provider} declined to answer` : `${provider}'s safety filter blocked the answer`;
  const quoted = words.trim();
  const said = quoted ? `: ${endSentence(quoted)}` : " without saying why.";
  const advice = code === "MODEL_REFUSED" ? "Rephrase the request, or show the refusal to the user." : "Rephrase the request, or adjust the provider's safety settings where it allows.";
  const { content: _content, ...rest } = completeResponse(provider, [], { ...details, unhandled: [] });
  return { ...rest, errorCode: code, errorMessage: `${what}${said} ${advice}` };
}

/**
 * The answer to a response that holds a refusal. A refusal alone is the
 * `MODEL_REFUSED` error response. A refusal that came with tool calls (OpenAI
 * may decline part of a request and act on the rest) is both: the refusal's
 * words as a visible text part marked `partMetadata.refusal`, then the calls,
 * which the run executes; the words are also in `customMetadata.refusal`.
 */
export function answerWithRefusal(provider: string, refusal: string, parts: Part[], details: ResponseDetails): LlmResponse {
  if (!parts.some((part) => part.functionCall)) return declinedResponse("MODEL_REFUSED", provider, refusal, details);
  return completeResponse(provider, [{ text: refusal, partMetadata: { refusal: true } }, ...parts], { ...details, refusal });
}

/** One streamed piece of text, yielded before the complete response. */
export function partialText(text: string, thought = false): LlmResponse {
  return { content: { role: "model", parts: [thought ? { text, thought: true } : { text }] }, partial: true };
}

/**
 * Throws `MODEL_INVALID_RESPONSE` for what a model yielded that is no `LlmResponse`: not an object, a `content` that
 * is not one, `parts` that are not a list of objects. The adapters never yield such a thing; a model a program
 * writes itself (a `Model`, a `BaseLlm` subclass) may, and the run then ends with this error event saying what to
 * fix instead of a `TypeError` from deep in the loop. A few property reads: it runs on every chunk.
 */
export function assertResponseShape(modelName: string, response: unknown): asserts response is LlmResponse {
  if (typeof response !== "object" || response === null || Array.isArray(response)) return refuseResponse(modelName, `yielded ${describeGiven(response)}`);
  const content = (response as LlmResponse).content;
  if (content === undefined || content === null) return;
  if (typeof content !== "object" || Array.isArray(content)) return refuseResponse(modelName, `yielded a response whose content is ${describeGiven(content)}`);
  const parts = content.parts;
  if (parts === undefined || parts === null) return;
  if (!Array.isArray(parts)) return refuseResponse(modelName, `yielded a response whose content.parts is ${describeGiven(parts)}, not a list`);
  for (const part of parts) {
    if (typeof part !== "object" || part === null || Array.isArray(part)) return refuseResponse(modelName, `yielded a response with the part ${describeGiven(part)}, not an object`);
  }
}

function refuseResponse(modelName: string, what: string): never {
  throw new ToolsmithError(
    "MODEL_INVALID_RESPONSE",
    `Model "${modelName}" ${what}. A model yields LlmResponse objects, such as { content: { role: "model", parts: [{ text: "Hello" }] } }: fix its generateContent.`,
  );
}
