import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError, createArtifactService, createMemoryService, createSessionService, DEFAULT_ARTIFACT_URI, InMemoryArtifactService, InMemoryMemoryService, InMemorySessionService } from "../../src/index.js";
import { FileArtifactService } from "../../src/artifacts/file/index.js";
import { DEFAULT_DATABASE_PATH, DEFAULT_DATABASE_URI, importWithDriver, parseServiceUri } from "../../src/services/service-uri.js";
import { SqliteSessionService } from "../../src/sqlite/index.js";
import { tempDir } from "../support/temp-dir.js";

const dir = tempDir();
const session = { service: "session", schemes: ["memory", "sqlite", "postgres", "postgresql"] };

describe("parseServiceUri", () => {
  it("gives the path after sqlite:// and file://, absolute with a third slash", () => {
    expect(parseServiceUri("sqlite://data/app.db", session)).toEqual({ scheme: "sqlite", location: "data/app.db" });
    expect(parseServiceUri("sqlite:///var/lib/app.db", session)).toEqual({ scheme: "sqlite", location: "/var/lib/app.db" });
    expect(parseServiceUri("file:///srv/artifacts", { service: "artifact", schemes: ["memory", "file"] })).toEqual({ scheme: "file", location: "/srv/artifacts" });
  });

  it("keeps the whole URI for PostgreSQL, which its driver reads", () => {
    const uri = "postgresql://user:pw@db.example:5433/app?sslmode=require";
    expect(parseServiceUri(uri, session)).toEqual({ scheme: "postgresql", location: uri });
  });

  it("takes the scheme in any case", () => {
    expect(parseServiceUri("SQLite://x.db", session)).toEqual({ scheme: "sqlite", location: "x.db" });
    expect(parseServiceUri("MEMORY://", session).scheme).toBe("memory");
  });

  it("needs no path for memory:// but one for the others", () => {
    expect(parseServiceUri("memory://", session)).toEqual({ scheme: "memory", location: "" });
    expect(() => parseServiceUri("file://", { service: "artifact", schemes: ["file"] })).toThrow('"file://" names no path. Write it as file://<path>.');
  });

  it.each(["", "memory", "sqlite:x.db", "://x", "1db://x"])("refuses %j, which names no scheme, with UNKNOWN_SERVICE_URI", (uri) => {
    const error = (() => {
      try {
        parseServiceUri(uri, session);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ code: "UNKNOWN_SERVICE_URI" });
  });

  it("gives an example the service takes", () => {
    expect(() => parseServiceUri("s3://b", { service: "artifact", schemes: ["memory", "file"], example: "file://x" })).toThrow('"s3://b" does not name an artifact service. Use one of: memory://, file:// (for example file://x).');
    expect(() => parseServiceUri("x://y", session)).toThrow(`(for example ${DEFAULT_DATABASE_URI})`);
  });

  it("defaults sessions and memory to .toolsmith/toolsmith.db", () => {
    expect(DEFAULT_DATABASE_PATH).toBe(".toolsmith/toolsmith.db");
    expect(DEFAULT_DATABASE_URI).toBe("sqlite://.toolsmith/toolsmith.db");
    expect(DEFAULT_ARTIFACT_URI).toBe("file://.toolsmith/artifacts");
  });
});

describe("importWithDriver", () => {
  it("passes a missing module other than the driver through as it is", async () => {
    const name = "toolsmith-no-such-module-here";
    const error = await importWithDriver(() => import(name), { packageName: "pg", scheme: "postgres" }).catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).toBe("ERR_MODULE_NOT_FOUND");
    expect(error).not.toBeInstanceOf(ConfigurationError);
  });

  it("passes any other failure through, and a success's value", async () => {
    const failure = new Error("syntax error in driver");
    await expect(importWithDriver(() => Promise.reject(failure), { packageName: "pg", scheme: "postgres" })).rejects.toBe(failure);
    await expect(importWithDriver(async () => ({ loaded: true }), { packageName: "pg", scheme: "postgres" })).resolves.toEqual({ loaded: true });
  });

  it("keeps the original error as the cause of DRIVER_MISSING", async () => {
    const missing = Object.assign(new Error("Cannot find package 'pg' imported from /x.js"), { code: "ERR_MODULE_NOT_FOUND" });
    const error = await importWithDriver(() => Promise.reject(missing), { packageName: "pg", scheme: "postgresql" }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "DRIVER_MISSING", message: "postgresql:// needs the optional package pg, which is not installed. Run: npm install pg", cause: missing });
  });
});

describe("creating services by URI", () => {
  it("makes a fresh in-memory service per memory:// call", async () => {
    const first = await createSessionService("memory://");
    const second = await createSessionService("memory://");
    expect(first).toBeInstanceOf(InMemorySessionService);
    await first.createSession({ appName: "a", userId: "u", sessionId: "s" });
    expect(await second.getSession({ appName: "a", userId: "u", sessionId: "s" })).toBeUndefined();
    expect(await createArtifactService("memory://")).toBeInstanceOf(InMemoryArtifactService);
    expect(await createMemoryService("memory://")).toBeInstanceOf(InMemoryMemoryService);
  });

  it("opens a SQLite file whose sessions a second service over the same URI reads", async () => {
    const uri = `sqlite://${join(dir, "shared.db")}`;
    const writer = await createSessionService(uri);
    await writer.createSession({ appName: "a", userId: "u", sessionId: "kept", state: { n: 1 } });
    await writer.close();
    const reader = await createSessionService(uri);
    expect(reader).toBeInstanceOf(SqliteSessionService);
    expect((await reader.getSession({ appName: "a", userId: "u", sessionId: "kept" }))!.state).toEqual({ n: 1 });
    await reader.close();
  });

  it("keeps file:// artifacts in the folder it names, created on the first save", async () => {
    const root = join(dir, "by-uri", "artifacts");
    const service = await createArtifactService(`file://${root}`);
    expect(service).toBeInstanceOf(FileArtifactService);
    expect(existsSync(root)).toBe(false);
    await service.saveArtifact({ appName: "a", userId: "u", sessionId: "s", filename: "f.txt", artifact: { text: "x" } });
    expect(existsSync(join(root, "a", "u", "sessions", "s", "f.txt", "0.json"))).toBe(true);
  });
});
