import type { Client } from "@a2a-js/sdk/client";
import { logger } from "../logging/logger.js";
import { isArtifactUpdate, isStatusUpdate, isTask, isTerminalState, stateOf, type A2AStreamEventData } from "./task-events.js";

/** How long a cancelled run waits for the remote agent to name its task before it stops listening anyway. */
export const REMOTE_TASK_NAMING_GRACE_MS = 5_000;

/**
 * What a cancelled run does about the remote task its streamed request started. The stream is not dropped at once:
 * until the remote agent has named the task (its first event), nothing could cancel it, and it would run on. So on
 * the run's cancellation the task is cancelled as soon as its id is known (at once when it is), then the stream is
 * stopped; a remote agent that names no task within {@link REMOTE_TASK_NAMING_GRACE_MS} is stopped listening to, and
 * the warning says its task may run on. A task that ended or waits for an answer is not cancelled.
 */
export class RemoteTaskCancellation {
  readonly #stream = new AbortController();
  readonly #runSignal: AbortSignal;
  readonly #client: Client;
  readonly #agentName: string;
  #taskId: string | undefined;
  #open = false;
  #cancelling: Promise<void> | undefined;
  #grace: ReturnType<typeof setTimeout> | undefined;
  readonly #onRunAborted = () => this.#runAborted();

  constructor(runSignal: AbortSignal, client: Client, agentName: string) {
    this.#runSignal = runSignal;
    this.#client = client;
    this.#agentName = agentName;
    if (runSignal.aborted) this.#stream.abort(runSignal.reason);
    else runSignal.addEventListener("abort", this.#onRunAborted, { once: true });
  }

  /** The signal the streamed request listens to. */
  get signal(): AbortSignal {
    return this.#stream.signal;
  }

  /** Takes in a streamed response: the task it names, whether that task still runs, and a cancel waiting for it. */
  seen(response: A2AStreamEventData): void {
    const taskId = isTask(response) ? response.id : isStatusUpdate(response) || isArtifactUpdate(response) ? response.taskId : undefined;
    if (!taskId) return;
    this.#taskId = taskId;
    const state = stateOf(response);
    this.#open = state === undefined ? true : !isTerminalState(state) && state !== "input-required";
    if (this.#runSignal.aborted) this.#cancel();
  }

  /** Waits for a cancel under way (the run's end waits for it, so a caller knows the remote task was told). */
  async settled(): Promise<void> {
    await this.#cancelling;
  }

  /** Stops listening to the run. */
  dispose(): void {
    this.#runSignal.removeEventListener("abort", this.#onRunAborted);
    if (this.#grace !== undefined) clearTimeout(this.#grace);
  }

  #runAborted(): void {
    if (this.#taskId !== undefined) return this.#cancel();
    this.#grace = setTimeout(() => {
      logger.warn(`RemoteA2AAgent "${this.#agentName}": the run was cancelled before the remote agent named its task, and it named none within ${REMOTE_TASK_NAMING_GRACE_MS} ms; any task it started may still be running there.`);
      this.#stream.abort(this.#runSignal.reason);
    }, REMOTE_TASK_NAMING_GRACE_MS);
  }

  #cancel(): void {
    if (this.#cancelling) return;
    if (this.#grace !== undefined) clearTimeout(this.#grace);
    const taskId = this.#taskId!;
    const open = this.#open;
    this.#cancelling = (async () => {
      try {
        if (open) await this.#client.cancelTask({ id: taskId });
      } catch (error) {
        logger.warn(`RemoteA2AAgent "${this.#agentName}": the run was cancelled, but its remote task ${taskId} could not be cancelled (${(error as Error).message}); it may still be running there.`);
      } finally {
        this.#stream.abort(this.#runSignal.reason);
      }
    })();
  }
}
