import { settlesWithin } from "../platform/settles-within.js";
import { Task } from "../platform/task.js";
import type { LiveRequestQueue } from "./live-request-queue.js";

/** The parameters of {@link ActiveStreamingTool}, ADK's. */
export interface ActiveStreamingToolParams {
  /** The work streaming the tool's results; a promise is wrapped in a {@link Task}. */
  task?: Task<void> | Promise<void>;
  /** The tool's copy of what the user streams (audio, video frames), when it asked for one. */
  stream?: LiveRequestQueue;
}

/**
 * ADK's record of a streaming tool running in a live run: the task that sends its results to the model, and the
 * queue the user's audio and video are copied into for it. A live run keeps one per tool name in the invocation
 * context's `activeStreamingTools`; `stop_streaming` and the end of the agent's live run stop them.
 */
export class ActiveStreamingTool {
  /** The task streaming the tool's results; cleared once `stop_streaming` stopped it. */
  task?: Task<void>;
  /** The tool's input stream ({@link ToolContext.inputStream}), made when the tool first reads it. */
  stream?: LiveRequestQueue;

  constructor(params: ActiveStreamingToolParams = {}) {
    this.task = params.task instanceof Promise ? new Task(() => params.task as Promise<void>) : params.task;
    this.stream = params.stream;
  }
}

/** How long stopping a streaming tool waits for its task to end, as ADK's `stop_streaming` waits. */
export const STREAM_STOP_WAIT_MS = 1_000;

/**
 * Stops the streaming tool `functionName` of a live run, as ADK's `stop_streaming` does, and says how it went in
 * ADK's words (what the model reads).
 */
export async function stopStreamingFunction(registry: Record<string, ActiveStreamingTool> | undefined, functionName: string): Promise<{ status: string }> {
  const active = registry?.[functionName];
  const task = active?.task;
  if (!active || !task || task.done()) return { status: `No active streaming function named ${functionName} found` };
  task.cancel();
  if (!(await settlesWithin(task.promise, STREAM_STOP_WAIT_MS))) return { status: `The task is not cancelled yet for ${functionName}.` };
  active.task = undefined;
  return { status: `Successfully stopped streaming function ${functionName}` };
}

/** Stops every streaming tool of `registry` and closes their input streams: the agent's live run is over. */
export async function stopStreamingTools(registry: Record<string, ActiveStreamingTool> | undefined): Promise<void> {
  if (!registry) return;
  const running: Task<void>[] = [];
  for (const active of Object.values(registry)) {
    active.stream?.close();
    if (active.task && !active.task.done()) {
      active.task.cancel();
      running.push(active.task);
    }
  }
  await Promise.all(running.map((task) => settlesWithin(task.promise, STREAM_STOP_WAIT_MS)));
}
