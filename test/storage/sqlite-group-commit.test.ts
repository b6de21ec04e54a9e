import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEvent, StaleSessionError, StorageError, type Session } from "../../src/index.js";
import { openSqliteDatabase, SqliteSessionService } from "../../src/sqlite/index.js";
import type { SqliteDatabase } from "../../src/sqlite/sqlite-driver.js";

const dir = mkdtempSync(join(tmpdir(), "toolsmith-group-commit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const file = () => join(dir, `db${files++}.db`);

const turn = (index: number) => createEvent({ invocationId: "i", author: "agent", content: { role: "model", parts: [{ text: `answer ${index}` }] }, actions: { stateDelta: { turn: index } } });

/** A connection that counts the transactions the service commits through it. */
function countingDatabase(path: string, busyTimeoutMs?: number): { database: SqliteDatabase; transactions: () => number } {
  const database = openSqliteDatabase({ path, busyTimeoutMs });
  let count = 0;
  const counting: SqliteDatabase = Object.create(database);
  counting.transaction = (mode, work) => {
    if (mode === "immediate") count++;
    return database.transaction(mode, work);
  };
  return { database: counting, transactions: () => count };
}

describe("SQLite group commit", () => {
  it("commits appends made at the same time by 100 sessions in a few transactions, each one durable and in order", async () => {
    const path = file();
    const { database, transactions } = countingDatabase(path);
    const service = new SqliteSessionService({ database });
    const sessions: Session[] = [];
    for (let index = 0; index < 100; index++) sessions.push(await service.createSession({ appName: "a", userId: `u${index}` }));
    const before = transactions();
    const perSession = 20;
    await Promise.all(sessions.map(async (session) => {
      for (let index = 0; index < perSession; index++) await service.appendEvent({ session, event: turn(index) });
    }));
    const used = transactions() - before;
    console.log(`group commit: ${sessions.length * perSession} appends in ${used} transactions`);
    expect(used).toBeLessThanOrEqual(perSession * 2);
    await service.close();
    database.close();
    // Read back through a new connection: every append is on disk, in order, and the state followed.
    const reader = new SqliteSessionService({ path });
    for (const session of sessions) {
      const stored = (await reader.getSession({ appName: "a", userId: session.userId, sessionId: session.id }))!;
      expect(stored.events.map((event) => event.actions.stateDelta.turn)).toEqual(Array.from({ length: perSession }, (_, index) => index));
      expect(stored.state).toEqual({ turn: perSession - 1 });
      expect(session.events).toHaveLength(perSession);
    }
    await reader.close();
  });

  it("fails a stale append alone: the others in its group are stored, the stale one is not", async () => {
    const service = new SqliteSessionService({ path: file() });
    const first = await service.createSession({ appName: "a", userId: "u", sessionId: "s" });
    const staleCopy = (await service.getSession({ appName: "a", userId: "u", sessionId: "s" }))!;
    const other = await service.createSession({ appName: "a", userId: "v", sessionId: "t" });
    await service.appendEvent({ session: first, event: turn(0) });
    // The stale copy's append now shares a group with two good ones.
    const results = await Promise.allSettled([
      service.appendEvent({ session: other, event: turn(1) }),
      service.appendEvent({ session: staleCopy, event: turn(2) }),
      service.appendEvent({ session: first, event: turn(3) }),
    ]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const error = (results[1] as PromiseRejectedResult).reason;
    expect(error).toBeInstanceOf(StaleSessionError);
    expect(error.message).toMatch(/was changed by another writer/);
    const stored = (await service.getSession({ appName: "a", userId: "u", sessionId: "s" }))!;
    expect(stored.events.map((event) => event.actions.stateDelta.turn)).toEqual([0, 3]);
    expect(staleCopy.events).toHaveLength(0);
    expect((await service.getSession({ appName: "a", userId: "v", sessionId: "t" }))!.events).toHaveLength(1);
    await service.close();
  });

  it("stores two appends of one session made in the same tick one after the other, as without grouping", async () => {
    const { database, transactions } = countingDatabase(file());
    const service = new SqliteSessionService({ database });
    const session = await service.createSession({ appName: "a", userId: "u" });
    const before = transactions();
    await Promise.all([service.appendEvent({ session, event: turn(0) }), service.appendEvent({ session, event: turn(1) }), service.appendEvent({ session, event: turn(2) })]);
    // One session's appends never share a transaction: each saw the one before it committed.
    expect(transactions() - before).toBe(3);
    const stored = (await service.getSession({ appName: "a", userId: "u", sessionId: session.id }))!;
    expect(stored.events.map((event) => event.actions.stateDelta.turn)).toEqual([0, 1, 2]);
    expect(session.events.map((event) => event.actions.stateDelta.turn)).toEqual([0, 1, 2]);
    await service.close();
    database.close();
  });

  it("rejects every append of a group whose commit cannot happen, with a clear error, storing none of them", async () => {
    const path = file();
    const service = new SqliteSessionService({ path, busyTimeoutMs: 100 });
    const sessions = [await service.createSession({ appName: "a", userId: "u1" }), await service.createSession({ appName: "a", userId: "u2" })];
    const locker = openSqliteDatabase({ path });
    locker.exec("BEGIN IMMEDIATE");
    let errors: unknown[];
    try {
      errors = await Promise.all(sessions.map((session) => service.appendEvent({ session, event: turn(7) }).then(() => undefined, (error) => error)));
    } finally {
      locker.exec("ROLLBACK");
      locker.close();
    }
    for (const error of errors) {
      expect(error).toBeInstanceOf(StorageError);
      expect((error as StorageError).code).toBe("SQLITE_BUSY");
      expect((error as Error).message).toMatch(/nothing was stored/);
    }
    for (const session of sessions) {
      expect(session.events).toHaveLength(0);
      expect((await service.getSession({ appName: "a", userId: session.userId, sessionId: session.id }))!.events).toHaveLength(0);
      // The same append goes through once the lock is gone.
      await service.appendEvent({ session, event: turn(8) });
      expect((await service.getSession({ appName: "a", userId: session.userId, sessionId: session.id }))!.state).toEqual({ turn: 8 });
    }
    await service.close();
  });

  it("commits appends still waiting when the service is closed", async () => {
    const path = file();
    const service = new SqliteSessionService({ path });
    const session = await service.createSession({ appName: "a", userId: "u", sessionId: "s" });
    const pending = service.appendEvent({ session, event: turn(5) });
    await service.close();
    await pending;
    const reader = new SqliteSessionService({ path });
    expect((await reader.getSession({ appName: "a", userId: "u", sessionId: "s" }))!.state).toEqual({ turn: 5 });
    await reader.close();
  });
});
