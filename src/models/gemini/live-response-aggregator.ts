import type { FunctionCall as GenaiFunctionCall, LiveServerMessage, UsageMetadata as GenaiLiveUsage } from "@google/genai";
import type { Content, Part } from "../../content/content.js";
import type { LlmRequest } from "../llm-request.js";
import type { GroundingMetadata, LlmResponse, Transcription, UsageMetadata } from "../llm-response.js";
import { isGemini3xFlashLive } from "../model-name.js";
import { definedOnly } from "../defined-only.js";
import { providerFunctionCall } from "../provider-function-call.js";

/** Options of {@link LiveResponseAggregator}. */
export interface LiveResponseAggregatorOptions {
  /** The model the connection was opened for; every response carries it as `modelVersion`, as in ADK. */
  modelVersion?: string;
  /** The request the connection was opened for: its declarations map the arguments of Gemini's calls back (see `providerFunctionCall`). */
  request?: LlmRequest;
}

/**
 * Turns the messages of a Gemini live session into responses, as ADK's `LiveResponseAggregator` does:
 *
 * - text arrives in pieces (each message a response with `partial: true`), and the whole text follows as one
 *   complete response when the turn ends, a non-text message comes, or thought text turns to answer text (thoughts
 *   are kept apart, `thought: true`);
 * - audio and other parts pass through as they come;
 * - function calls of `toolCall` messages are gathered into one response at `turnComplete` (at once on Gemini 3.x
 *   Flash Live, which calls tools one turn at a time), their ids kept;
 * - transcriptions arrive in pieces (`finished: false`), then whole (`finished: true`) when Gemini says so or the
 *   turn ends;
 * - `turnComplete`, `interrupted`, usage, grounding, `sessionResumptionUpdate` (as `liveSessionResumptionUpdate`)
 *   and `goAway` each become a response.
 *
 * Where it differs from ADK, on purpose: usage is given in toolsmith's names (Live's `responseTokenCount` is
 * `candidatesTokenCount`; Gemini's figures are kept in `customMetadata.providerUsage`); grounding of one turn is not
 * carried into the next turn's `turnComplete`; an interruption while text was gathered still yields `interrupted`
 * after that text; and calls' arguments are mapped back through the tool's declared schema as for generateContent.
 */
export class LiveResponseAggregator {
  readonly #modelVersion: string | undefined;
  readonly #request: LlmRequest | undefined;
  #text = "";
  #textIsThought = false;
  #calls: Part[] = [];
  #grounding: GroundingMetadata | undefined;
  #inputTranscription = "";
  #outputTranscription = "";

  constructor(options: LiveResponseAggregatorOptions = {}) {
    this.#modelVersion = options.modelVersion;
    this.#request = options.request;
  }

  /** The responses one server message makes, in order. */
  *processMessage(message: LiveServerMessage): Generator<LlmResponse, void, void> {
    if (message.usageMetadata) yield this.#response({ usageMetadata: usageOf(message.usageMetadata), customMetadata: { providerUsage: message.usageMetadata } });
    const serverContent = message.serverContent;
    if (serverContent) {
      const grounding = serverContent.groundingMetadata as GroundingMetadata | undefined;
      const interrupted = serverContent.interrupted !== undefined ? { interrupted: serverContent.interrupted } : {};
      const modelTurn = serverContent.modelTurn as Content | undefined;
      if (grounding) this.#grounding = grounding;
      if (!modelTurn?.parts && grounding && !serverContent.turnComplete) yield this.#response({ groundingMetadata: grounding, ...interrupted });
      if (modelTurn?.parts) yield* this.#modelTurn(modelTurn, serverContent.turnComplete ? undefined : grounding, interrupted);
      yield* this.#transcriptionPieces("inputTranscription", serverContent.inputTranscription);
      yield* this.#transcriptionPieces("outputTranscription", serverContent.outputTranscription);
      if (serverContent.interrupted || serverContent.turnComplete || serverContent.generationComplete) {
        yield* this.#finishTranscription("inputTranscription");
        yield* this.#finishTranscription("outputTranscription");
      }
      if (serverContent.turnComplete) yield* this.#turnComplete(grounding, interrupted);
      if (serverContent.interrupted) {
        yield* this.#flushText();
        yield this.#response({ interrupted: true });
      }
    }
    if (message.toolCall) {
      yield* this.#flushText();
      for (const call of message.toolCall.functionCalls ?? []) this.#calls.push({ functionCall: this.#functionCall(call) });
      if (isGemini3xFlashLive(this.#modelVersion)) yield* this.#flushCalls();
    }
    if (message.sessionResumptionUpdate) yield this.#response({ liveSessionResumptionUpdate: message.sessionResumptionUpdate });
    if (message.goAway) yield this.#response({ goAway: message.goAway });
  }

  /** What is still gathered when the connection closes: function calls whose turn never completed. */
  *close(): Generator<LlmResponse, void, void> {
    yield* this.#flushCalls();
  }

  *#modelTurn(modelTurn: Content, grounding: GroundingMetadata | undefined, interrupted: { interrupted?: boolean }): Generator<LlmResponse> {
    const parts = modelTurn.parts ?? [];
    let hasText = false;
    for (const part of parts) {
      if (!part.text) continue;
      hasText = true;
      const thought = part.thought === true;
      // Thought text and answer text are separate responses: a switch between them ends the gathered text.
      if (this.#text && thought !== this.#textIsThought) yield* this.#flushText();
      this.#text += part.text;
      this.#textIsThought = thought;
    }
    // A message without text (a function call, code) ends the gathered text; audio does not, as in ADK.
    if (!hasText && !parts.some((part) => part.inlineData)) yield* this.#flushText();
    yield this.#response({ content: { ...modelTurn, role: modelTurn.role ?? "model" }, ...interrupted, ...(grounding ? { groundingMetadata: grounding } : {}), ...(hasText ? { partial: true } : {}) });
  }

  *#transcriptionPieces(kind: "inputTranscription" | "outputTranscription", piece: Transcription | undefined): Generator<LlmResponse> {
    if (!piece) return;
    if (piece.text) {
      if (kind === "inputTranscription") this.#inputTranscription += piece.text;
      else this.#outputTranscription += piece.text;
      yield this.#response({ [kind]: { text: piece.text, finished: false }, partial: true });
    }
    if (piece.finished) yield* this.#finishTranscription(kind, true);
  }

  /** The whole transcription gathered so far, finished; with `always`, even when nothing was gathered (Gemini said it finished). */
  *#finishTranscription(kind: "inputTranscription" | "outputTranscription", always = false): Generator<LlmResponse> {
    const text = kind === "inputTranscription" ? this.#inputTranscription : this.#outputTranscription;
    if (!text && !always) return;
    if (kind === "inputTranscription") this.#inputTranscription = "";
    else this.#outputTranscription = "";
    yield this.#response({ [kind]: { text, finished: true }, partial: false });
  }

  *#turnComplete(grounding: GroundingMetadata | undefined, interrupted: { interrupted?: boolean }): Generator<LlmResponse> {
    // The turn's grounding goes on its whole text when there is one, else on the turnComplete response.
    let pending = this.#grounding;
    this.#grounding = undefined;
    if (this.#text) {
      yield* this.#flushText(pending);
      pending = undefined;
    }
    yield* this.#flushCalls();
    const turnGrounding = grounding ?? pending;
    yield this.#response({ turnComplete: true, ...interrupted, ...(turnGrounding ? { groundingMetadata: turnGrounding } : {}) });
  }

  *#flushText(grounding?: GroundingMetadata): Generator<LlmResponse> {
    if (!this.#text) return;
    const part: Part = { text: this.#text, ...(this.#textIsThought ? { thought: true } : {}) };
    this.#text = "";
    this.#textIsThought = false;
    yield this.#response({ content: { role: "model", parts: [part] }, partial: false, ...(grounding ? { groundingMetadata: grounding } : {}) });
  }

  *#flushCalls(): Generator<LlmResponse> {
    if (this.#calls.length === 0) return;
    const parts = this.#calls;
    this.#calls = [];
    yield this.#response({ content: { role: "model", parts } });
  }

  #functionCall(call: GenaiFunctionCall) {
    const name = call.name ?? "";
    const args = call.args ?? {};
    const id = call.id ? { id: call.id } : {};
    return this.#request?.functionDeclarations ? providerFunctionCall(this.#request, { ...id, name, args }) : { ...id, name, args };
  }

  #response(fields: LlmResponse): LlmResponse {
    return this.#modelVersion ? { ...fields, modelVersion: this.#modelVersion } : fields;
  }
}

/** Live usage in toolsmith's names: the answer's tokens are Live's `responseTokenCount`. */
function usageOf(usage: GenaiLiveUsage): UsageMetadata {
  return definedOnly({
    promptTokenCount: usage.promptTokenCount,
    candidatesTokenCount: usage.responseTokenCount,
    totalTokenCount: usage.totalTokenCount,
    thoughtsTokenCount: usage.thoughtsTokenCount,
    cachedContentTokenCount: usage.cachedContentTokenCount,
  });
}
