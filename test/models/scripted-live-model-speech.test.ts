/** `ScriptedLiveModel`'s stand-in for voice activity detection (`speechTurnBytes`), directly and through a live run. */
import { describe, expect, it } from "vitest";
import { InMemoryRunner, LiveRequestQueue, LlmAgent, ToolsmithError, type Event } from "../../src/index.js";
import type { LlmRequest } from "../../src/models/llm-request.js";
import { ScriptedLiveModel, type LiveTurn } from "../../src/testing/index.js";

const pcm = (bytes: number) => ({ mimeType: "audio/pcm;rate=16000", data: Buffer.alloc(bytes, 7).toString("base64") });
const request = { model: "scripted-live-model", contents: [], systemInstruction: "", functionDeclarations: [], config: {} } as unknown as LlmRequest;

/** Reads responses from a connection until `count` have come. */
async function take(receive: AsyncGenerator<unknown>, count: number): Promise<unknown[]> {
  const taken: unknown[] = [];
  for await (const response of receive) {
    taken.push(response);
    if (taken.length === count) break;
  }
  return taken;
}

describe("ScriptedLiveModel with speechTurnBytes", () => {
  it("takes a turn once the audio sent since the last one reaches the size, given that audio", async () => {
    const turns: LiveTurn[] = [];
    const model = new ScriptedLiveModel(
      [
        (turn) => (turns.push(turn), [{ turnComplete: true }]),
        (turn) => (turns.push(turn), [{ turnComplete: true }]),
      ],
      { speechTurnBytes: 1000 },
    );
    const connection = await model.connect(request);
    // 3 × 400 bytes reach 1,000 at the third; 999 then 1 reach it again (base64 of 1 byte is padded: "Bw==").
    for (const bytes of [400, 400, 400, 999]) await connection.sendRealtime(pcm(bytes));
    expect(model.remainingSteps).toBe(1);
    await connection.sendRealtime(pcm(1));
    await take(connection.receive(), 2);
    expect(turns.map((turn) => ("speech" in turn ? turn.speech.map((blob) => Buffer.from(blob.data!, "base64").length) : turn))).toEqual([[400, 400, 400], [999, 1]]);
    model.assertComplete();
  });

  it("counts audio only: video frames and images start no turn", async () => {
    const model = new ScriptedLiveModel([[{ turnComplete: true }]], { speechTurnBytes: 10 });
    const connection = await model.connect(request);
    await connection.sendRealtime({ mimeType: "image/jpeg", data: Buffer.alloc(5000).toString("base64") });
    expect(model.remainingSteps).toBe(1);
    await connection.sendRealtime({ mimeType: "audio/pcm", data: Buffer.alloc(10).toString("base64") });
    await take(connection.receive(), 1);
    model.assertComplete();
    expect(model.connections[0]!.sent.map((sent) => ("blob" in sent ? sent.blob.mimeType : Object.keys(sent)[0]))).toEqual(["image/jpeg", "audio/pcm"]);
  });

  it("starts no turn on audio without the option, as before", async () => {
    const model = new ScriptedLiveModel([[{ turnComplete: true }]]);
    const connection = await model.connect(request);
    await connection.sendRealtime(pcm(100_000));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(model.remainingSteps).toBe(1);
  });

  it.each([0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("refuses speechTurnBytes of %s with a typed error that says what to give", (bytes) => {
    let thrown: unknown;
    try {
      new ScriptedLiveModel([], { speechTurnBytes: bytes });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolsmithError);
    expect((thrown as ToolsmithError).code).toBe("INVALID_SCRIPT");
    expect((thrown as Error).message).toBe(`ScriptedLiveModel's speechTurnBytes must be a positive whole number of bytes, not ${String(bytes)}.`);
  });

  it("answers a microphone's stream in a live run: the transcription and answer are stored, the audio is not", async () => {
    const model = new ScriptedLiveModel(
      [(turn) => [{ inputTranscription: { text: `${"speech" in turn ? turn.speech.length : 0} chunks`, finished: true } }, { content: { role: "model", parts: [{ text: "Heard you." }] } }, { turnComplete: true }]],
      { speechTurnBytes: 3200 },
    );
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "voice", model }), appName: "app" });
    const queue = new LiveRequestQueue();
    // A tenth of a second of 16 kHz speech per message, as the web UI sends it.
    queue.sendRealtime(pcm(3200));
    const events: Event[] = [];
    for await (const event of runner.runLive({ userId: "u", sessionId: "s", liveRequestQueue: queue })) {
      events.push(event);
      if (event.turnComplete) queue.close();
    }
    expect(events.map((event) => event.inputTranscription?.text ?? event.content?.parts?.[0]?.text ?? (event.turnComplete ? "turn complete" : "?"))).toEqual(["1 chunks", "Heard you.", "turn complete"]);
    const stored = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: "s" }))!.events;
    expect(stored.map((event) => event.id)).toEqual(events.map((event) => event.id));
    expect(JSON.stringify(stored)).not.toContain("inlineData");
    model.assertComplete();
  });
});
