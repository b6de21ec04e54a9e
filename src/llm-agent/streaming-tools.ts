import { ActiveStreamingTool, STREAM_STOP_WAIT_MS } from "../agents/active-streaming-tool.js";
import type { InvocationContext } from "../agents/invocation-context.js";
import { LiveRequestQueue } from "../agents/live-request-queue.js";
import type { RunCancellation } from "../agents/run-cancellation.js";
import { endSentence, thrownMessage } from "../errors/sentence.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { logger } from "../logging/logger.js";
import { settlesWithin } from "../platform/settles-within.js";
import { Task } from "../platform/task.js";
import type { Tool } from "../tools/tool.js";

/** What a streaming tool's call answers at once, in ADK's words: its results come later, as messages. */
export const STREAMING_PENDING_STATUS = "The function is running asynchronously and the results are pending.";

/**
 * The error a streaming tool's call ends a run with when the run is not live: no one could hear its results. The
 * tool is not run (its stream is closed unread).
 */
export function streamingToolNotLive(tool: Tool): ConfigurationError {
  return new ConfigurationError(
    "STREAMING_TOOL_NOT_LIVE",
    `Tool "${tool.name}" streams its results (its function is an async generator), which only a live run can take: run the agent with runner.runLive, or give the tool a function that returns its result.`,
  );
}

/** Whether a tool's result is a stream of results (an async generator, or any async iterator). */
export function isResultStream(result: unknown): result is AsyncIterator<unknown> {
  return typeof result === "object" && result !== null && typeof (result as AsyncIterator<unknown>).next === "function" && typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function";
}

/** Ends a stream of results (a generator's `finally` runs); settles when it has, a failure to end included. */
function endResults(results: AsyncIterator<unknown>): Promise<unknown> {
  return Promise.resolve()
    .then(() => results.return?.(undefined))
    .catch(() => undefined);
}

/** Ends a stream of results no one will read, so the work behind it (a generator's `finally`) is let go. */
export function closeResultStream(results: AsyncIterator<unknown>): void {
  void endResults(results);
}

/**
 * Starts a streaming tool in a live run, as ADK Python does: each value the tool yields goes to the model as the
 * user's message `Function <name> returned: <value>` (text as it is, anything else as JSON), through the run's
 * queue, so it is stored like what the user types; a failure goes as `Function <name> failed: <message>`. The
 * call answers at once with {@link STREAMING_PENDING_STATUS}.
 *
 * The stream is kept in the context's `activeStreamingTools` under the tool's name: a later call of the same tool
 * stops the earlier stream first (ADK's keeps both running with one forgotten), `stop_streaming` stops it, and so do
 * the end of the agent's live run, the run's cancellation and the tool's `timeoutMs`. Stopping aborts the tool's
 * signal (`stop`) and ends the stream without waiting for the tool's next value.
 */
export function startStreamingTool(context: InvocationContext, tool: Tool, results: AsyncIterator<unknown>, stop: RunCancellation): Record<string, unknown> {
  const queue = context.liveRequestQueue!;
  const registry = (context.activeStreamingTools ??= {});
  // A stream of the same tool still running is stopped, and this call gets a record of its own: the earlier stream,
  // as it ends, closes only its own input stream. A record without a running stream is this call's (its input
  // stream made already) or a finished one's, and is kept.
  const earlier = registry[tool.name];
  const replacing = earlier?.task !== undefined && !earlier.task.done();
  if (replacing) earlier!.task!.cancel();
  const active = replacing || !earlier ? (registry[tool.name] = new ActiveStreamingTool()) : earlier;
  const send = (text: string) => {
    if (!queue.isClosed) queue.sendContent({ role: "user", parts: [{ text }] });
  };
  active.task = new Task(async (signal) => {
    // The task's cancel (stop_streaming, the end of the run) and the tool's own stop (the run's cancellation, its
    // time limit) end each other.
    const stopped = new Promise<typeof STOPPED>((resolve) => {
      const end = () => resolve(STOPPED);
      if (signal.aborted || stop.aborted) return end();
      signal.addEventListener("abort", () => (stop.abort(), end()), { once: true });
      stop.onAbort(end);
    });
    const timer = tool.timeoutMs === undefined ? undefined : setTimeout(() => stop.abort(), tool.timeoutMs);
    try {
      // The call's pending answer reaches the model before the first result does.
      if ((await Promise.race([heldStreams.get(registry), stopped])) === STOPPED) return;
      for (;;) {
        const next = await Promise.race([results.next(), stopped]);
        if (next === STOPPED || next.done || queue.isClosed) return;
        send(`Function ${tool.name} returned: ${describeResult(next.value)}`);
      }
    } catch (error) {
      if (stop.aborted) return;
      const message = thrownMessage(error);
      logger.warn(`Streaming tool "${tool.name}" failed: ${message}`);
      send(`Function ${tool.name} failed: ${endSentence(message)}`);
    } finally {
      if (timer) clearTimeout(timer);
      stop.abort();
      active.stream?.close();
      active.stream = undefined;
      // The task ends once the tool has: its `finally` ran (at its next `yield` or return), or it has not within a
      // second and is left to end on its own (a tool blocked on something that ignores its signal).
      await settlesWithin(endResults(results), STREAM_STOP_WAIT_MS);
    }
  });
  return { status: STREAMING_PENDING_STATUS };
}

/** Per record of streams: what streams started meanwhile wait for before sending anything. */
const heldStreams = new WeakMap<Record<string, ActiveStreamingTool>, Promise<void>>();

/**
 * Holds the results of the streams a batch of calls starts until `released` settles (the live flow releases them once
 * the calls' responses were sent), so the model hears that a call is pending before it hears its results.
 */
export function holdStreamsUntil(registry: Record<string, ActiveStreamingTool>, released: Promise<void>): void {
  heldStreams.set(registry, released);
}

/**
 * The input stream of a streaming tool about to run in a live run: made on the tool's first read of
 * `context.inputStream` and kept in the context's `activeStreamingTools`, where the live flow copies the user's
 * audio and video into it.
 */
export function inputStreamFor(context: InvocationContext, toolName: string): () => LiveRequestQueue {
  return () => {
    const registry = (context.activeStreamingTools ??= {});
    const active = (registry[toolName] ??= new ActiveStreamingTool());
    return (active.stream ??= new LiveRequestQueue());
  };
}

const STOPPED = Symbol("stopped");

/** A result as the model reads it in a message: text as it is, anything else as JSON. */
function describeResult(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
