/**
 * What PostgresArtifactService adds to the shared conformance: large binaries
 * kept in chunks (checked in the tables themselves), versions handed out
 * across connection pools as across processes, and a createArtifactService
 * URI that is the sessions' own.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArtifactService, createSessionService } from "../../src/index.js";
import { PostgresArtifactService } from "../../src/postgres/index.js";
import { freshDatabase, postgresMissing, postgresUrl } from "../support/postgres.js";

const session = { appName: "app", userId: "u", sessionId: "s1" };

describe.skipIf(!postgresUrl)(`PostgresArtifactService ${postgresMissing}`, () => {
  let url = "";
  let sql: pg.Client;
  beforeAll(async () => {
    url = await freshDatabase();
    sql = new pg.Client({ connectionString: url });
    await sql.connect();
  });
  afterAll(() => sql?.end());

  it("keeps a 24 MiB binary in 1 MiB chunks and gives back the same bytes", async () => {
    const service = await PostgresArtifactService.open({ connectionString: url });
    try {
      const bytes = randomBytes(24 * 1024 * 1024 + 17);
      let started = performance.now();
      const version = await service.saveArtifact({ ...session, filename: "big.bin", artifact: { inlineData: { mimeType: "application/octet-stream", data: bytes.toString("base64") } } });
      const saveMs = performance.now() - started;
      started = performance.now();
      const loaded = await service.loadArtifact({ ...session, filename: "big.bin" });
      const loadMs = performance.now() - started;
      expect(Buffer.from(loaded!.inlineData!.data!, "base64").equals(bytes)).toBe(true);
      const chunks = await sql.query<{ count: number; largest: number }>(
        `SELECT count(*)::int AS count, max(length(c.data))::int AS largest FROM toolsmith_artifact_chunks c JOIN toolsmith_artifacts a ON a.id = c.artifact_id WHERE a.filename = 'big.bin' AND a.version = $1`,
        [version],
      );
      expect(chunks.rows[0]).toEqual({ count: 25, largest: 1024 * 1024 });
      console.log(`PostgreSQL artifact of ${(bytes.length / 2 ** 20).toFixed(1)} MiB: saved in ${saveMs.toFixed(0)} ms, loaded in ${loadMs.toFixed(0)} ms, ${chunks.rows[0]!.count} chunks`);
      await service.deleteArtifact({ ...session, filename: "big.bin" });
      expect((await sql.query("SELECT count(*)::int AS count FROM toolsmith_artifact_chunks")).rows[0]).toEqual({ count: 0 });
    } finally {
      await service.close();
    }
  });

  it("hands out distinct versions to two pools (two processes' worth) saving the same name at once", async () => {
    const [a, b] = await Promise.all([PostgresArtifactService.open({ connectionString: url }), PostgresArtifactService.open({ connectionString: url })]);
    try {
      const saves = Array.from({ length: 30 }, (_, index) => (index % 2 ? a : b).saveArtifact({ ...session, filename: "race.txt", artifact: { text: `save ${index}` } }));
      const versions = await Promise.all(saves);
      expect([...versions].sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, index) => index));
      for (const [index, version] of versions.entries()) expect(await b.loadArtifact({ ...session, filename: "race.txt", version })).toEqual({ text: `save ${index}` });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("rolls a save back whole when its custom metadata cannot be stored, keeping earlier versions", async () => {
    const service = await PostgresArtifactService.open({ connectionString: url });
    try {
      await service.saveArtifact({ ...session, filename: "kept.txt", artifact: { text: "v0" } });
      // JSON, but with a character PostgreSQL's jsonb refuses: the insert fails inside the transaction.
      await expect(service.saveArtifact({ ...session, filename: "kept.txt", artifact: { text: "v1" }, customMetadata: { bad: "\u0000" } })).rejects.toThrow(/unsupported Unicode escape sequence|\\u0000/);
      expect(await service.listVersions({ ...session, filename: "kept.txt" })).toEqual([0]);
      expect(await service.saveArtifact({ ...session, filename: "kept.txt", artifact: { text: "v1" } })).toBe(1);
    } finally {
      await service.close();
    }
  });

  it("opens from the same postgresql:// URI the sessions use, and names the URI's schemes when it is not one", async () => {
    const sessions = await createSessionService(url);
    const artifacts = await createArtifactService(url.replace(/^postgres:/, "postgresql:"));
    try {
      await artifacts.saveArtifact({ ...session, filename: "via-uri.txt", artifact: { text: "here" } });
      expect(await artifacts.listArtifactKeys(session)).toContain("via-uri.txt");
    } finally {
      await Promise.all([sessions.close(), artifacts.close()]);
    }
    await expect(createArtifactService("redis://localhost/0")).rejects.toThrow(
      '"redis://localhost/0" does not name an artifact service. Use one of: memory://, file://, postgres://, postgresql://, s3:// (for example file://.toolsmith/artifacts).',
    );
  });

  it("fails at open with the address (password hidden) when the server cannot be reached, storing nothing", async () => {
    const error = await PostgresArtifactService.open({ connectionString: "postgresql://someone:secret@127.0.0.1:1/none", connectTimeoutMs: 2000 }).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/^Could not connect to PostgreSQL at postgresql:\/\/someone:\*\*\*@127\.0\.0\.1:1\/none \(.*ECONNREFUSED.*\)\. Check that the server is running and the URL is right; nothing was stored\.$/);
  });
});
