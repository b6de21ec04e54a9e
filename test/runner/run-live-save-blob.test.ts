/**
 * `runConfig.saveLiveBlob` (ADK Python's `save_live_blob`): a live run keeps the conversation's audio as artifacts
 * of the session, each with a stored event whose `fileData` names it, saved when a turn completes, when the user
 * interrupts the model, and when the run ends.
 */
import { describe, expect, it } from "vitest";
import { InMemoryArtifactService, InMemoryRunner, LiveRequestQueue, LlmAgent, Runner, InMemorySessionService, type Event } from "../../src/index.js";
import { createInvocationContext } from "../../src/agents/invocation-context.js";
import { resolveRunConfig } from "../../src/agents/run-config.js";
import type { LlmResponse } from "../../src/models/llm-response.js";
import { ScriptedLiveModel, type ScriptedLiveStep } from "../../src/testing/index.js";

const pcm = (bytes: number, fill: number, rate = 16000) => ({ mimeType: `audio/pcm;rate=${rate}`, data: Buffer.alloc(bytes, fill).toString("base64") });
const spoken = (bytes: number, fill: number): LlmResponse => ({ content: { role: "model", parts: [{ inlineData: pcm(bytes, fill, 24000) }] } });

/** Runs live with saveLiveBlob; `send` fills the queue, which closes at the first turnComplete (or when `closeWhen` says). */
async function runSaving(steps: ScriptedLiveStep[], send: (queue: LiveRequestQueue) => void, options: { closeWhen?: (event: Event) => boolean; runner?: Runner } = {}) {
  const model = new ScriptedLiveModel(steps, { speechTurnBytes: 6400 });
  const runner = options.runner ?? new InMemoryRunner({ agent: new LlmAgent({ name: "voice", model }), appName: "app" });
  const queue = new LiveRequestQueue();
  send(queue);
  const events: Event[] = [];
  const closeWhen = options.closeWhen ?? ((event: Event) => event.turnComplete === true);
  for await (const event of runner.runLive({ userId: "u", sessionId: "s", liveRequestQueue: queue, runConfig: { responseModalities: ["AUDIO"], saveLiveBlob: true } })) {
    events.push(event);
    if (!queue.isClosed && closeWhen(event)) queue.close();
  }
  const session = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: "s" }))!;
  return { events, stored: session.events, runner };
}

const fileUris = (events: readonly Event[]) => events.flatMap((event) => event.content?.parts?.flatMap((part) => (part.fileData ? [`${event.author}: ${part.fileData.fileUri!.replace(/_\d+\./, "_<ms>.")} (${part.fileData.mimeType})`] : [])) ?? []);

async function artifactBytes(runner: Runner, uri: string): Promise<Buffer> {
  const filename = uri.split("/_adk_live/")[1]!.split("#")[0]!;
  const part = await runner.artifactService!.loadArtifact({ appName: "app", userId: "u", sessionId: "s", filename });
  return Buffer.from(part!.inlineData!.data!, "base64");
}

/** The bytes of the version a `fileData` URI names. */
async function artifactBytesAt(runner: Runner, uri: string): Promise<Buffer> {
  const [filename, version] = uri.split("/_adk_live/")[1]!.split("#");
  const part = await runner.artifactService!.loadArtifact({ appName: "app", userId: "u", sessionId: "s", filename: filename!, version: Number(version) });
  return Buffer.from(part!.inlineData!.data!, "base64");
}

describe("runConfig.saveLiveBlob", () => {
  it("saves both sides' audio when the turn completes: one artifact each, named as ADK names them, and a stored event with its fileData", async () => {
    const { events, stored, runner } = await runSaving([[spoken(4800, 7), spoken(2400, 8), { outputTranscription: { text: "Hello.", finished: true } }, { turnComplete: true }]], (queue) => {
      queue.sendRealtime(pcm(3200, 1));
      queue.sendRealtime(pcm(3200, 2));
    });
    expect(fileUris(events)).toEqual([
      "user: artifact://app/u/s/_adk_live/adk_live_audio_storage_input_audio_<ms>.pcm#0 (audio/pcm;rate=16000)",
      "voice: artifact://app/u/s/_adk_live/adk_live_audio_storage_output_audio_<ms>.pcm#0 (audio/pcm;rate=24000)",
    ]);
    // Saved before the turn's end is told, which still comes (ADK's replaces it with them).
    const lastTwo = events.slice(-3).map((event) => (event.turnComplete ? "turnComplete" : event.content?.parts?.[0]?.fileData ? "saved" : "other"));
    expect(lastTwo).toEqual(["saved", "saved", "turnComplete"]);
    const [input, output] = events.filter((event) => event.content?.parts?.[0]?.fileData);
    expect(await artifactBytes(runner, input!.content!.parts![0]!.fileData!.fileUri!)).toEqual(Buffer.concat([Buffer.alloc(3200, 1), Buffer.alloc(3200, 2)]));
    expect(await artifactBytes(runner, output!.content!.parts![0]!.fileData!.fileUri!)).toEqual(Buffer.concat([Buffer.alloc(4800, 7), Buffer.alloc(2400, 8)]));
    expect(input!.content!.role).toBe("user");
    expect(output!.content!.role).toBe("model");
    expect(Object.keys(output!.actions.artifactDelta)).toEqual([output!.content!.parts![0]!.fileData!.fileUri!.split("/_adk_live/")[1]!.split("#")[0]]);
    // The session keeps the references, not the raw audio.
    expect(fileUris(stored)).toEqual(fileUris(events));
    expect(JSON.stringify(stored)).not.toContain("inlineData");
    // The input recording is dated by its first chunk: not later than the output's.
    expect(input!.timestamp).toBeLessThanOrEqual(output!.timestamp);
  });

  it("saves the model's audio when the user interrupts it, and the user's with the turn's end", async () => {
    const { events, runner } = await runSaving(
      [[spoken(2400, 7), { interrupted: true }], (turn) => ("speech" in turn ? [spoken(2400, 9), { turnComplete: true }] : [])],
      (queue) => {
        queue.sendRealtime(pcm(6400, 1)); // a turn: the model answers, and is interrupted
        queue.sendRealtime(pcm(6400, 2)); // another: answered to the end
      },
    );
    // Two recordings begun in the same millisecond share a name, and are its versions 0 and 1.
    const order = events.flatMap((event) => (event.interrupted ? ["interrupted"] : event.turnComplete ? ["turnComplete"] : fileUris([event]).map((uri) => uri.replace(/#\d+/, "#<version>"))));
    expect(order).toEqual([
      "voice: artifact://app/u/s/_adk_live/adk_live_audio_storage_output_audio_<ms>.pcm#<version> (audio/pcm;rate=24000)",
      "interrupted",
      "user: artifact://app/u/s/_adk_live/adk_live_audio_storage_input_audio_<ms>.pcm#<version> (audio/pcm;rate=16000)",
      "voice: artifact://app/u/s/_adk_live/adk_live_audio_storage_output_audio_<ms>.pcm#<version> (audio/pcm;rate=24000)",
      "turnComplete",
    ]);
    const outputs = events.flatMap((event) => (event.author === "voice" && event.content?.parts?.[0]?.fileData ? [event.content.parts[0].fileData.fileUri!] : []));
    expect(new Set(outputs).size).toBe(2);
    expect(await Promise.all(outputs.map(async (uri) => [...(await artifactBytesAt(runner, uri))].every((byte, _index, all) => byte === all[0])))).toEqual([true, true]);
  });

  it("saves what the last turn left when the run ends before the model completed it, and records no video", async () => {
    const { stored, runner } = await runSaving([], (queue) => {
      queue.sendRealtime({ mimeType: "image/jpeg", data: Buffer.from("frame").toString("base64") });
      queue.sendRealtime(pcm(1600, 3));
      queue.close();
    });
    expect(fileUris(stored)).toEqual(["user: artifact://app/u/s/_adk_live/adk_live_audio_storage_input_audio_<ms>.pcm#0 (audio/pcm;rate=16000)"]);
    expect(await artifactBytes(runner, stored[0]!.content!.parts![0]!.fileData!.fileUri!)).toEqual(Buffer.alloc(1600, 3));
  });

  it("keeps a recording whose save failed, says so in the log, and saves it again, first, with its side's next", async () => {
    const artifactService = new InMemoryArtifactService();
    const save = artifactService.saveArtifact.bind(artifactService);
    let failures = 1;
    artifactService.saveArtifact = async (request) => {
      if (failures-- > 0) throw new Error("disk full");
      return save(request);
    };
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "voice", model: new ScriptedLiveModel([[{ turnComplete: true }], [{ turnComplete: true }]], { speechTurnBytes: 3200 }) }), sessionService: new InMemorySessionService(), artifactService });
    let completed = 0;
    const { stored } = await runSaving([], (queue) => {
      queue.sendRealtime(pcm(3200, 1));
      queue.sendRealtime(pcm(3200, 2));
    }, { runner, closeWhen: (event) => event.turnComplete === true && ++completed === 2 });
    // The first turn's save failed; at the second turn's end both recordings are saved, the first one first.
    const saved = stored.filter((event) => event.content?.parts?.[0]?.fileData).map((event) => event.content!.parts![0]!.fileData!.fileUri!);
    expect(saved).toHaveLength(2);
    expect(await Promise.all(saved.map((uri) => artifactBytesAt(runner, uri)))).toEqual([Buffer.alloc(3200, 1), Buffer.alloc(3200, 2)]);
    const turnEnds = stored.flatMap((event, index) => (event.turnComplete ? [index] : []));
    expect(turnEnds).toHaveLength(2);
    expect(stored.findIndex((event) => event.content?.parts?.[0]?.fileData)).toBeGreaterThan(turnEnds[0]!);
  });

  it("loses no chunk that comes while a recording is being saved: every byte the user sent is in a saved file", async () => {
    const artifactService = new InMemoryArtifactService();
    const save = artifactService.saveArtifact.bind(artifactService);
    artifactService.saveArtifact = async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return save(request);
    };
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "voice", model: new ScriptedLiveModel([[{ turnComplete: true }]], { speechTurnBytes: 3200 }) }), sessionService: new InMemorySessionService(), artifactService });
    const { stored } = await runSaving([], (queue) => {
      queue.sendRealtime(pcm(3200, 1));
      // Sent while the first turn's recording is being saved.
      setTimeout(() => {
        queue.sendRealtime(pcm(1600, 2));
        setTimeout(() => queue.close(), 40);
      }, 5);
    }, { runner, closeWhen: () => false });
    const saved = stored.filter((event) => event.content?.parts?.[0]?.fileData).map((event) => event.content!.parts![0]!.fileData!.fileUri!);
    const bytes = Buffer.concat(await Promise.all(saved.map((uri) => artifactBytesAt(runner, uri))));
    expect(bytes).toEqual(Buffer.concat([Buffer.alloc(3200, 1), Buffer.alloc(1600, 2)]));
  });

  it("refuses to run without an artifact service (a context made by hand; a Runner always has one), saying what to give", async () => {
    const sessionService = new InMemorySessionService();
    const session = await sessionService.createSession({ appName: "app", userId: "u" });
    const agent = new LlmAgent({ name: "voice", model: new ScriptedLiveModel([]) });
    const context = createInvocationContext({ agent, session, sessionService, liveRequestQueue: new LiveRequestQueue(), runConfig: { saveLiveBlob: true } });
    await expect(agent.runLive(context).next()).rejects.toThrow("runConfig.saveLiveBlob keeps the live audio as artifacts of the session, and this run has no artifact service: give the Runner an artifactService (InMemoryRunner has one), or leave saveLiveBlob out.");
  });

  it("is true or false, refused otherwise with what to give", () => {
    expect(() => resolveRunConfig({ saveLiveBlob: "yes" as unknown as boolean })).toThrow('runConfig.saveLiveBlob must be true or false, not "yes".');
    expect(resolveRunConfig({}).saveLiveBlob).toBe(false);
  });
});
