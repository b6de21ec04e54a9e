import { ToolsmithError } from "../errors/toolsmith-error.js";
import { settlesWithin } from "../platform/settles-within.js";

/** A run the server has under way: how to stop it, and when it has ended. */
interface TrackedRun {
  cancel(reason: Error): void;
  readonly ended: Promise<void>;
}

/** What a drain did. */
export interface DrainResult {
  /** Runs that ended on their own within the grace period. */
  finished: number;
  /** Runs still going at its end, cancelled: their sessions keep every event stored so far. */
  interrupted: number;
}

/** Why a run was stopped by a shutdown; the routes tell the client with it. */
export class ServerShuttingDownError extends ToolsmithError {
  constructor() {
    super(
      "SERVER_SHUTTING_DOWN",
      "The server shut down before the run finished. The session keeps every event sent so far; run the turn again (on this or another replica): a tool call left open is answered as interrupted first.",
    );
  }
}

/**
 * The runs a server has under way, so it can shut down without losing one: a
 * drain refuses new runs, lets running ones finish within a grace period, then
 * cancels the rest and waits for them to stop (every event a run produced is
 * stored before the client sees it, so a cancelled run leaves its session as
 * far as it got, ready for the next turn).
 */
export class RunTracker {
  readonly #runs = new Set<TrackedRun>();
  #draining = false;

  /** Whether the server is shutting down and takes no new runs. */
  get draining(): boolean {
    return this.#draining;
  }

  /** How many runs are under way. */
  get active(): number {
    return this.#runs.size;
  }

  /** Registers a run; call the returned function when it has ended. */
  track(cancel: (reason: Error) => void): () => void {
    let end!: () => void;
    const run: TrackedRun = { cancel, ended: new Promise<void>((resolve) => (end = resolve)) };
    this.#runs.add(run);
    return () => {
      this.#runs.delete(run);
      end();
    };
  }

  /**
   * Stops taking runs, waits up to `graceMs` for those under way, cancels the
   * rest and waits up to `stopMs` more for them to stop.
   */
  async drain(options: { graceMs: number; stopMs?: number }): Promise<DrainResult> {
    this.#draining = true;
    const before = this.#runs.size;
    await settleWithin([...this.#runs].map((run) => run.ended), options.graceMs);
    const left = [...this.#runs];
    for (const run of left) run.cancel(new ServerShuttingDownError());
    await settleWithin(left.map((run) => run.ended), options.stopMs ?? 10_000);
    return { finished: before - left.length, interrupted: left.length };
  }
}

async function settleWithin(promises: readonly Promise<void>[], ms: number): Promise<void> {
  if (promises.length === 0) return;
  await settlesWithin(Promise.all(promises), ms);
}
