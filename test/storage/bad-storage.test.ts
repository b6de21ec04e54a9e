import { createServer, type AddressInfo, type Socket } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createArtifactService, createMemoryService, createSessionService, StorageError } from "../../src/index.js";
import { FileArtifactService } from "../../src/artifacts/file/index.js";
import { PostgresMemoryService, PostgresSessionService } from "../../src/postgres/index.js";
import { importWithDriver } from "../../src/services/service-uri.js";
import { SqliteMemoryService, SqliteSessionService } from "../../src/sqlite/index.js";
import { tempDir } from "../support/temp-dir.js";
import { freePort } from "../support/free-port.js";

const dir = tempDir();

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
    await expect(createArtifactService("gs://bucket")).rejects.toThrow(
      '"gs://bucket" does not name an artifact service. Use one of: memory://, file://, postgres://, postgresql://, s3:// (for example file://.toolsmith/artifacts).',
    );
    // Without a region (or with one, at an endpoint that does not answer), opening fails saying what to check, before anything is stored.
    await expect(createArtifactService("s3://bucket?endpoint=http://127.0.0.1:1")).rejects.toMatchObject({
      code: "S3_UNREACHABLE",
      message: expect.stringMatching(/^Could not use s3:\/\/bucket at http:\/\/127\.0\.0\.1:1 \(.+\)\. Check the endpoint, the region \(AWS_REGION or \?region=\)/),
    });
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
    for (const appName of ["..", "."]) {
      await expect(service.saveArtifact({ appName, userId: "u", sessionId: "s", filename: "x.txt", artifact: { text: "x" } })).rejects.toThrow(/cannot be a folder name/);
    }
    // An empty id is refused by every artifact service before any path is made.
    await expect(service.saveArtifact({ appName: "", userId: "u", sessionId: "s", filename: "x.txt", artifact: { text: "x" } })).rejects.toThrow("An artifact request needs appName as a non-empty string; it got an empty string.");
  });
});
