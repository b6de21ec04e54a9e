import type { Blob, Content } from "../content/content.js";
import type { LlmRequest } from "../models/llm-request.js";
import type { LlmResponse } from "../models/llm-response.js";
import type { BaseLlmConnection } from "../models/live-connection.js";
import type { GenerateContentOptions, Model } from "../models/model.js";
import { AsyncQueue } from "../platform/async-queue.js";
import { ScriptError } from "./scripted-model.js";
import { systemInstructionText } from "../models/llm-request.js";

/** What a scripted live model was sent on a connection, in order. */
export type LiveSent = { history: Content[] } | { content: Content } | { blob: Blob } | { activityStart: true } | { activityEnd: true };

/**
 * What made the model take its turn: the history it was sent, a content, the end of the user's speech marked by the
 * client (`activityEnd`), or enough audio to count as an utterance (`speech`, with `speechTurnBytes` set: the audio
 * sent since the last turn).
 */
export type LiveTurn = { history: Content[] } | { content: Content } | { activityEnd: true } | { speech: Blob[] };

/**
 * One turn of a scripted live model: the responses it sends (text pieces, audio, calls, transcriptions,
 * `turnComplete`, `goAway`, …), in order; an `Error` that ends the connection's `receive` with it (give it a
 * `code` of 1006 for a dropped socket); or a function of what started the turn that returns one of those.
 */
export type ScriptedLiveStep = LlmResponse[] | Error | ((turn: LiveTurn) => LlmResponse[] | Error | Promise<LlmResponse[] | Error>);

/** One connection a {@link ScriptedLiveModel} opened: the request it was opened with and what it was sent. */
export interface ScriptedLiveConnection {
  /** The request as it was when the connection opened, with its `liveConnectConfig`. */
  request: LlmRequest;
  sent: LiveSent[];
  /** Whether the connection was closed. */
  closed: boolean;
}

/** Options of {@link ScriptedLiveModel}. */
export interface ScriptedLiveModelOptions {
  /** Default `scripted-live-model`. */
  name?: string;
  /** Errors the next connects fail with, one each, before connects succeed (a server that cannot be reached). */
  connectErrors?: Error[];
  /**
   * Stands in for the server's voice activity detection, for clients that only stream audio (a microphone in a
   * browser): once this many bytes of audio (blobs whose MIME type starts `audio/`, counted decoded) have been sent
   * since the last turn, the model takes a turn, given `{ speech }`, the audio blobs of the utterance. Off when
   * absent: audio then starts no turn.
   */
  speechTurnBytes?: number;
}

/**
 * A model for live runs (`Runner.runLive`) that answers from a script, for tests and examples: each turn it is
 * given (the history ending with the user's message, a content such as a message or function responses, or the
 * end of the user's speech) plays the next step. Audio and activity starts are recorded but start no turn. Every
 * connection, with what it was sent, is kept in {@link connections}; the script runs on across reconnections.
 *
 * @example
 * ```ts
 * const model = new ScriptedLiveModel([
 *   [{ content: { role: "model", parts: [{ text: "Hel" }] }, partial: true }, { content: { role: "model", parts: [{ text: "Hello" }] } }, { turnComplete: true }],
 * ]);
 * ```
 */
export class ScriptedLiveModel implements Model {
  readonly name: string;
  /** `toolsmith.testing`: the provider name its spans carry. */
  readonly provider = "toolsmith.testing";
  /** Every connection opened, in order. */
  readonly connections: ScriptedLiveConnection[] = [];
  readonly #steps: ScriptedLiveStep[];
  readonly #connectErrors: Error[];
  readonly #speechTurnBytes: number | undefined;

  constructor(steps: readonly ScriptedLiveStep[], options: ScriptedLiveModelOptions = {}) {
    const speechTurnBytes = options.speechTurnBytes;
    if (speechTurnBytes !== undefined && !(Number.isSafeInteger(speechTurnBytes) && speechTurnBytes > 0)) {
      throw new ScriptError("INVALID_SCRIPT", `ScriptedLiveModel's speechTurnBytes must be a positive whole number of bytes, not ${String(speechTurnBytes)}.`);
    }
    this.#steps = [...steps];
    this.name = options.name ?? "scripted-live-model";
    this.#connectErrors = [...(options.connectErrors ?? [])];
    this.#speechTurnBytes = speechTurnBytes;
  }

  /** Steps not yet played. */
  get remainingSteps(): number {
    return this.#steps.length;
  }

  /** Throws when steps are left over: the live run ended before the turns the test expected. */
  assertComplete(): void {
    if (this.#steps.length > 0) throw new ScriptError("SCRIPT_NOT_COMPLETE", `ScriptedLiveModel has ${this.#steps.length} unplayed turn(s) after ${this.connections.length} connection(s). The run ended before the scripted turns.`);
  }

  /** A live model answers live runs only. */
  async *generateContent(_request: LlmRequest, _options: GenerateContentOptions): AsyncGenerator<LlmResponse> {
    throw new ScriptError("SCRIPT_EXHAUSTED", `ScriptedLiveModel "${this.name}" answers live runs (runner.runLive) only. Use ScriptedModel for runAsync.`);
  }

  /** Opens a scripted connection (or fails with the next of `connectErrors`). */
  async connect(request: LlmRequest): Promise<BaseLlmConnection> {
    const failure = this.#connectErrors.shift();
    if (failure) throw failure;
    const record: ScriptedLiveConnection = { request: liveRequestSnapshot(request), sent: [], closed: false };
    this.connections.push(record);
    return new ScriptedConnection(record, () => this.#steps.shift(), this.#speechTurnBytes);
  }
}

/** A scripted model's connection: what is sent is recorded, and each turn plays the next step into `receive`. */
class ScriptedConnection implements BaseLlmConnection {
  readonly #record: ScriptedLiveConnection;
  readonly #nextStep: () => ScriptedLiveStep | undefined;
  readonly #responses = new AsyncQueue<LlmResponse>();
  readonly #speechTurnBytes: number | undefined;
  /** The audio sent since the last turn, and its decoded size, while `speechTurnBytes` is set. */
  #speech: Blob[] = [];
  #speechBytes = 0;
  #playing: Promise<void> = Promise.resolve();

  constructor(record: ScriptedLiveConnection, nextStep: () => ScriptedLiveStep | undefined, speechTurnBytes: number | undefined) {
    this.#record = record;
    this.#nextStep = nextStep;
    this.#speechTurnBytes = speechTurnBytes;
  }

  async sendHistory(history: Content[]): Promise<void> {
    this.#record.sent.push({ history: asSent(history) });
    // As a live model: it answers the history when the user spoke last.
    if (history.at(-1)?.role === "user") this.#takeTurn({ history });
  }

  async sendContent(content: Content): Promise<void> {
    this.#record.sent.push({ content: asSent(content) });
    this.#takeTurn({ content });
  }

  async sendRealtime(blob: Blob): Promise<void> {
    this.#record.sent.push({ blob: asSent(blob) });
    if (this.#speechTurnBytes === undefined || !blob.mimeType?.startsWith("audio/")) return;
    this.#speech.push(asSent(blob));
    this.#speechBytes += decodedBase64Length(blob.data ?? "");
    if (this.#speechBytes < this.#speechTurnBytes) return;
    const speech = this.#speech;
    this.#speech = [];
    this.#speechBytes = 0;
    this.#takeTurn({ speech });
  }

  async sendActivityStart(): Promise<void> {
    this.#record.sent.push({ activityStart: true });
  }

  async sendActivityEnd(): Promise<void> {
    this.#record.sent.push({ activityEnd: true });
    this.#takeTurn({ activityEnd: true });
  }

  async *receive(): AsyncGenerator<LlmResponse, void, void> {
    yield* this.#responses;
  }

  async close(): Promise<void> {
    this.#record.closed = true;
    this.#responses.close();
  }

  /** Plays the next step after the turns before it, so answers come in the order their turns did. */
  #takeTurn(turn: LiveTurn): void {
    this.#playing = this.#playing.then(async () => {
      if (this.#record.closed) return;
      const step = this.#nextStep();
      if (step === undefined) {
        this.#responses.fail(new ScriptError("SCRIPT_EXHAUSTED", "ScriptedLiveModel was given a turn but has no step left. Add a step for it."));
        return;
      }
      try {
        const played = typeof step === "function" ? await step(turn) : step;
        if (played instanceof Error) this.#responses.fail(played);
        else for (const response of played) this.#responses.push(structuredClone(response));
      } catch (error) {
        this.#responses.fail(error);
      }
    });
  }
}

/**
 * What a live model receives of a value sent to it: its JSON, as a real connection's wire carries it (a value JSON
 * cannot carry, an async generator in a function response say, arrives as `{}`, as it would at Gemini).
 */
function asSent<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** How many bytes a base64 text decodes to (standard or URL-safe, padded or not), without decoding it. */
function decodedBase64Length(data: string): number {
  let length = data.length;
  while (length > 0 && data[length - 1] === "=") length--;
  return Math.floor((length * 3) / 4);
}

/**
 * The request a connection opened with, as it was then. Also read from an ADK-shaped request (an ADK program's own
 * `BaseLlm` may hand it on), whose instruction and declarations sit in `config` and which carries no declarations list.
 */
function liveRequestSnapshot(request: LlmRequest): LlmRequest {
  const config = { ...request.config };
  const declared = (config.tools as Array<{ functionDeclarations?: LlmRequest["functionDeclarations"] }> | undefined)?.flatMap((tool) => tool.functionDeclarations ?? []) ?? [];
  return {
    model: request.model,
    contents: structuredClone(request.contents ?? []),
    systemInstruction: request.systemInstruction ?? systemInstructionText(config.systemInstruction),
    functionDeclarations: request.functionDeclarations?.slice() ?? declared,
    config,
    liveConnectConfig: structuredClone(request.liveConnectConfig),
  };
}
