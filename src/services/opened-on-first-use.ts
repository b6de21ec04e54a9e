/**
 * A store opened by the first call that needs it (a driver imported, a file or connections opened), for the
 * services ADK makes without waiting (`new DatabaseSessionService(uri)`, `getArtifactServiceFromUri(uri)`).
 * Calls that start together share the one opening; an opening that fails keeps nothing open, so the next call
 * tries again (the folder may exist by then, the server may answer).
 */
export class OpenedOnFirstUse<T extends { close(): Promise<void> }> {
  readonly #open: () => Promise<T>;
  #opening: Promise<T> | undefined;

  constructor(open: () => Promise<T>) {
    this.#open = open;
  }

  /** The store, opened now if no call has opened it yet. */
  get(): Promise<T> {
    this.#opening ??= this.#open().catch((error: unknown) => {
      this.#opening = undefined;
      throw error;
    });
    return this.#opening;
  }

  /** Closes the store when it was opened (waiting for an opening under way); one never opened has nothing to close. */
  async close(): Promise<void> {
    const opening = this.#opening;
    if (!opening) return;
    const store = await opening.catch(() => undefined);
    await store?.close();
  }
}
