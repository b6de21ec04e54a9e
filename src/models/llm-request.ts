import type { Content, Part } from "../content/content.js";
import type { FunctionDeclaration } from "./function-declaration.js";
import type { LiveConnectConfig } from "./live-connection.js";

/** Generation settings passed through to the model (temperature, token limits, …). */
export interface GenerateContentConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  candidateCount?: number;
  seed?: number;
  /**
   * The system instruction, where ADK keeps it (`request.config.systemInstruction`): text, or a content or
   * parts whose text is used. A model callback may read and change it here; `request.systemInstruction` is the
   * same value as text.
   */
  systemInstruction?: string | Content | Part | Array<string | Part>;
  /** `"application/json"` asks for a JSON answer (set by `outputSchema`). */
  responseMimeType?: string;
  /** The JSON Schema the answer must match (set by `outputSchema`); each adapter sends it its provider's way. */
  responseJsonSchema?: Record<string, unknown>;
  /** Anything else a provider adapter understands, passed through unchanged. */
  [key: string]: unknown;
}

/**
 * What is sent to a model: the conversation, the system instruction and the
 * tools, provider-neutral. Tools and callbacks may change it before it is sent.
 */
export interface LlmRequest {
  /** The model name, for adapters that serve several. */
  model?: string;
  contents: Content[];
  /**
   * Instructions joined with blank lines. In requests toolsmith builds, the same value as
   * `config.systemInstruction` (as text): setting either changes both.
   */
  systemInstruction: string;
  /** Declarations in the order the tools were given; schemas are plain JSON Schema. */
  functionDeclarations: FunctionDeclaration[];
  config: GenerateContentConfig;
  /** Live runs only: how the connection is set up (the run config's live settings, resumption). */
  liveConnectConfig?: LiveConnectConfig;
}

/** The text of a system instruction given as ADK and `@google/genai` allow: a string, a content, a part, or a list of them. */
export function systemInstructionText(value: GenerateContentConfig["systemInstruction"]): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  const parts: Array<string | Part> = Array.isArray(value) ? value : "parts" in value || "role" in value ? ((value as Content).parts ?? []) : [value as Part];
  return parts.map((part) => (typeof part === "string" ? part : (part.text ?? ""))).filter((text) => text.length > 0).join("\n\n");
}

/**
 * A request toolsmith builds: `systemInstruction` is an accessor (on the prototype, shared by every request) over
 * `config.systemInstruction`. Written as a class so that each request is four plain fields: an accessor in an
 * object literal made two closures and an accessor pair per request, the largest cost of building one.
 */
class BuiltLlmRequest implements LlmRequest {
  model: string | undefined;
  contents: Content[];
  functionDeclarations: FunctionDeclaration[];
  config: GenerateContentConfig;

  constructor(model: string | undefined, contents: Content[], functionDeclarations: FunctionDeclaration[], config: GenerateContentConfig) {
    this.model = model;
    this.contents = contents;
    this.functionDeclarations = functionDeclarations;
    this.config = config;
  }

  get systemInstruction(): string {
    return systemInstructionText(this.config.systemInstruction);
  }

  set systemInstruction(text: string) {
    if (text) this.config.systemInstruction = text;
    else delete this.config.systemInstruction;
  }

  /** The request as JSON with its `systemInstruction` too, which, being an accessor, `JSON.stringify` would leave out. */
  toJSON(): Omit<LlmRequest, "model"> & { model?: string } {
    return { model: this.model, contents: this.contents, systemInstruction: this.systemInstruction, functionDeclarations: this.functionDeclarations, config: this.config };
  }
}

/**
 * A new request whose `systemInstruction` is an accessor over
 * `config.systemInstruction`, so code written for ADK (which edits
 * `request.config.systemInstruction`) and code written for toolsmith (which
 * reads `request.systemInstruction`) see one value.
 */
export function createLlmRequest(init: { model?: string; contents: Content[]; systemInstruction?: string; functionDeclarations?: FunctionDeclaration[]; config?: GenerateContentConfig }): LlmRequest {
  const request = new BuiltLlmRequest(init.model, init.contents, init.functionDeclarations ?? [], { ...init.config });
  if (init.systemInstruction) request.systemInstruction = init.systemInstruction;
  return request;
}

/** Adds instructions to a request, each after a blank line (empty ones are left out). */
export function appendInstructions(request: LlmRequest, instructions: readonly string[]): void {
  let text = "";
  for (const line of instructions) if (line.length > 0) text = text ? `${text}\n\n${line}` : line;
  if (!text) return;
  const current = request.systemInstruction;
  request.systemInstruction = current ? `${current}\n\n${text}` : text;
}

/** toolsmith's own request hooks known to leave the contents they are given as they are (see {@link leavesContentsAlone}). */
const contentsLeftAlone = new WeakSet<object>();

/**
 * Marks one of toolsmith's own request hooks (a tool's or toolset's `processLlmRequest`, a plugin's
 * `beforeModelCallback`) as adding to a request without changing the contents it came with in place (they set
 * `request.contents` to a new list when they add): a request only such hooks see keeps sharing the history's
 * contents, with no copy. Gives the hook back.
 */
export function leavesContentsAlone<T extends object>(hook: T): T {
  contentsLeftAlone.add(hook);
  return hook;
}

/** Whether a request hook may change the contents it is given in place: any but those {@link leavesContentsAlone} marked. */
export function mayChangeContents(hook: unknown): boolean {
  return typeof hook !== "function" || !contentsLeftAlone.has(hook);
}

/** Requests whose contents are their own already (see {@link detachContents}). */
const detached = new WeakSet<LlmRequest>();

/**
 * Gives the request deep copies of its contents, once per request, before code that may change them in place sees
 * it: model callbacks, plugins, request processors, tools' `processLlmRequest` (but toolsmith's own that
 * {@link leavesContentsAlone} marked). The contents toolsmith builds are
 * the session's own events' contents (a copy per call would cost every model call the whole history), so a
 * callback that rewrote `request.contents[0].parts[0].text` rewrote the stored history. As in ADK, such changes
 * reach this call's model and nothing else.
 */
export function detachContents(request: LlmRequest): void {
  if (detached.has(request)) return;
  detached.add(request);
  request.contents = structuredClone(request.contents);
}
