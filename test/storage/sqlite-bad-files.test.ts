import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEvent, StorageError } from "../../src/index.js";
import { openSqliteDatabase, SqliteMemoryService, SqliteSessionService, type SqliteDriverName } from "../../src/sqlite/index.js";
import { tempDir } from "../support/temp-dir.js";
import { SQLITE_DRIVERS } from "./sqlite-drivers-here.js";

const dir = tempDir();

/** Every case holds for both drivers, so each driver's error shape must map to the same StorageError. */
function describeBadFiles(driver: SqliteDriverName): void {
  const file = (name: string) => join(dir, `${driver.replace(":", "-")}-${name}`);

  it("refuses a file that is not a SQLite database and leaves it unchanged", async () => {
    const path = file("notes.txt");
    const content = "these are my notes, not a database\n".repeat(200);
    writeFileSync(path, content);
    const error = (() => {
      try {
        new SqliteSessionService({ path, driver });
      } catch (caught) {
        return caught as StorageError;
      }
    })();
    expect(error).toBeInstanceOf(StorageError);
    expect(error!.code).toBe("SQLITE_FILE_UNUSABLE");
    expect(error!.message).toContain(`${path} cannot be used as a toolsmith database (file is not a database)`);
    expect(() => new SqliteMemoryService({ path, driver })).toThrow(/left untouched/);
    expect(readFileSync(path, "utf8")).toBe(content);
  });

  it("refuses a SQLite database of another program and writes nothing into it", async () => {
    const path = file("foreign.db");
    const foreign = openSqliteDatabase({ path, driver });
    foreign.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices (total) VALUES (9.5);");
    foreign.close();
    const before = readFileSync(path);
    const error = (() => {
      try {
        new SqliteSessionService({ path, driver });
      } catch (caught) {
        return caught as StorageError;
      }
    })();
    expect(error).toBeInstanceOf(StorageError);
    expect(error!.code).toBe("SQLITE_FOREIGN_DATABASE");
    expect(error!.message).toMatch(/another program \(tables: invoices\); toolsmith left it untouched/);
    expect(readFileSync(path)).toEqual(before);
  });

  it("reports a damaged database file as unusable instead of returning wrong data", async () => {
    const path = file("damaged.db");
    const service = new SqliteSessionService({ path, synchronous: "full", driver });
    const session = await service.createSession({ appName: "a", userId: "u", sessionId: "s" });
    for (let index = 0; index < 200; index++) {
      await service.appendEvent({ session, event: createEvent({ invocationId: "i", author: "user", content: { parts: [{ text: `event ${index} `.repeat(20) }] } }) });
    }
    await service.close();
    const healthy = file("healthy-copy.db");
    copyFileSync(path, healthy);
    // Overwrite pages after the schema page, where the events live.
    const bytes = readFileSync(path);
    bytes.fill(0xa5, 4096 * 2, bytes.length - 4096);
    writeFileSync(path, bytes);
    const error = await (async () => {
      const reopened = new SqliteSessionService({ path, driver });
      try {
        return await reopened.getSession({ appName: "a", userId: "u", sessionId: "s" });
      } finally {
        await reopened.close();
      }
    })().catch((caught) => caught);
    expect(error).toBeInstanceOf(StorageError);
    expect(error.code).toBe("SQLITE_FILE_UNUSABLE");
    expect(error.message).toMatch(/cannot be used as a toolsmith database \(database disk image is malformed\)/);
    const fromCopy = new SqliteSessionService({ path: healthy, driver });
    expect((await fromCopy.getSession({ appName: "a", userId: "u", sessionId: "s" }))!.events).toHaveLength(200);
    await fromCopy.close();
  });

  it("gives up with a clear error when another connection holds the write lock too long, storing nothing", async () => {
    const path = file("locked.db");
    const service = new SqliteSessionService({ path, busyTimeoutMs: 100, driver });
    const session = await service.createSession({ appName: "a", userId: "u", sessionId: "s" });
    const other = openSqliteDatabase({ path, driver });
    other.exec("BEGIN IMMEDIATE");
    try {
      const started = Date.now();
      const error = await service.appendEvent({ session, event: createEvent({ invocationId: "i", author: "user", actions: { stateDelta: { n: 1 } } }) }).catch((caught) => caught);
      expect(error).toBeInstanceOf(StorageError);
      expect(error.code).toBe("SQLITE_BUSY");
      expect(error.message).toMatch(/stayed locked by another process's write for longer than busyTimeoutMs; nothing was stored/);
      // The busy timeout was honoured: it waited, but not for the 5 s default.
      expect(Date.now() - started).toBeGreaterThanOrEqual(90);
      expect(Date.now() - started).toBeLessThan(4_000);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    const stored = (await service.getSession({ appName: "a", userId: "u", sessionId: "s" }))!;
    expect(stored).toMatchObject({ state: {}, events: [] });
    await service.appendEvent({ session, event: createEvent({ invocationId: "i", author: "user", actions: { stateDelta: { n: 1 } } }) });
    expect((await service.getSession({ appName: "a", userId: "u", sessionId: "s" }))!.state).toEqual({ n: 1 });
    await service.close();
  });

  it("refuses a database written by a newer toolsmith", async () => {
    const path = file("newer.db");
    await new SqliteSessionService({ path, driver }).close();
    const database = openSqliteDatabase({ path, driver });
    database.prepare("UPDATE toolsmith_schema SET version = 99 WHERE component = 'sessions'").run();
    database.close();
    expect(() => new SqliteSessionService({ path, driver })).toThrow(/schema version 99, newer than this toolsmith knows \(1\)\. Upgrade toolsmith/);
  });

  it("opens files in write-ahead-log mode with the durability asked for", () => {
    const full = openSqliteDatabase({ path: file("full.db"), driver });
    const normal = openSqliteDatabase({ path: file("normal.db"), driver, synchronous: "normal" });
    try {
      expect(full.driver).toBe(driver);
      expect(full.pragma("journal_mode")).toBe("wal");
      expect(full.pragma("synchronous")).toBe(2); // FULL
      expect(normal.pragma("synchronous")).toBe(1); // NORMAL
    } finally {
      full.close();
      normal.close();
    }
  });
}

for (const { driver, skipped, title } of SQLITE_DRIVERS) {
  describe.skipIf(skipped)(`SQLite files toolsmith cannot use, ${title}`, () => describeBadFiles(driver));
}
