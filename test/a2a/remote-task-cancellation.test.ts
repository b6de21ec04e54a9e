import { afterEach, describe, expect, it, vi } from "vitest";
import type { Client } from "@a2a-js/sdk/client";
import { REMOTE_TASK_NAMING_GRACE_MS, RemoteTaskCancellation } from "../../src/a2a/remote-task-cancellation.js";
import { getLogger, setLogger } from "../../src/index.js";

/**
 * What a cancelled run does about the remote task its stream started, step by step: cancel it once named (at once
 * when it is), leave alone a task that ended or waits, and stop listening after a grace period when the remote
 * agent names none, saying so.
 */

const previousLogger = getLogger();
afterEach(() => {
  setLogger(previousLogger);
  vi.useRealTimers();
});

function setUp(cancelTask: (params: { id: string }) => Promise<unknown> = async () => ({})) {
  const warnings: string[] = [];
  setLogger({ log() {}, debug() {}, info() {}, warn: (...args: unknown[]) => void warnings.push(args.join(" ")), error() {}, setLogLevel() {} });
  const run = new AbortController();
  const cancelled: string[] = [];
  const client = { cancelTask: async (params: { id: string }) => (cancelled.push(params.id), cancelTask(params)) } as unknown as Client;
  const cancellation = new RemoteTaskCancellation(run.signal, client, "remote");
  return { run, cancelled, warnings, cancellation };
}

const task = (id: string, state: string) => ({ kind: "task" as const, id, contextId: "c", status: { state: state as "working" } });
const status = (taskId: string, state: string) => ({ kind: "status-update" as const, taskId, contextId: "c", final: false, status: { state: state as "working" } });

describe("RemoteTaskCancellation", () => {
  it("cancels a named, running task as soon as the run is cancelled, then stops the stream", async () => {
    const { run, cancelled, cancellation } = setUp();
    cancellation.seen(task("t1", "submitted"));
    cancellation.seen(status("t1", "working"));
    expect(cancellation.signal.aborted).toBe(false);
    run.abort();
    await cancellation.settled();
    expect(cancelled).toEqual(["t1"]);
    expect(cancellation.signal.aborted).toBe(true);
  });

  it("waits for the remote agent to name its task when the run is cancelled first, then cancels it", async () => {
    const { run, cancelled, cancellation } = setUp();
    run.abort();
    expect(cancellation.signal.aborted).toBe(false);
    cancellation.seen(task("t2", "submitted"));
    await cancellation.settled();
    expect(cancelled).toEqual(["t2"]);
    expect(cancellation.signal.aborted).toBe(true);
    cancellation.dispose();
  });

  it("does not cancel a task that ended or waits for an answer", async () => {
    for (const state of ["completed", "failed", "canceled", "input-required"]) {
      const { run, cancelled, cancellation } = setUp();
      cancellation.seen(status("t3", state));
      run.abort();
      await cancellation.settled();
      expect([state, cancelled, cancellation.signal.aborted]).toEqual([state, [], true]);
    }
  });

  it("stops listening after the grace period when no task was named, and says the task may run on", async () => {
    vi.useFakeTimers();
    const { run, cancelled, warnings, cancellation } = setUp();
    run.abort();
    vi.advanceTimersByTime(REMOTE_TASK_NAMING_GRACE_MS - 1);
    expect(cancellation.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(cancellation.signal.aborted).toBe(true);
    expect(cancelled).toEqual([]);
    expect(warnings).toEqual([`RemoteA2AAgent "remote": the run was cancelled before the remote agent named its task, and it named none within ${REMOTE_TASK_NAMING_GRACE_MS} ms; any task it started may still be running there.`]);
  });

  it("says so when the remote agent refuses the cancel, and stops the stream all the same", async () => {
    const { run, warnings, cancellation } = setUp(async () => {
      throw new Error("Task cannot be canceled");
    });
    cancellation.seen(status("t4", "working"));
    run.abort();
    await cancellation.settled();
    expect(cancellation.signal.aborted).toBe(true);
    expect(warnings).toEqual(['RemoteA2AAgent "remote": the run was cancelled, but its remote task t4 could not be cancelled (Task cannot be canceled); it may still be running there.']);
  });

  it("starts stopped for a run cancelled before the request, and cancels nothing", async () => {
    const run = new AbortController();
    run.abort();
    const cancelTask = vi.fn();
    const cancellation = new RemoteTaskCancellation(run.signal, { cancelTask } as unknown as Client, "remote");
    expect(cancellation.signal.aborted).toBe(true);
    await cancellation.settled();
    expect(cancelTask).not.toHaveBeenCalled();
  });
});
