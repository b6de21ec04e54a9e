/**
 * Talking to an agent through `/run_live`: the microphone recorded at 16 kHz and streamed as PCM blobs, the events
 * of the live run received, and the audio in them played as it comes (stopped when the model is interrupted).
 */
import type { ServerEvent } from "./api.js";
import { base64ToBytes, bytesToBase64, MICROPHONE_RATE, PcmChunker, pcm16ToFloat, pcmRateOf } from "./pcm-audio.js";

/** A tenth of a second of speech per message. */
const CHUNK_SAMPLES = MICROPHONE_RATE / 10;
/** How long {@link Talk.stop} waits for the server to end the run before closing the socket itself. */
const CLOSE_WAIT_MS = 3_000;
/** A camera frame a second, as ADK's dev UI sends them. */
const FRAME_INTERVAL_MS = 1_000;
/** The widest frame sent: enough for a model to see, small enough to send every second. */
const FRAME_MAX_WIDTH = 640;

/** How far a conversation has got, for the status line. */
export interface TalkProgress {
  /** Seconds of speech sent. */
  sentSeconds: number;
  /** Seconds of the agent's audio received (and played). */
  heardSeconds: number;
  /** Camera frames sent. */
  framesSent: number;
}

/** What the page hears from a conversation. */
export interface TalkListener {
  /** Each event of the live run, partial ones and those carrying audio included. */
  onEvent(event: ServerEvent): void;
  onProgress(progress: TalkProgress): void;
  /** The connection closed: its WebSocket close code and reason. Called once. */
  onEnd(code: number, reason: string): void;
}

/** A conversation in progress. */
export interface Talk {
  /** Sends a typed message into the conversation. */
  sendText(text: string): void;
  /**
   * Starts sending the camera: a JPEG frame a second (as ADK's dev UI sends it), at most 640 pixels wide; returns
   * the live preview to show. Rejects with a message for the user when the camera cannot be had.
   */
  startCamera(): Promise<HTMLVideoElement>;
  /** Stops sending the camera and releases it. */
  stopCamera(): void;
  /** Ends the conversation: the microphone is released and the server asked to end the run. */
  stop(): Promise<void>;
}

/** The audio worklet that hands the microphone's samples to the page (a copy: the engine reuses its buffers). */
const CAPTURE_WORKLET = `registerProcessor("toolsmith-capture", class extends AudioWorkletProcessor {
  process(inputs) { const channel = inputs[0] && inputs[0][0]; if (channel) this.port.postMessage(channel.slice(0)); return true; }
});`;

/**
 * Starts a conversation: asks for the microphone first (so a refusal starts no run), then opens `url`, a `/run_live`
 * WebSocket URL. Rejects with a message for the user when the microphone cannot be had or the socket not opened.
 */
export async function startTalk(url: string, listener: TalkListener): Promise<Talk> {
  const microphone = await openMicrophone();
  const playback = new AudioPlayer();
  let capture: AudioContext | undefined;
  try {
    capture = new AudioContext({ sampleRate: MICROPHONE_RATE });
    const module = URL.createObjectURL(new Blob([CAPTURE_WORKLET], { type: "text/javascript" }));
    await capture.audioWorklet.addModule(module);
    URL.revokeObjectURL(module);
    const socket = await openSocket(url);
    return new Conversation(socket, microphone, capture, playback, listener);
  } catch (error) {
    for (const track of microphone.getTracks()) track.stop();
    void capture?.close();
    void playback.close();
    throw error;
  }
}

async function openMicrophone(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) {
    throw new Error("This page cannot use a microphone: browsers allow it only on localhost or over HTTPS. Open the UI at http://localhost:<port> or behind HTTPS.");
  }
  try {
    return await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true } });
  } catch (error) {
    const name = (error as DOMException)?.name;
    if (name === "NotAllowedError" || name === "SecurityError") throw new Error("The microphone was not allowed. Allow it for this page in the browser's site settings, then press Talk again.");
    if (name === "NotFoundError" || name === "OverconstrainedError") throw new Error("No microphone was found. Connect one, then press Talk again.");
    throw new Error(`The microphone could not be opened (${name ?? String(error)}).`);
  }
}

function openSocket(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const failed = () => reject(new Error(`The live connection to ${new URL(url).pathname} could not be opened: is the server still running?`));
    socket.addEventListener("open", () => {
      socket.removeEventListener("error", failed);
      resolve(socket);
    });
    socket.addEventListener("error", failed);
  });
}

class Conversation implements Talk {
  readonly #socket: WebSocket;
  readonly #microphone: MediaStream;
  readonly #capture: AudioContext;
  readonly #playback: AudioPlayer;
  readonly #listener: TalkListener;
  readonly #chunker = new PcmChunker(CHUNK_SAMPLES);
  readonly #progress: TalkProgress = { sentSeconds: 0, heardSeconds: 0, framesSent: 0 };
  #camera: { stream: MediaStream; preview: HTMLVideoElement; timer: number } | undefined;
  #ended = false;
  readonly #closed: Promise<void>;

  constructor(socket: WebSocket, microphone: MediaStream, capture: AudioContext, playback: AudioPlayer, listener: TalkListener) {
    this.#socket = socket;
    this.#microphone = microphone;
    this.#capture = capture;
    this.#playback = playback;
    this.#listener = listener;
    socket.addEventListener("message", (message) => this.#receive(message.data));
    this.#closed = new Promise((resolve) => socket.addEventListener("close", (close) => resolve(this.#end(close.code, close.reason))));
    const worklet = new AudioWorkletNode(capture, "toolsmith-capture");
    worklet.port.onmessage = (message: MessageEvent<Float32Array>) => {
      for (const chunk of this.#chunker.push(message.data)) this.#sendAudio(chunk);
    };
    capture.createMediaStreamSource(microphone).connect(worklet);
    // Connected to the output (it writes silence) so the engine keeps pulling the microphone through it.
    worklet.connect(capture.destination);
  }

  sendText(text: string): void {
    this.#send({ content: { role: "user", parts: [{ text }] } });
  }

  async startCamera(): Promise<HTMLVideoElement> {
    if (this.#camera) return this.#camera.preview;
    if (!navigator.mediaDevices?.getUserMedia) throw new Error("This page cannot use a camera: browsers allow it only on localhost or over HTTPS.");
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { width: { ideal: FRAME_MAX_WIDTH } } });
    } catch (error) {
      const name = (error as DOMException)?.name;
      if (name === "NotAllowedError" || name === "SecurityError") throw new Error("The camera was not allowed. Allow it for this page in the browser's site settings, then press Camera again.");
      if (name === "NotFoundError" || name === "OverconstrainedError") throw new Error("No camera was found. Connect one, then press Camera again.");
      throw new Error(`The camera could not be opened (${name ?? String(error)}).`);
    }
    if (this.#ended) {
      for (const track of stream.getTracks()) track.stop();
      throw new Error("The conversation ended before the camera opened.");
    }
    const preview = document.createElement("video");
    preview.muted = true;
    preview.playsInline = true;
    preview.srcObject = stream;
    await preview.play();
    const canvas = document.createElement("canvas");
    const timer = window.setInterval(() => void this.#sendFrame(preview, canvas), FRAME_INTERVAL_MS);
    this.#camera = { stream, preview, timer };
    return preview;
  }

  stopCamera(): void {
    const camera = this.#camera;
    if (!camera) return;
    this.#camera = undefined;
    window.clearInterval(camera.timer);
    for (const track of camera.stream.getTracks()) track.stop();
    camera.preview.srcObject = null;
  }

  async #sendFrame(preview: HTMLVideoElement, canvas: HTMLCanvasElement): Promise<void> {
    if (preview.videoWidth === 0) return; // no picture yet
    const scale = Math.min(1, FRAME_MAX_WIDTH / preview.videoWidth);
    canvas.width = Math.round(preview.videoWidth * scale);
    canvas.height = Math.round(preview.videoHeight * scale);
    canvas.getContext("2d")!.drawImage(preview, 0, 0, canvas.width, canvas.height);
    const jpeg = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.7));
    if (!jpeg || !this.#camera) return;
    if (this.#send({ blob: { mime_type: "image/jpeg", data: bytesToBase64(new Uint8Array(await jpeg.arrayBuffer())) } })) {
      this.#progress.framesSent++;
      this.#listener.onProgress({ ...this.#progress });
    }
  }

  async stop(): Promise<void> {
    if (!this.#ended) {
      this.#releaseMicrophone();
      const rest = this.#chunker.flush();
      if (rest.length > 0) this.#sendAudio(rest);
      this.#send({ close: true });
      const timer = setTimeout(() => this.#socket.close(1000, "The user stopped talking."), CLOSE_WAIT_MS);
      await this.#closed;
      clearTimeout(timer);
    }
    await this.#closed;
  }

  #sendAudio(pcm: Uint8Array): void {
    if (this.#send({ blob: { mime_type: `audio/pcm;rate=${MICROPHONE_RATE}`, data: bytesToBase64(pcm) } })) {
      this.#progress.sentSeconds += pcm.length / 2 / MICROPHONE_RATE;
      this.#listener.onProgress({ ...this.#progress });
    }
  }

  #send(message: unknown): boolean {
    if (this.#socket.readyState !== WebSocket.OPEN) return false;
    this.#socket.send(JSON.stringify(message));
    return true;
  }

  #receive(data: unknown): void {
    if (typeof data !== "string") return;
    const event = JSON.parse(data) as ServerEvent;
    if (event.interrupted) this.#playback.stop();
    for (const part of event.content?.parts ?? []) {
      const rate = part.inlineData ? pcmRateOf(part.inlineData.mimeType) : undefined;
      if (rate === undefined || !part.inlineData?.data) continue;
      this.#progress.heardSeconds += this.#playback.play(pcm16ToFloat(base64ToBytes(part.inlineData.data)), rate);
      this.#listener.onProgress({ ...this.#progress });
    }
    this.#listener.onEvent(event);
  }

  #releaseMicrophone(): void {
    this.stopCamera();
    for (const track of this.#microphone.getTracks()) track.stop();
    if (this.#capture.state !== "closed") void this.#capture.close();
  }

  #end(code: number, reason: string): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#releaseMicrophone();
    void this.#playback.close();
    this.#listener.onEnd(code, reason);
  }
}

/** Plays PCM pieces one after another, without gaps or overlaps, and stops them all when the model is interrupted. */
class AudioPlayer {
  readonly #context = new AudioContext();
  readonly #playing = new Set<AudioBufferSourceNode>();
  #nextStart = 0;

  /** Queues the samples after what is playing; returns their length in seconds. */
  play(samples: Float32Array<ArrayBuffer>, rate: number): number {
    if (samples.length === 0 || this.#context.state === "closed") return 0;
    const buffer = this.#context.createBuffer(1, samples.length, rate);
    buffer.copyToChannel(samples, 0);
    const source = this.#context.createBufferSource();
    source.buffer = buffer;
    source.connect(this.#context.destination);
    source.onended = () => this.#playing.delete(source);
    this.#playing.add(source);
    const start = Math.max(this.#nextStart, this.#context.currentTime);
    source.start(start);
    this.#nextStart = start + buffer.duration;
    return buffer.duration;
  }

  /** Stops what is playing and queued. */
  stop(): void {
    for (const source of this.#playing) {
      source.onended = null;
      source.stop();
    }
    this.#playing.clear();
    this.#nextStart = 0;
  }

  async close(): Promise<void> {
    this.stop();
    if (this.#context.state !== "closed") await this.#context.close();
  }
}
