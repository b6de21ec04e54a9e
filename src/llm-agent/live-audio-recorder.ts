import type { InvocationContext } from "../agents/invocation-context.js";
import type { Blob } from "../content/content.js";
import { createEventActions } from "../events/event-actions.js";
import { createEvent, type Event } from "../events/event.js";
import { logger } from "../logging/logger.js";

/** Whose audio a recording holds: what the user sent, or what the model said. */
export type LiveAudioSide = "input" | "output";

/** A recording is saved before it grows past this (ADK's cache size), so a long turn cannot fill the memory. */
export const MAX_RECORDING_BYTES = 10 * 1024 * 1024;

interface Recording {
  chunks: Buffer[];
  bytes: number;
  mimeType: string;
  /** When its first chunk came (ms), which names the file and dates the event. */
  startedAt: number;
}

/**
 * A live run's audio kept as artifacts (`runConfig.saveLiveBlob`, ADK Python's `save_live_blob`). Each side's chunks
 * are gathered until the live flow saves them: the model's when the user interrupts it, both when a turn
 * completes, what is left when the run ends. A saved recording is one artifact of the session,
 * `adk_live_audio_storage_<input|output>_audio_<ms>.<subtype>`, and one stored event whose part is a `fileData`
 * naming it as ADK does: `artifact://<app>/<user>/<session>/_adk_live/<file>#<version>`.
 *
 * Beyond ADK's: only audio is gathered (ADK's gathers video frames with the user's audio into one file of the
 * first chunk's type); the file's extension leaves out the MIME type's parameters (ADK's names a file
 * `….pcm;rate=16000`); the event carries the artifact in its `artifactDelta`; audio of another type than the
 * recording's starts a new one; and a recording that cannot be saved is kept, logged, and saved again with its
 * side's next (as a file of its own).
 */
export class LiveAudioRecorder {
  readonly #context: InvocationContext;
  readonly #recordings: Partial<Record<LiveAudioSide, Recording>> = {};
  /** Recordings whose save failed: saved again, first, with their side's next. */
  #unsaved: Array<{ side: LiveAudioSide; recording: Recording }> = [];

  constructor(context: InvocationContext) {
    this.#context = context;
  }

  /**
   * Adds a chunk of audio to a side's recording; returns the events of what had to be saved first (a recording
   * of another audio type, or one that reached {@link MAX_RECORDING_BYTES}).
   */
  async record(side: LiveAudioSide, blob: Blob): Promise<Event[]> {
    const mimeType = blob.mimeType ?? "";
    if (!mimeType.startsWith("audio/") || !blob.data) return [];
    const bytes = Buffer.from(blob.data, "base64");
    const current = this.#recordings[side];
    const saved = current && (current.mimeType !== mimeType || current.bytes + bytes.length > MAX_RECORDING_BYTES) ? await this.save([side]) : [];
    const recording = (this.#recordings[side] ??= { chunks: [], bytes: 0, mimeType, startedAt: Date.now() });
    recording.chunks.push(bytes);
    recording.bytes += bytes.length;
    return saved;
  }

  /**
   * Saves the recordings of `sides` that hold audio, and first any of those sides that failed to save before; returns
   * an event for each one saved. A recording is taken out before it is saved, so chunks that come meanwhile start
   * the next one instead of being lost with it.
   */
  async save(sides: readonly LiveAudioSide[]): Promise<Event[]> {
    const events: Event[] = [];
    const failedBefore = this.#unsaved.filter((entry) => sides.includes(entry.side));
    this.#unsaved = this.#unsaved.filter((entry) => !sides.includes(entry.side));
    const taken = [...failedBefore];
    for (const side of sides) {
      const recording = this.#recordings[side];
      if (!recording || recording.bytes === 0) continue;
      delete this.#recordings[side];
      taken.push({ side, recording });
    }
    for (const entry of taken) {
      const event = await this.#saveRecording(entry.side, entry.recording);
      if (event) events.push(event);
      else this.#unsaved.push(entry);
    }
    return events;
  }

  async #saveRecording(side: LiveAudioSide, recording: Recording): Promise<Event | undefined> {
    const context = this.#context;
    const { session } = context;
    const subtype = recording.mimeType.split(";")[0]!.split("/").at(-1)!.trim();
    const filename = `adk_live_audio_storage_${side}_audio_${recording.startedAt}.${subtype}`;
    try {
      const version = await context.artifactService!.saveArtifact({
        appName: session.appName,
        userId: session.userId,
        sessionId: session.id,
        filename,
        artifact: { inlineData: { mimeType: recording.mimeType, data: Buffer.concat(recording.chunks).toString("base64") } },
      });
      const fromModel = side === "output";
      const actions = createEventActions();
      actions.artifactDelta[filename] = version;
      return createEvent({
        invocationId: context.invocationId,
        author: fromModel ? context.agent.name : "user",
        branch: context.branch,
        timestamp: recording.startedAt,
        actions,
        content: { role: fromModel ? "model" : "user", parts: [{ fileData: { fileUri: `artifact://${session.appName}/${session.userId}/${session.id}/_adk_live/${filename}#${version}`, mimeType: recording.mimeType } }] },
      });
    } catch (error) {
      // Kept, and saved with the next chunks: the conversation goes on, and no audio is dropped without a word.
      logger.warn(`Saving the live ${side} audio (${recording.bytes} bytes) as ${filename} failed; it is kept and saved with the next: ${(error as Error)?.message ?? String(error)}`);
      return undefined;
    }
  }
}
