import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createEvent, StorageError } from "../../src/index.js";
import { PostgresMemoryService, PostgresSessionService } from "../../src/postgres/index.js";
import { SqliteMemoryService, SqliteSessionService } from "../../src/sqlite/index.js";
import { freshDatabase, postgresMissing, postgresUrl } from "../support/postgres.js";
import { tempDir } from "../support/temp-dir.js";

const dir = tempDir();

describe("toolsmith's own schema", () => {
  it("is created in a new SQLite file with its versions recorded, and reopened without changes", async () => {
    const path = join(dir, "schema.db");
    const sessions = new SqliteSessionService({ path });
    const memory = new SqliteMemoryService({ path });
    const session = await sessions.createSession({ appName: "a", userId: "u", sessionId: "s" });
    await sessions.appendEvent({ session, event: createEvent({ invocationId: "i", author: "user", actions: { stateDelta: { kept: true } } }) });
    await Promise.all([sessions.close(), memory.close()]);

    const database = new Database(path, { readonly: true });
    expect(database.prepare("SELECT component, version FROM toolsmith_schema ORDER BY component").all()).toEqual([
      { component: "memory", version: 1 },
      { component: "sessions", version: 1 },
    ]);
    expect(database.pragma("journal_mode", { simple: true })).toBe("wal");
    const tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    expect(tables.every((name) => name.startsWith("toolsmith_"))).toBe(true);
    database.close();

    const reopened = new SqliteSessionService({ path });
    expect((await reopened.getSession({ appName: "a", userId: "u", sessionId: "s" }))!.state).toEqual({ kept: true });
    await reopened.close();
  });

  it.skipIf(!postgresUrl)(`is created once in PostgreSQL by services opening together over separate pools, and refused when newer ${postgresMissing}`, async () => {
    const url = await freshDatabase();
    const services = await Promise.all([
      PostgresSessionService.open({ connectionString: url }),
      PostgresSessionService.open({ connectionString: url }),
      PostgresMemoryService.open({ connectionString: url }),
    ]);
    await Promise.all(services.map((service) => service.close()));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      expect((await client.query("SELECT component, version FROM toolsmith_schema ORDER BY component")).rows).toEqual([
        { component: "memory", version: 1 },
        { component: "sessions", version: 1 },
      ]);
      await client.query("UPDATE toolsmith_schema SET version = 7 WHERE component = 'sessions'");
    } finally {
      await client.end();
    }
    const error = await PostgresSessionService.open({ connectionString: url }).catch((caught) => caught);
    expect(error).toBeInstanceOf(StorageError);
    expect(error.message).toBe("The sessions tables are at schema version 7, newer than this toolsmith knows (1). Upgrade toolsmith.");
  });
});
