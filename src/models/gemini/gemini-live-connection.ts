import type { Content as GenaiContent, FunctionResponse as GenaiFunctionResponse, GoogleGenAI, LiveConnectConfig as GenaiLiveConnectConfig, LiveServerMessage, Session } from "@google/genai";
import type { Blob, Content } from "../../content/content.js";
import { ConfigurationError, ToolsmithError } from "../../errors/toolsmith-error.js";
import { logger } from "../../logging/logger.js";
import { AsyncQueue } from "../../platform/async-queue.js";
import { LiveConnectionClosedError, type BaseLlmConnection } from "../live-connection.js";
import type { LlmRequest } from "../llm-request.js";
import type { LlmResponse } from "../llm-response.js";
import { isGemini3xFlashLive } from "../model-name.js";
import { LiveResponseAggregator } from "./live-response-aggregator.js";
import { withoutClientIds } from "./without-client-ids.js";

/** What {@link openGeminiLiveConnection} needs. */
export interface GeminiLiveConnectionOptions {
  /** The SDK's client whose `live.connect` opens the session. */
  client: GoogleGenAI;
  /** The model to connect to (`gemini-live-2.5-flash`, …), as the request or the model names it. */
  model: string;
  /** The session's setup, as `@google/genai` takes it. */
  config: GenaiLiveConnectConfig;
  /** The request the connection is for; its declarations map the arguments of Gemini's function calls back. */
  request: LlmRequest;
  /** How long to wait for Gemini to accept the setup; past it the connection fails and its socket is closed. */
  setupTimeoutMs: number;
}

/** WebSocket close codes that mean the connection ended as it should (a normal close, or none given). */
const NORMAL_CLOSE_CODES = new Set([1000, 1005]);

/**
 * Opens a Gemini live session through `@google/genai` and wraps it as a {@link BaseLlmConnection}. The SDK's
 * callbacks feed a queue that {@link GeminiLiveConnection.receive} reads; a connection that fails or closes before
 * Gemini has answered its setup rejects with `LIVE_CONNECTION_FAILED` (the SDK alone would wait forever).
 */
export async function openGeminiLiveConnection(options: GeminiLiveConnectionOptions): Promise<GeminiLiveConnection> {
  const messages = new AsyncQueue<LiveServerMessage>();
  let connection: GeminiLiveConnection | undefined;
  let refuseSetup: (error: Error) => void = () => {};
  const setupFailed = new Promise<never>((_resolve, reject) => {
    refuseSetup = reject;
  });
  const session = options.client.live.connect({
    model: options.model,
    config: options.config,
    callbacks: {
      onmessage: (message) => messages.push(message),
      onerror: (event) => {
        const reason = errorEventMessage(event);
        if (!connection) {
          refuseSetup(new Error(reason, { cause: event }));
          return;
        }
        messages.fail(new ToolsmithError("LIVE_CONNECTION_FAILED", `The live connection to Gemini model "${options.model}" failed: ${reason}. The run may reconnect with the session's resumption handle, or start again.`, { cause: event }));
      },
      onclose: (event) => {
        const { code, reason } = closeEventDetails(event);
        if (!connection) {
          refuseSetup(new Error(`Gemini closed the connection before the session was set up (code ${code}${reason ? `: ${reason}` : ""})`));
          return;
        }
        // A queue already ended was closed by the program or failed with an error of its own. Otherwise a close
        // that is not normal ends receive() with an error (ADK's ends it as if the conversation were over), so
        // the run can take the session up again, or says why it ended.
        if (!messages.isClosed && !NORMAL_CLOSE_CODES.has(code)) {
          messages.fail(new LiveConnectionClosedError(code, `The live connection to Gemini model "${options.model}" closed (code ${code}${reason ? `: ${reason}` : code === 1006 ? ": the connection was lost" : ""}). The run takes the session up again when it has a resumption handle; otherwise run again.`));
        }
        messages.close();
      },
    },
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const setupTimedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`Gemini did not accept the live session's setup within ${options.setupTimeoutMs} ms`)), options.setupTimeoutMs);
  });
  try {
    connection = new GeminiLiveConnection({ session: await Promise.race([session, setupFailed, setupTimedOut]), model: options.model, messages, request: options.request });
    return connection;
  } catch (error) {
    // A session that opens after all is closed at once: no one reads it.
    session.then((late) => late.close(), () => undefined);
    messages.close();
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolsmithError(
      "LIVE_CONNECTION_FAILED",
      `Could not open a live connection to Gemini model "${options.model}": ${reason}. Check the base URL and the API key (or Vertex AI's project and location), and that the model is one of Gemini's Live API models.`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}

/**
 * ADK's `GeminiLlmConnection`: a live Gemini session as a {@link BaseLlmConnection}. History and text go as
 * `clientContent`, function responses as `toolResponse`, audio and video as `realtimeInput`; what Gemini sends is
 * read with {@link receive}, through a {@link LiveResponseAggregator}. Gemini 3.x Flash Live models take a single
 * text as realtime input, and native-audio and 3.x models take audio and video in their own realtime fields, as in ADK.
 */
export class GeminiLiveConnection implements BaseLlmConnection {
  readonly #session: Session;
  readonly #model: string;
  readonly #messages: AsyncQueue<LiveServerMessage>;
  readonly #request: LlmRequest;

  constructor(options: { session: Session; model: string; messages: AsyncQueue<LiveServerMessage>; request: LlmRequest }) {
    this.#session = options.session;
    this.#model = options.model;
    this.#messages = options.messages;
    this.#request = options.request;
  }

  /**
   * Sends the contents whose first part is text (Gemini's live history holds no calls or media), as one
   * `clientContent`; the model answers when the last is the user's (on Gemini 3.x Flash Live, always).
   */
  async sendHistory(history: Content[]): Promise<void> {
    const turns = history.filter((content) => content.parts?.[0]?.text).map(withoutClientIds);
    if (turns.length === 0) {
      logger.debug("No history with text to send to the live connection.");
      return;
    }
    const turnComplete = isGemini3xFlashLive(this.#model) || turns[turns.length - 1]!.role === "user";
    this.#session.sendClientContent({ turns: turns as GenaiContent[], turnComplete });
  }

  /**
   * Sends function responses as one `toolResponse` (they keep the ids Gemini gave its calls), or any other content
   * as a complete user turn; on Gemini 3.x Flash Live a content of one text goes as realtime text.
   */
  async sendContent(content: Content): Promise<void> {
    const parts = content.parts ?? [];
    if (parts.length === 0) throw new ConfigurationError("INVALID_ARGUMENTS", "sendContent() needs a content with at least one part: text, or function responses to the model's calls.");
    if (parts[0]!.functionResponse) {
      const functionResponses = withoutClientIds(content).parts!.flatMap((part) => (part.functionResponse ? [part.functionResponse as GenaiFunctionResponse] : []));
      this.#session.sendToolResponse({ functionResponses });
      return;
    }
    if (isGemini3xFlashLive(this.#model) && parts.length === 1 && parts[0]!.text) {
      this.#session.sendRealtimeInput({ text: parts[0]!.text });
      return;
    }
    this.#session.sendClientContent({ turns: [withoutClientIds(content) as GenaiContent], turnComplete: true });
  }

  /**
   * Sends a chunk of audio or a video frame. Native-audio and Gemini 3.x Flash Live models take `audio/*` as audio
   * and `image/*` as video (another type is not sent, and a warning says so); other models take it as media.
   */
  async sendRealtime(blob: Blob): Promise<void> {
    const media = { mimeType: blob.mimeType, data: blob.data };
    if (!isGemini3xFlashLive(this.#model) && !this.#model.includes("native-audio")) {
      this.#session.sendRealtimeInput({ media });
    } else if (blob.mimeType?.startsWith("audio/")) {
      this.#session.sendRealtimeInput({ audio: media });
    } else if (blob.mimeType?.startsWith("image/")) {
      this.#session.sendRealtimeInput({ video: media });
    } else {
      logger.warn(`Not sent to the live connection: "${this.#model}" takes audio/* and image/* as realtime input, not ${blob.mimeType ? `"${blob.mimeType}"` : "a blob without a MIME type"}.`);
    }
  }

  /** Marks where the user starts speaking (when the client detects speech, with automatic activity detection off). */
  async sendActivityStart(): Promise<void> {
    this.#session.sendRealtimeInput({ activityStart: {} });
  }

  /** Marks where the user stops speaking. */
  async sendActivityEnd(): Promise<void> {
    this.#session.sendRealtimeInput({ activityEnd: {} });
  }

  /**
   * What Gemini sends, as responses, until the connection closes; a failed connection, or one that closes other
   * than normally, ends it with a `LIVE_CONNECTION_FAILED` error (a {@link LiveConnectionClosedError} for a close).
   * Function calls still gathered when it closes normally come last; after a failure they are dropped, as their
   * answers could not be sent.
   */
  async *receive(): AsyncGenerator<LlmResponse, void, void> {
    const aggregator = new LiveResponseAggregator({ modelVersion: this.#model, request: this.#request });
    for await (const message of this.#messages) yield* aggregator.processMessage(message);
    yield* aggregator.close();
  }

  /** Closes the connection; {@link receive} ends after what had already arrived. */
  async close(): Promise<void> {
    this.#session.close();
    this.#messages.close();
  }
}

/** The message of the SDK's error event (the `ws` package's `ErrorEvent`, or a DOM one). */
function errorEventMessage(event: unknown): string {
  const { message, error } = (event ?? {}) as { message?: unknown; error?: unknown };
  if (typeof message === "string" && message) return message;
  if (error instanceof Error) return error.message;
  return "the WebSocket reported an error";
}

function closeEventDetails(event: unknown): { code: number; reason: string } {
  const { code, reason } = (event ?? {}) as { code?: unknown; reason?: unknown };
  return { code: typeof code === "number" ? code : 1005, reason: typeof reason === "string" ? reason : "" };
}
