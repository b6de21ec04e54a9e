/**
 * Content and parts in the shape of `@google/genai`'s `Content`, so events
 * serialise exactly as ADK's do and move between the two without conversion.
 */

/** A request from the model to call a tool. */
export interface FunctionCall {
  /** Unique per call; toolsmith assigns one (`adk-…`) when the model gives none. */
  id?: string;
  /** Optional in `@google/genai`'s type; a call without one is answered with an error the model can fix. */
  name?: string;
  args?: Record<string, unknown>;
}

/** The result of a tool call, sent back to the model. */
export interface FunctionResponse {
  id?: string;
  /** Optional in `@google/genai`'s type, as is `response`. */
  name?: string;
  response?: Record<string, unknown>;
}

/** Raw bytes, base64-encoded, with their MIME type. */
export interface Blob {
  /** Optional in `@google/genai`'s type, as is `data`; toolsmith always sets both. */
  mimeType?: string;
  data?: string;
  displayName?: string;
}

/** A reference to a file by URI. */
export interface FileData {
  mimeType?: string;
  /** Optional in `@google/genai`'s type. */
  fileUri?: string;
  displayName?: string;
}

/** One piece of a message: text, a function call or response, or data. */
export interface Part {
  text?: string;
  /** The text is the model's reasoning, not its answer. */
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: FunctionCall;
  functionResponse?: FunctionResponse;
  inlineData?: Blob;
  fileData?: FileData;
}

/** A message: who said it (`user` or `model`) and its parts. */
export interface Content {
  role?: string;
  parts?: Part[];
}

/** The function calls in a content, in order. */
export function getFunctionCalls(content: Content | undefined): FunctionCall[] {
  const calls: FunctionCall[] = [];
  for (const part of content?.parts ?? []) if (part.functionCall) calls.push(part.functionCall);
  return calls;
}

/** The function responses in a content, in order. */
export function getFunctionResponses(content: Content | undefined): FunctionResponse[] {
  const responses: FunctionResponse[] = [];
  for (const part of content?.parts ?? []) if (part.functionResponse) responses.push(part.functionResponse);
  return responses;
}

/** The text parts of a content joined, leaving out the model's thoughts. */
export function getText(content: Content | undefined): string {
  let text = "";
  for (const part of content?.parts ?? []) if (part.text !== undefined && !part.thought) text += part.text;
  return text;
}

/** ADK's name for the text of an event's content, thoughts left out: {@link getText} of `event.content`. */
export function stringifyContent(event: { content?: Content }): string {
  return getText(event.content);
}
