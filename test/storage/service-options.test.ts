/**
 * Storage services given options they cannot use: a path or URL given alone (as ADK's `DatabaseSessionService(url)`
 * takes one), nothing, a misspelt option, a value of the wrong kind. Each is refused with `UNSUPPORTED_OPTION` and the
 * call that works, before any file is made or any connection opened, and what is stored stays as it was.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError, CredentialCipher, createEvent } from "../../src/index.js";
import { FileArtifactService } from "../../src/artifacts/file/index.js";
import { S3ArtifactService } from "../../src/artifacts/s3/index.js";
import { PostgresArtifactService, PostgresCredentialService, PostgresMemoryService, PostgresSessionService } from "../../src/postgres/index.js";
import { openSqliteDatabase, SqliteCredentialService, SqliteMemoryService, SqliteSessionService } from "../../src/sqlite/index.js";
import { freePort } from "../support/free-port.js";
import { tempDir } from "../support/temp-dir.js";

const dir = tempDir();
const cipher = new CredentialCipher(Buffer.alloc(32, 7));

/** The error `make` throws (or rejects with), for its code and message. */
async function refusal(make: () => unknown): Promise<ConfigurationError> {
  try {
    await make();
  } catch (error) {
    return error as ConfigurationError;
  }
  throw new Error("it was accepted");
}

describe("SQLite services given options they cannot use", () => {
  const services = [
    ["SqliteSessionService", (options: unknown) => new SqliteSessionService(options as never), ""],
    ["SqliteMemoryService", (options: unknown) => new SqliteMemoryService(options as never), ""],
    ["SqliteCredentialService", (options: unknown) => new SqliteCredentialService({ ...(options as object), cipher } as never), ", cipher"],
  ] as const;

  it("refuse each with the call that works, and make no file", async () => {
    const path = join(dir, "never", "made.db");
    for (const [owner, make] of services) {
      const cases: [unknown, string][] = [
        [{ path: 5 }, `${owner}'s path must be the database file's path (or ":memory:"); it got 5.`],
        [{}, `${owner}'s path must be the database file's path (or ":memory:"); it got nothing.`],
        [{ path: "  " }, `${owner}'s path must be the database file's path (or ":memory:"); it got "  ".`],
        [{ path, pth: "x" }, `${owner} has no option "pth": it takes path, driver, synchronous, busyTimeoutMs${services.find(([name]) => name === owner)![2]}. Check its spelling.`],
        [{ path, synchronous: "off" }, `${owner}'s synchronous is "full" (the default: every append durable once it returns) or "normal"; it got "off".`],
        [{ path, busyTimeoutMs: -1 }, `${owner}'s busyTimeoutMs is a whole number of milliseconds, 0 or more; it got -1.`],
        [{ path, busyTimeoutMs: 1.5 }, `${owner}'s busyTimeoutMs is a whole number of milliseconds, 0 or more; it got 1.5.`],
      ];
      for (const [options, message] of cases) {
        const error = await refusal(() => make(options));
        expect(error, JSON.stringify(options)).toBeInstanceOf(ConfigurationError);
        expect([error.code, error.message]).toEqual(["UNSUPPORTED_OPTION", message]);
      }
    }
    // The credential service takes its cipher beside the file: given nothing or a path alone, it says the call.
    for (const [owner, make] of [
      ["SqliteSessionService", (options: unknown) => new SqliteSessionService(options as never)],
      ["SqliteMemoryService", (options: unknown) => new SqliteMemoryService(options as never)],
      ["SqliteCredentialService", (options: unknown) => new SqliteCredentialService(options as never)],
    ] as const) {
      const alone = await refusal(() => make(path));
      expect([alone.code, alone.message]).toEqual(["UNSUPPORTED_OPTION", `${owner} takes an options object, not a string: new ${owner}({ path: ${JSON.stringify(path)} }), or { database } with a database from openSqliteDatabase.`]);
      const nothing = await refusal(() => make(undefined));
      expect(nothing.message).toBe(`${owner} takes an options object: new ${owner}({ path: ".toolsmith/toolsmith.db" }), or { database } with a database from openSqliteDatabase.`);
    }
    const opened = await refusal(() => openSqliteDatabase(path as never));
    expect(opened.message).toBe(`openSqliteDatabase takes an options object, not a string: openSqliteDatabase({ path: ${JSON.stringify(path)} }).`);
    expect(existsSync(join(dir, "never"))).toBe(false);
  });

  it("leave a database in use as it was: its sessions, events, memories and credentials read back the same", async () => {
    const path = join(dir, "kept.db");
    const sessions = new SqliteSessionService({ path });
    const session = await sessions.createSession({ appName: "app", userId: "ada", state: { plan: "tuesday" } });
    await sessions.appendEvent({ session, event: createEvent({ author: "user", content: { role: "user", parts: [{ text: "hello" }] } }) });
    const credentials = new SqliteCredentialService({ path, cipher });
    await credentials.saveCredential({ context: { appName: "app", userId: "ada", state: session.state } as never, credentialKey: "k", credential: { authType: "apiKey", apiKey: "secret" } });
    const before = await sessions.getSession({ appName: "app", userId: "ada", sessionId: session.id });
    const memory = new SqliteMemoryService({ path });
    await memory.addSessionToMemory(before!);
    const remembered = await memory.searchMemory({ appName: "app", userId: "ada", query: "hello" });
    expect(remembered.memories).toHaveLength(1);

    for (const options of [{ path, pth: 1 }, { path, synchronous: "OFF" }, { path, busyTimeoutMs: "5s" }, path]) {
      for (const make of [(given: unknown) => new SqliteSessionService(given as never), (given: unknown) => new SqliteMemoryService(given as never), (given: unknown) => new SqliteCredentialService(given as never)]) {
        expect((await refusal(() => make(options))).code).toBe("UNSUPPORTED_OPTION");
      }
    }
    expect(await sessions.getSession({ appName: "app", userId: "ada", sessionId: session.id })).toEqual(before);
    expect(await memory.searchMemory({ appName: "app", userId: "ada", query: "hello" })).toEqual(remembered);
    expect(await credentials.loadCredential({ context: { appName: "app", userId: "ada", state: session.state } as never, credentialKey: "k" })).toEqual({ authType: "apiKey", apiKey: "secret" });
    expect(readdirSync(dir).filter((name) => name.startsWith("kept.db")).sort()).toEqual(["kept.db", "kept.db-shm", "kept.db-wal"]);
    await sessions.close();
    await memory.close();
    await credentials.close();
  });

  it("accept a busy wait of 0 (fail at once on another process's lock) and the database form with the cipher", async () => {
    const zero = new SqliteSessionService({ path: join(dir, "zero.db"), busyTimeoutMs: 0 });
    await zero.createSession({ appName: "app", userId: "u" });
    await zero.close();
    const database = openSqliteDatabase({ path: join(dir, "shared.db") });
    const shared = new SqliteCredentialService({ database, cipher });
    const misspelt = await refusal(() => new SqliteCredentialService({ database, cipher, path: "x.db" } as never));
    expect(misspelt.message).toBe('SqliteCredentialService has no option "path": it takes database, cipher. Check its spelling.');
    await shared.close();
    database.close();
  });
});

describe("the file artifact service given a root it cannot use", () => {
  it("refuses nothing, an empty root and a misspelt option, where it would have written into the working folder or thrown a TypeError", async () => {
    const cases: [unknown, string][] = [
      [undefined, `FileArtifactService takes an options object: new FileArtifactService({ root: ".toolsmith/artifacts" }), or the folder's path alone.`],
      ["", `FileArtifactService's root must be the artifacts folder's path or file:// URL; it got an empty string.`],
      [{ root: "" }, `FileArtifactService's root must be the artifacts folder's path or file:// URL; it got an empty string.`],
      [{}, `FileArtifactService's root must be the artifacts folder's path or file:// URL; it got nothing.`],
      [{ rootDir: dir }, `FileArtifactService has no option "rootDir": it takes root. Check its spelling.`],
    ];
    for (const [options, message] of cases) {
      const error = await refusal(() => new FileArtifactService(options as never));
      expect([error.code, error.message], JSON.stringify(options)).toEqual(["UNSUPPORTED_OPTION", message]);
    }
    // Both forms still work.
    const root = join(dir, "artifacts");
    for (const service of [new FileArtifactService(root), new FileArtifactService({ root })]) {
      expect(await service.saveArtifact({ appName: "a", userId: "u", sessionId: "s", filename: "f.txt", artifact: { text: "x" } })).toBeGreaterThanOrEqual(0);
    }
  });
});

describe("PostgreSQL and S3 services given options they cannot use", () => {
  it("refuse them before connecting: a server that is not there is never asked", async () => {
    const port = await freePort();
    const url = `postgres://toolsmith:secret@127.0.0.1:${port}/toolsmith`;
    const opens = [
      ["PostgresSessionService", (options: unknown) => PostgresSessionService.open(options as never), ""],
      ["PostgresMemoryService", (options: unknown) => PostgresMemoryService.open(options as never), ""],
      ["PostgresArtifactService", (options: unknown) => PostgresArtifactService.open(options as never), ", chunkBytes"],
      ["PostgresCredentialService", (options: unknown) => PostgresCredentialService.open({ ...(typeof options === "object" ? options : {}), cipher } as never), ", cipher"],
    ] as const;
    for (const [owner, open, extra] of opens) {
      const cases: [unknown, string][] = [
        [{ connectionString: url, maxConnection: 5 }, `${owner} has no option "maxConnection": it takes connectionString, connectTimeoutMs, maxConnections${extra}. Check its spelling.`],
        [{ connectionString: url, connectTimeoutMs: 0 }, `${owner}'s connectTimeoutMs must be a positive whole number; it got 0.`],
        [{ connectionString: url, maxConnections: "10" }, `${owner}'s maxConnections must be a positive whole number; it got "10".`],
        [{ connectionString: "" }, `${owner}'s connectionString must be the database's URL (postgres://user:password@host:5432/database); it got an empty string.`],
        [{ url }, `${owner} has no option "url": it takes connectionString, connectTimeoutMs, maxConnections${extra}. Check its spelling.`],
        [{ pool: {} }, `${owner}'s pool must be a pg.Pool (new pg.Pool({ connectionString })); it got an object without query and connect.`],
      ];
      for (const [options, message] of cases) {
        const error = await refusal(() => open(options));
        expect([error.code, error.message], `${owner} ${JSON.stringify(options)}`).toEqual(["UNSUPPORTED_OPTION", message]);
      }
    }
    const alone = await refusal(() => PostgresSessionService.open(url as never));
    // The password is not repeated in the message.
    expect(alone.message).toBe(`PostgresSessionService takes an options object, not a string: PostgresSessionService.open({ connectionString: "postgres://toolsmith:***@127.0.0.1:${port}/toolsmith" }), or { pool } with a pg.Pool to share.`);
    expect((await refusal(() => PostgresArtifactService.open({ connectionString: url, chunkBytes: 0 }))).message).toBe("PostgresArtifactService's chunkBytes must be a positive whole number; it got 0.");
  });

  it("refuses S3 options that are not one, before asking the store", async () => {
    expect((await refusal(() => S3ArtifactService.open("s3://bucket/prefix" as never))).message).toBe(
      'S3ArtifactService takes an options object, not a string: S3ArtifactService.open({ bucket, prefix }), or createArtifactService("s3://bucket/prefix").',
    );
    expect((await refusal(() => S3ArtifactService.open({ bucket: "b", region: "eu-west-1" } as never))).message).toBe('S3ArtifactService has no option "region": it takes bucket, prefix, clientConfig, client. Check its spelling.');
    expect((await refusal(() => S3ArtifactService.open({ bucket: "b", prefix: 5 } as never))).message).toBe('S3ArtifactService\'s prefix is a key prefix such as "team-a/artifacts"; it got number.');
  });
});
