import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64ToBytes, bytesToBase64, DEFAULT_ANSWER_RATE, floatToPcm16, PcmChunker, pcm16ToFloat, pcmRateOf } from "../../ui/pcm-audio.js";

/** The web UI's audio conversions for talking to an agent, as plain functions (the browser test runs them for real). */
describe("the web UI's PCM audio", () => {
  it("writes samples as 16-bit little-endian PCM over the whole range, clipping what is beyond it", () => {
    const bytes = floatToPcm16(Float32Array.from([0, 1, -1, 0.5, -0.5, 2, -3, Number.NaN]));
    const view = new DataView(bytes.buffer);
    expect(Array.from({ length: 8 }, (_, index) => view.getInt16(index * 2, true))).toEqual([0, 32767, -32768, 16384, -16384, 32767, -32768, 0]);
  });

  // Positive samples are written over 32,767 steps and all read back over 32,768: rounding plus that difference.
  it("reads PCM back to the samples it was written from, within a step and a half of 16 bits", () => {
    let checked = 0;
    fc.assert(
      fc.property(fc.float32Array({ min: -1, max: 1, noNaN: true }), (samples) => {
        const back = pcm16ToFloat(floatToPcm16(samples));
        expect(back.length).toBe(samples.length);
        for (let index = 0; index < samples.length; index++) expect(Math.abs(back[index]! - samples[index]!)).toBeLessThanOrEqual(1.5 / 32768);
        checked += samples.length;
      }),
      { numRuns: 300 },
    );
    console.log(`PCM round trip: ${checked} samples within 1.5/32768`);
  });

  it("leaves out a trailing half sample", () => {
    expect(Array.from(pcm16ToFloat(Uint8Array.from([0x00, 0x40, 0x12])))).toEqual([0.5]);
  });

  it("reads PCM from a view into a larger buffer at its own offset", () => {
    const buffer = Uint8Array.from([0xff, 0xff, 0x00, 0x40]);
    expect(Array.from(pcm16ToFloat(buffer.subarray(2)))).toEqual([0.5]);
  });

  it("turns bytes into base64 and back, standard or URL-safe, padded or not, a second of audio included", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const base64 = bytesToBase64(bytes);
        expect(base64).toBe(Buffer.from(bytes).toString("base64"));
        expect(base64ToBytes(base64)).toEqual(bytes);
        expect(base64ToBytes(Buffer.from(bytes).toString("base64url"))).toEqual(bytes);
      }),
      { numRuns: 500 },
    );
    const second = new Uint8Array(32_000).map((_, index) => index % 251);
    expect(Buffer.from(base64ToBytes(bytesToBase64(second)))).toEqual(Buffer.from(second));
  });

  it("reads the sample rate of PCM from its MIME type, the Live API's 24 kHz when none is named, and plays no other audio", () => {
    expect(pcmRateOf("audio/pcm;rate=16000")).toBe(16_000);
    expect(pcmRateOf("Audio/PCM; Rate=44100")).toBe(44_100);
    expect(pcmRateOf("audio/pcm")).toBe(DEFAULT_ANSWER_RATE);
    expect(pcmRateOf("audio/L16;rate=8000")).toBe(8_000);
    expect(pcmRateOf("audio/pcm;rate=fast")).toBe(DEFAULT_ANSWER_RATE);
    expect(pcmRateOf("audio/mpeg")).toBeUndefined();
    expect(pcmRateOf("image/png")).toBeUndefined();
  });

  it("gathers the microphone's callbacks into chunks of a fixed length, in order, keeping the rest for the end", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 30 }), fc.integer({ min: 1, max: 500 }), (callbackLengths, chunkSamples) => {
        const chunker = new PcmChunker(chunkSamples);
        let next = 0;
        const chunks: Uint8Array[] = [];
        for (const length of callbackLengths) {
          // Each sample holds its own position, so order and completeness can be read back.
          const samples = Float32Array.from({ length }, () => ((next++ % 1000) - 500) / 1000);
          chunks.push(...chunker.push(samples));
        }
        const rest = chunker.flush();
        for (const chunk of chunks) expect(chunk.length).toBe(chunkSamples * 2);
        expect(rest.length).toBeLessThan(chunkSamples * 2);
        const all = pcm16ToFloat(Uint8Array.from([...chunks.flatMap((chunk) => [...chunk]), ...rest]));
        expect(all.length).toBe(next);
        const misplaced = all.filter((sample, index) => Math.round(sample * 1000) !== (index % 1000) - 500).length;
        expect(misplaced).toBe(0);
        expect(chunker.flush().length).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});
