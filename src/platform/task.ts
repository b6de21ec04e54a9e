/** What a {@link Task} runs: a function of the signal that {@link Task.cancel} aborts. */
export type TaskExecutable<T = void> = (abortSignal: AbortSignal) => Promise<T>;

/**
 * ADK's `Task`: work started at once, with its promise, a way to ask it to stop, and whether it has ended.
 * `cancel()` aborts the signal the work was given; the work decides what stopping means, and `promise` settles as
 * the work does.
 *
 * @example
 * ```ts
 * import { Task } from "toolsmith";
 *
 * const task = new Task((signal) => fetch("https://example.com/", { signal }).then((response) => response.status));
 * task.cancel(); // the fetch is aborted, and task.promise rejects
 * ```
 */
export class Task<T = void> {
  /** The work, as given. */
  executable: TaskExecutable<T>;
  /** The work's promise, started by the constructor. */
  promise: Promise<T>;
  #isDone = false;
  readonly #abortController = new AbortController();

  /** Starts `executable` at once, with a signal of the task's own. */
  constructor(executable: TaskExecutable<T>) {
    this.executable = executable;
    const markDone = () => {
      this.#isDone = true;
    };
    this.promise = executable(this.#abortController.signal);
    // Marking it done must not leave a rejection unhandled of its own; `promise` still rejects for its readers.
    this.promise.then(markDone).catch(markDone);
  }

  /** Asks the work to stop: aborts the signal it was given. */
  cancel(): void {
    this.#abortController.abort();
  }

  /** Whether the work has ended, fulfilled or rejected. */
  done(): boolean {
    return this.#isDone;
  }
}
