import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createArtifactService, createEvent, createMemoryService, createSessionService, StorageError } from "../../src/index.js";
import { FileArtifactService } from "../../src/artifacts/file/index.js";
import { PostgresMemoryService, PostgresSessionService } from "../../src/postgres/index.js";
import { importWithDriver } from "../../src/services/service-uri.js";
import { SqliteMemoryService, SqliteSessionService } from "../../src/sqlite/index.js";
import { tempDir } from "../support/temp-dir.js";
import { freePort } from "../support/free-port.js";

const dir = tempDir();

describe("SQLite files toolsmith cannot use", () => {
  it("refuses a file that is not a SQLite database and leaves it unchanged", async () => {
    const path = join(dir, "notes.txt");
    const content = "these are my notes, not a database\n".repeat(200);
    writeFileSync(path, content);
    const error = await createSessionService(`sqlite://${path}`).catch((caught) => caught);
    expect(error).toBeInstanceOf(StorageError);
    expect(error.code).toBe("SQLITE_FILE_UNUSABLE");
    expect(error.message).toContain(`${path} cannot be used as a toolsmith database (file is not a database)`);
    expect(() => new SqliteMemoryService({ path })).toThrow(/left untouched/);
    expect(readFileSync(path, "utf8")).toBe(content);
  });

  it("refuses a SQLite database of another program and writes nothing into it", async () => {
    const path = join(dir, "foreign.db");
    const foreign = new Database(path);
    foreign.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices (total) VALUES (9.5);");
    foreign.close();
    const before = readFileSync(path);
    const error = await createSessionService(`sqlite://${path}`).catch((caught) => caught);
    expect(error).toBeInstanceOf(StorageError);
    expect(error.code).toBe("SQLITE_FOREIGN_DATABASE");
    expect(error.message).toMatch(/another program \(tables: invoices\); toolsmith left it untouched/);
    expect(readFileSync(path)).toEqual(before);
  });

  it("reports a damaged database file as unusable instead of returning wrong data", async () => {
    const path = join(dir, "damaged.db");
    const service = new SqliteSessionService({ path, synchronous: "full" });
    const session = await service.createSession({ appName: "a", userId: "u", sessionId: "s" });
    for (let index = 0; index < 200; index++) {
      await service.appendEvent({ session, event: createEvent({ invocationId: "i", author: "user", content: { parts: [{ text: `event ${index} `.repeat(20) }] } }) });
    }
    await service.close();
    const healthy = join(dir, "healthy-copy.db");
    copyFileSync(path, healthy);
    // Overwrite pages after the schema page, where the events live.
    const bytes = readFileSync(path);
    bytes.fill(0xa5, 4096 * 2, bytes.length - 4096);
    writeFileSync(path, bytes);
    const error = await (async () => {
      const reopened = new SqliteSessionService({ path });
      try {
        return await reopened.getSession({ appName: "a", userId: "u", sessionId: "s" });
      } finally {
        await reopened.close();
      }
    })().catch((caught) => caught);
    expect(error).toBeInstanceOf(StorageError);
    expect(error.message).toMatch(/cannot be used as a toolsmith database \(database disk image is malformed\)/);
    const fromCopy = new SqliteSessionService({ path: healthy });
    expect((await fromCopy.getSession({ appName: "a", userId: "u", sessionId: "s" }))!.events).toHaveLength(200);
    await fromCopy.close();
  });

  it("gives up with a clear error when another process holds the write lock too long, storing nothing", async () => {
    const path = join(dir, "locked.db");
    const service = new SqliteSessionService({ path, busyTimeoutMs: 100 });
    const session = await service.createSession({ appName: "a", userId: "u", sessionId: "s" });
    const other = new Database(path);
    other.exec("BEGIN IMMEDIATE");
    try {
      const error = await service.appendEvent({ session, event: createEvent({ invocationId: "i", author: "user", actions: { stateDelta: { n: 1 } } }) }).catch((caught) => caught);
      expect(error).toBeInstanceOf(StorageError);
      expect(error.code).toBe("SQLITE_BUSY");
      expect(error.message).toMatch(/stayed locked by another process's write for longer than busyTimeoutMs; nothing was stored/);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    const stored = (await service.getSession({ appName: "a", userId: "u", sessionId: "s" }))!;
    expect(stored).toMatchObject({ state: {}, events: [] });
    await service.appendEvent({ session, event: createEvent({ invocationId: "i", author: "user", actions: { stateDelta: { n: 1 } } }) });
    await service.close();
  });

  it("refuses a database written by a newer toolsmith", async () => {
    const path = join(dir, "newer.db");
    await (await createSessionService(`sqlite://${path}`)).close();
    const database = new Database(path);
    database.prepare("UPDATE toolsmith_schema SET version = 99 WHERE component = 'sessions'").run();
    database.close();
    expect(() => new SqliteSessionService({ path })).toThrow(/schema version 99, newer than this toolsmith knows \(1\)\. Upgrade toolsmith/);
  });
});

describe("an unreachable PostgreSQL", () => {
  it("fails to open with a clear error within the connect timeout", async () => {
    const port = await freePort();
    const started = Date.now();
    const error = await PostgresSessionService.open({ connectionString: `postgres://postgres:secret@127.0.0.1:${port}/toolsmith`, connectTimeoutMs: 1_000 }).catch((caught) => caught);
    expect(error).toBeInstanceOf(StorageError);
    expect(error.code).toBe("POSTGRES_UNREACHABLE");
    expect(error.message).toContain(`Could not connect to PostgreSQL at postgres://postgres:***@127.0.0.1:${port}/toolsmith (connect ECONNREFUSED 127.0.0.1:${port}). Check that the server is running`);
    expect(error.message).not.toContain("secret");
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(PostgresMemoryService.open({ connectionString: `postgres://127.0.0.1:${port}/x`, connectTimeoutMs: 1_000 })).rejects.toThrow(/Could not connect/);
  });

  it("gives up after the connect timeout when the server accepts but never answers", async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const started = Date.now();
      const error = await PostgresSessionService.open({ connectionString: `postgres://postgres@127.0.0.1:${port}/toolsmith`, connectTimeoutMs: 300 }).catch((caught) => caught);
      expect(error).toBeInstanceOf(StorageError);
      expect(error.message).toMatch(/Could not connect to PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:\d+\/toolsmith \(.*timeout.*\)/);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe("choosing a service by URI", () => {
  it("says which schemes exist when the URI names none of them", async () => {
    await expect(createSessionService("mysql://localhost/db")).rejects.toThrow(
      '"mysql://localhost/db" does not name a session service. Use one of: memory://, sqlite://, postgres://, postgresql:// (for example sqlite://.toolsmith/toolsmith.db).',
    );
    await expect(createArtifactService("s3://bucket")).rejects.toThrow(/Use one of: memory:\/\/, file:\/\//);
    await expect(createMemoryService(".toolsmith/toolsmith.db")).rejects.toThrow(/does not name a memory service/);
    await expect(createSessionService("sqlite://")).rejects.toThrow(/names no path/);
  });

  it("says which package to install when a driver is missing", async () => {
    const missing = "toolsmith-test-driver-that-is-not-installed";
    const error = await importWithDriver(() => import(missing), { packageName: missing, scheme: "sqlite" }).catch((caught) => caught);
    expect(error.code).toBe("DRIVER_MISSING");
    expect(error.message).toBe(`sqlite:// needs the optional package ${missing}, which is not installed. Run: npm install ${missing}`);
  });

  it("opens each kind of service from its URI", async () => {
    const sessions = await createSessionService(`sqlite://${join(dir, "by-uri.db")}`);
    const memory = await createMemoryService(`sqlite://${join(dir, "by-uri.db")}`);
    const artifacts = await createArtifactService(`file://${join(dir, "by-uri-artifacts")}`);
    expect(sessions).toBeInstanceOf(SqliteSessionService);
    expect(memory).toBeInstanceOf(SqliteMemoryService);
    expect(artifacts).toBeInstanceOf(FileArtifactService);
    const inMemory = await createSessionService("memory://");
    expect((await inMemory.createSession({ appName: "a", userId: "u" })).events).toEqual([]);
    await Promise.all([sessions.close(), memory.close(), artifacts.close(), inMemory.close()]);
  });
});

describe("FileArtifactService paths", () => {
  it("keeps app, user and session names that look like paths inside the root", async () => {
    const root = join(dir, "artifact-root");
    const service = new FileArtifactService({ root });
    await service.saveArtifact({ appName: "a/../../b", userId: "..\\u", sessionId: "s:1", filename: "x.txt", artifact: { text: "inside" } });
    expect(await service.listArtifactKeys({ appName: "a/../../b", userId: "..\\u", sessionId: "s:1" })).toEqual(["x.txt"]);
    for (const appName of ["..", ".", ""]) {
      await expect(service.saveArtifact({ appName, userId: "u", sessionId: "s", filename: "x.txt", artifact: { text: "x" } })).rejects.toThrow(/cannot be a folder name/);
    }
  });
});
