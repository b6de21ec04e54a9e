/**
 * The audio format of live runs: 16-bit signed little-endian PCM, one channel, as base64 in a blob. Gemini's Live
 * API takes speech at 16 kHz (`audio/pcm;rate=16000`) and answers at 24 kHz (`audio/pcm;rate=24000`). Plain
 * functions, so they are tested without a browser.
 */

/** The rate the microphone is recorded at and sent with. */
export const MICROPHONE_RATE = 16_000;
/** The rate an answer is played at when its MIME type names none (the Live API's output rate). */
export const DEFAULT_ANSWER_RATE = 24_000;

/** Samples in [-1, 1] (Web Audio's) as 16-bit little-endian PCM; out-of-range samples are clipped. */
export function floatToPcm16(samples: Float32Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let index = 0; index < samples.length; index++) {
    const sample = Math.max(-1, Math.min(1, samples[index]!));
    // Negative samples reach -32768, positive ones 32767: the whole 16-bit range, with 0 kept as 0.
    view.setInt16(index * 2, sample < 0 ? Math.round(sample * 0x8000) : Math.round(sample * 0x7fff), true);
  }
  return bytes;
}

/** 16-bit little-endian PCM as samples in [-1, 1]; a trailing odd byte (half a sample) is left out. */
export function pcm16ToFloat(bytes: Uint8Array): Float32Array<ArrayBuffer> {
  const samples = new Float32Array(Math.floor(bytes.length / 2));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let index = 0; index < samples.length; index++) samples[index] = view.getInt16(index * 2, true) / 0x8000;
  return samples;
}

/** Bytes as standard base64 (what the server reads in a blob's `data`). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  // In slices: String.fromCharCode with a whole second of audio as arguments would overflow the stack.
  for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}

/** Base64, standard or URL-safe (the server may send either), padded or not, as bytes. */
export function base64ToBytes(base64: string): Uint8Array {
  const standard = base64.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(standard + "=".repeat((4 - (standard.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * The sample rate of raw PCM audio from its MIME type (`audio/pcm;rate=24000`), {@link DEFAULT_ANSWER_RATE} when
 * it names none; `undefined` for any other kind of audio (a browser cannot play it as PCM).
 */
export function pcmRateOf(mimeType: string): number | undefined {
  const [kind, ...parameters] = mimeType.split(";").map((piece) => piece.trim().toLowerCase());
  if (kind !== "audio/pcm" && kind !== "audio/l16") return undefined;
  for (const parameter of parameters) {
    const [name, value] = parameter.split("=");
    if (name === "rate" && value && /^\d+$/.test(value)) return Number(value);
  }
  return DEFAULT_ANSWER_RATE;
}

/**
 * Gathers the microphone's samples into chunks of a fixed length, so the socket carries a message per chunk (a tenth
 * of a second) rather than one per audio callback (128 samples, 125 a second).
 */
export class PcmChunker {
  readonly #chunkSamples: number;
  #pending: Float32Array[] = [];
  #pendingSamples = 0;

  constructor(chunkSamples: number) {
    this.#chunkSamples = chunkSamples;
  }

  /** Adds samples; returns the whole chunks now complete, as PCM bytes. */
  push(samples: Float32Array): Uint8Array[] {
    this.#pending.push(samples);
    this.#pendingSamples += samples.length;
    const chunks: Uint8Array[] = [];
    while (this.#pendingSamples >= this.#chunkSamples) chunks.push(floatToPcm16(this.#take(this.#chunkSamples)));
    return chunks;
  }

  /** What is left, as PCM bytes (empty when nothing is). */
  flush(): Uint8Array {
    return floatToPcm16(this.#take(this.#pendingSamples));
  }

  #take(count: number): Float32Array {
    const taken = new Float32Array(count);
    let filled = 0;
    while (filled < count) {
      const head = this.#pending[0]!;
      const used = Math.min(head.length, count - filled);
      taken.set(head.subarray(0, used), filled);
      filled += used;
      if (used === head.length) this.#pending.shift();
      else this.#pending[0] = head.subarray(used);
    }
    this.#pendingSamples -= count;
    return taken;
  }
}
