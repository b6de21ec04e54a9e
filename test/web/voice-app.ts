import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeAgentApp } from "./agent-app.js";

/**
 * A voice agent: a scripted live model that takes a quarter of a second of speech as an utterance (standing in for
 * the Live API's voice activity detection), says in its transcription of the first what audio it got (so the test
 * sees what the browser sent), calls a tool, then answers aloud with the tool's report: a transcription streamed in
 * two pieces and 0.3 s of 24 kHz audio.
 */
const voiceAgent = `
import { FunctionTool, LlmAgent } from "toolsmith";
import { ScriptedLiveModel } from "toolsmith/testing";

const getWeather = new FunctionTool({
  name: "get_weather",
  description: "The weather in a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  execute: ({ city }) => ({ status: "success", report: "sunny in " + city }),
});

// A streaming tool that watches the camera through its input stream: it reports the size of the first two frames.
function jpegSize(bytes) {
  for (let offset = 2; offset + 9 < bytes.length; offset += 2 + bytes.readUInt16BE(offset + 2)) {
    if (bytes[offset] !== 0xff) return "?";
    const marker = bytes[offset + 1];
    if (marker >= 0xc0 && marker <= 0xc3) return bytes.readUInt16BE(offset + 7) + "x" + bytes.readUInt16BE(offset + 5);
  }
  return "?";
}
const watchCamera = new FunctionTool({
  name: "watch_camera",
  description: "Watches the user's camera and reports what it sees.",
  execute: async function* (_args, context) {
    let frames = 0;
    for await (const request of context.inputStream) {
      if (request.close) return;
      if (request.blob?.mimeType !== "image/jpeg") continue;
      yield "saw a " + jpegSize(Buffer.from(request.blob.data, "base64")) + " JPEG frame";
      if (++frames === 2) return;
    }
  },
});

function describeSpeech(blobs) {
  const bytes = Buffer.concat(blobs.map((blob) => Buffer.from(blob.data, "base64")));
  let peak = 0;
  for (let offset = 0; offset + 1 < bytes.length; offset += 2) peak = Math.max(peak, Math.abs(bytes.readInt16LE(offset)));
  return "heard " + bytes.length + " bytes of " + [...new Set(blobs.map((blob) => blob.mimeType))].join(", ") + " in " + blobs.length + " messages, peak " + peak;
}

// 0.3 s of a 440 Hz tone at 24 kHz, as the Live API sends speech.
const tone = Buffer.alloc(24000 * 0.3 * 2);
for (let index = 0; index < tone.length / 2; index++) tone.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * index) / 24000)), index * 2);

// The microphone streams for as long as the user talks, so every quarter of a second is a turn: the first utterance
// is answered, later ones are not; a function response and a typed message are answered by what they are.
let answeredSpeech = false;
function answer(turn) {
  if ("speech" in turn) {
    if (answeredSpeech) return [];
    answeredSpeech = true;
    return [
      { inputTranscription: { text: describeSpeech(turn.speech), finished: true } },
      { content: { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }] } },
    ];
  }
  const part = "content" in turn ? turn.content.parts[0] : undefined;
  if (part?.text === "watch my camera") return [{ content: { role: "model", parts: [{ functionCall: { name: "watch_camera", args: {} } }] } }];
  if (part?.functionResponse?.name === "get_weather") {
    return [
      { outputTranscription: { text: "It is sunny ", finished: false }, partial: true },
      { outputTranscription: { text: "in Paris.", finished: false }, partial: true },
      { outputTranscription: { text: "It is " + part.functionResponse.response.report + ".", finished: true } },
      { content: { role: "model", parts: [{ inlineData: { mimeType: "audio/pcm;rate=24000", data: tone.toString("base64") } }] } },
      { turnComplete: true },
    ];
  }
  // A streaming tool's pending answer needs no reply; its results and typed messages get one.
  if (part?.functionResponse) return [];
  return [{ content: { role: "model", parts: [{ text: "You wrote: " + (part?.text ?? "?") }] } }, { turnComplete: true }];
}

const model = new ScriptedLiveModel(Array.from({ length: 1000 }, () => answer), { speechTurnBytes: 8000 });

export const rootAgent = new LlmAgent({ name: "voice", model, instruction: "Answer aloud.", tools: [getWeather, watchCamera] });
`;

/** An app whose model cannot hold a live conversation (a scripted model for runAsync). */
const textOnlyAgent = `
import { LlmAgent } from "toolsmith";
import { ScriptedModel } from "toolsmith/testing";
export const rootAgent = new LlmAgent({ name: "typist", model: new ScriptedModel([]) });
`;

/**
 * An agents folder with `voice` and `typist`, and `speech.wav` beside it: what the fake microphone says (give it to
 * Chromium with `--use-file-for-fake-audio-capture`), a 440 Hz tone at half of full scale, over and over.
 */
export function writeVoiceApps(): { agents: string; speech: string } {
  const agents = writeAgentApp("voice", voiceAgent);
  mkdirSync(join(agents, "typist"));
  writeFileSync(join(agents, "typist", "agent.ts"), textOnlyAgent);
  const speech = join(dirname(agents), "speech.wav");
  writeFileSync(speech, toneWav(48_000, 1, 440, 0.5));
  return { agents, speech };
}

/** A WAV file (16-bit PCM, one channel) of a sine tone. */
function toneWav(rate: number, seconds: number, frequency: number, amplitude: number): Buffer {
  const samples = rate * seconds;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write("RIFF", 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write("WAVEfmt ", 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // one channel
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write("data", 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let index = 0; index < samples; index++) wav.writeInt16LE(Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * frequency * index) / rate)), 44 + index * 2);
  return wav;
}

