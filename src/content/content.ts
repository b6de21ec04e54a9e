/**
 * Content and parts in the shape of `@google/genai`'s `Content`, so events
 * serialise exactly as ADK's do and move between the two without conversion.
 */

/**
 * A request from the model to call a tool. `name` is optional as in genai, so
 * genai's values are accepted as they are; a call without a name is answered
 * with an error result the model can read.
 */
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

/**
 * The language of code the model wrote for Gemini's code execution. An enum
 * with genai's name and members, so values pass between the two both ways.
 */
export enum Language {
  LANGUAGE_UNSPECIFIED = "LANGUAGE_UNSPECIFIED",
  PYTHON = "PYTHON",
}

/** How Gemini's run of the model's code ended; genai's enum, member for member. */
export enum Outcome {
  OUTCOME_UNSPECIFIED = "OUTCOME_UNSPECIFIED",
  OUTCOME_OK = "OUTCOME_OK",
  OUTCOME_FAILED = "OUTCOME_FAILED",
  OUTCOME_DEADLINE_EXCEEDED = "OUTCOME_DEADLINE_EXCEEDED",
}

/** Code the model wrote and Gemini ran (code execution); the result follows in a {@link CodeExecutionResult} part. */
export interface ExecutableCode {
  code?: string;
  language?: Language;
  id?: string;
}

/** What Gemini's run of {@link ExecutableCode} printed, and how it ended. */
export interface CodeExecutionResult {
  outcome?: Outcome;
  output?: string;
  id?: string;
}

/** One piece of a message: text, a function call or response, data, or code Gemini ran. */
export interface Part {
  text?: string;
  /** The text is the model's reasoning, not its answer. */
  thought?: boolean;
  thoughtSignature?: string;
  /**
   * What a model adapter needs to send the part back as the provider sent it
   * (OpenAI's encrypted reasoning item, the field a server's reasoning came in);
   * genai's `partMetadata`.
   */
  partMetadata?: Record<string, unknown>;
  functionCall?: FunctionCall;
  functionResponse?: FunctionResponse;
  inlineData?: Blob;
  fileData?: FileData;
  executableCode?: ExecutableCode;
  codeExecutionResult?: CodeExecutionResult;
  /** genai's `videoMetadata` of a video part (start and end offsets, frame rate), carried as given. */
  videoMetadata?: { startOffset?: string; endOffset?: string; fps?: number };
}

/** A message: who said it (`user` or `model`) and its parts. */
export interface Content {
  role?: string;
  parts?: Part[];
}

/** A content, or what holds one: an event (ADK's helpers take events; toolsmith's took contents first). */
export type ContentSource = Content | { content?: Content };

/** The parts of a content or of an event's content. An event is told by its `content` field, which a content lacks. */
function partsOf(source: ContentSource | undefined): Part[] | undefined {
  if (source === undefined || source === null) return undefined;
  return "content" in source ? source.content?.parts : (source as Content).parts;
}

/**
 * Whether the content (or an event's) ends with the result of code Gemini ran: the model's answer is still to
 * come, so such a content is not a final answer (ADK's `hasTrailingCodeExecutionResult`).
 */
export function endsWithCodeExecutionResult(source: ContentSource | undefined): boolean {
  return partsOf(source)?.at(-1)?.codeExecutionResult !== undefined;
}

/** The function calls in a content or an event (as ADK's `getFunctionCalls(event)`), in order. */
export function getFunctionCalls(source: ContentSource | undefined): FunctionCall[] {
  const calls: FunctionCall[] = [];
  const parts = partsOf(source);
  // Indexed, as on the run loop's other paths: until V8 optimizes a function, `for … of` makes an iterator and a
  // result object per step, twice the time of an index (a function called a few times a turn stays unoptimized
  // for hundreds of runs).
  if (!parts) return calls;
  for (let index = 0; index < parts.length; index++) {
    const call = parts[index]!.functionCall;
    if (call) calls.push(call);
  }
  return calls;
}

/** The function responses in a content or an event (as ADK's `getFunctionResponses(event)`), in order. */
export function getFunctionResponses(source: ContentSource | undefined): FunctionResponse[] {
  const responses: FunctionResponse[] = [];
  const parts = partsOf(source);
  if (!parts) return responses;
  for (let index = 0; index < parts.length; index++) {
    const response = parts[index]!.functionResponse;
    if (response) responses.push(response);
  }
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
