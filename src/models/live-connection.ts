import type { Blob, Content } from "../content/content.js";
import { ToolsmithError } from "../errors/toolsmith-error.js";
import type { LlmResponse } from "./llm-response.js";

/**
 * The settings of a live session a program chooses, as ADK's run config names them and `@google/genai`'s
 * `LiveConnectConfig` takes them. A live run's `runConfig` gives them (see `LiveRunConfig`).
 */
export interface LiveSessionSettings {
  /** What the model answers with: `["AUDIO"]` (the default of a live run, as ADK's) or `["TEXT"]`. */
  responseModalities?: string[];
  /** The model's voice and language (genai's `SpeechConfig`). */
  speechConfig?: Record<string, unknown>;
  /** `{}` adds a transcription of what the model says (events with `outputTranscription`). */
  outputAudioTranscription?: Record<string, unknown>;
  /** `{}` adds a transcription of what the user says (events with `inputTranscription`, authored by `user`). */
  inputAudioTranscription?: Record<string, unknown>;
  /** How the server detects speech (genai's `RealtimeInputConfig`; turn it off to send activity start and end yourself). */
  realtimeInputConfig?: Record<string, unknown>;
  /** How the server shortens a long live session's context (genai's `ContextWindowCompressionConfig`). */
  contextWindowCompression?: Record<string, unknown>;
  /** Lets the model choose not to answer what is not meant for it (genai's `ProactivityConfig`). */
  proactivity?: Record<string, unknown>;
  /** Lets the model adapt its tone to the user's (native audio models). */
  enableAffectiveDialog?: boolean;
  /**
   * `{}` asks the server for session resumption handles (ADK Python's `session_resumption`; ADK TypeScript has no
   * such setting), with which a live run takes the conversation up again when the connection drops or the server
   * sends `goAway`. `{ handle }` resumes the session that handle names (a live run sets it when it reconnects;
   * `transparent: true` is for Vertex AI).
   */
  sessionResumption?: { handle?: string; transparent?: boolean };
}

/**
 * How a live (bidirectional) session is set up, as `@google/genai`'s `LiveConnectConfig` names it: the program's
 * {@link LiveSessionSettings}, and the system instruction and tools (filled in by the adapter
 * from the request). Other keys pass through to the provider unchanged.
 */
export interface LiveConnectConfig extends LiveSessionSettings {
  [key: string]: unknown;
}

/**
 * A live connection to a model (ADK's `BaseLlmConnection`): what is sent goes to the model as it comes, and
 * {@link BaseLlmConnection.receive} yields what the model sends back (text in pieces, then whole; audio; function
 * calls; transcriptions; `turnComplete`; `interrupted`) until the connection closes. A model offers one through
 * {@link Model.connect}; `Runner.runLive` drives it.
 */
export interface BaseLlmConnection {
  /** Sends the conversation so far, right after connecting; the model answers when the last content is the user's. */
  sendHistory(history: Content[]): Promise<void>;
  /** Sends a user's content, or function responses (then every part is one), and the model answers it. */
  sendContent(content: Content): Promise<void>;
  /** Sends a piece of audio or a video frame as it is captured. */
  sendRealtime(blob: Blob): Promise<void>;
  /** Marks where the user starts speaking, when the client detects speech itself. */
  sendActivityStart?(): Promise<void>;
  /** Marks where the user stops speaking. */
  sendActivityEnd?(): Promise<void>;
  /** What the model sends, as responses, until the connection closes. */
  receive(): AsyncGenerator<LlmResponse, void, void>;
  /** Closes the connection; `receive` then ends. */
  close(): Promise<void>;
}

/**
 * Ends a live connection's {@link BaseLlmConnection.receive} when the connection closed other than normally: the
 * socket dropped (close code 1006), the server failed (1011), restarts (1012), or refused what it was sent (1007,
 * 1008). A live run takes a dropped, failed or restarting connection up again with the session's resumption handle.
 */
export class LiveConnectionClosedError extends ToolsmithError {
  /** The WebSocket close code. */
  readonly closeCode: number;

  constructor(closeCode: number, message: string, options?: { cause?: unknown }) {
    super("LIVE_CONNECTION_FAILED", message, options);
    this.closeCode = closeCode;
  }
}
