import type { SqliteDatabase } from "./sqlite-driver.js";

/** One write waiting for the next group. */
interface PendingWrite {
  owner: object;
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: writes asked for in the same turn of the event loop share one transaction, so they share one
 * `fsync` (the cost of a durable SQLite commit is the sync, not the rows). Each write still succeeds or fails
 * alone: it runs inside a savepoint, and one that throws (a stale session, a shared-state conflict) is rolled
 * back to its savepoint while the others commit. No promise resolves before the commit is on disk; when the
 * commit itself fails, every write of the group is rejected with that error and nothing of the group is stored.
 *
 * Two writes with the same `owner` (the session object they change) never share a group: the second waits for
 * the next one, so it runs after the first is committed and its caller has seen the result, exactly as if the
 * two had been made one after the other.
 */
export class GroupCommit {
  readonly #database: SqliteDatabase;
  readonly #translate: (error: unknown) => unknown;
  #pending: PendingWrite[] = [];
  #scheduled = false;

  constructor(database: SqliteDatabase, translate: (error: unknown) => unknown) {
    this.#database = database;
    this.#translate = translate;
  }

  /** Runs `work` in the next group's transaction and resolves with its result once that transaction is committed. */
  write<T>(owner: object, work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ owner, work, resolve: resolve as (value: unknown) => void, reject });
      this.#schedule();
    });
  }

  /** Commits every write still waiting (groups of distinct owners, in order), now; `close` calls it so nothing asked for is dropped. */
  flushNow(): void {
    while (this.#pending.length > 0) this.#flush();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // setImmediate, not a microtask: callers that each await their previous write come back over several
    // microtask hops, and all of them are in before the check phase runs.
    setImmediate(() => {
      this.#scheduled = false;
      this.#flush();
    });
  }

  #flush(): void {
    const group: PendingWrite[] = [];
    const later: PendingWrite[] = [];
    const owners = new Set<object>();
    for (const write of this.#pending) {
      if (owners.has(write.owner)) later.push(write);
      else {
        owners.add(write.owner);
        group.push(write);
      }
    }
    this.#pending = later;
    if (later.length > 0) this.#schedule();
    if (group.length === 0) return;
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      this.#database.transaction("immediate", () => {
        for (const write of group) {
          this.#database.exec("SAVEPOINT toolsmith_append");
          try {
            outcomes.push({ ok: true, value: write.work() });
            this.#database.exec("RELEASE toolsmith_append");
          } catch (error) {
            this.#database.exec("ROLLBACK TO toolsmith_append");
            this.#database.exec("RELEASE toolsmith_append");
            outcomes.push({ ok: false, error: this.#translate(error) });
          }
        }
      });
    } catch (error) {
      const failure = this.#translate(error);
      for (const write of group) write.reject(failure);
      return;
    }
    group.forEach((write, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) write.resolve(outcome.value);
      else write.reject(outcome.error);
    });
  }
}
