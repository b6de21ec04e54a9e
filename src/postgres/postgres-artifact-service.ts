import type pg from "pg";
import { artifactVersionOf, chosenVersion, decodeArtifact, encodeArtifact, type StoredArtifactMetadata } from "../artifacts/artifact-encoding.js";
import { assertArtifactKey, isUserScopedArtifact } from "../artifacts/artifact-name.js";
import type { ArtifactKey, ArtifactService, ArtifactVersion, ListArtifactsRequest, LoadArtifactRequest, SaveArtifactRequest } from "../artifacts/artifact-service.js";
import type { Part } from "../content/content.js";
import { checkPostgresOptions, inTransaction, openPostgresComponent, positiveWholeOption, type PostgresOptions } from "./postgres-database.js";

const MIGRATIONS = [
  `CREATE TABLE toolsmith_artifacts (
     id bigserial PRIMARY KEY,
     app_name text NOT NULL, user_id text NOT NULL, session_id text NOT NULL, filename text NOT NULL, version integer NOT NULL,
     metadata jsonb NOT NULL, size bigint NOT NULL,
     UNIQUE (app_name, user_id, session_id, filename, version));
   CREATE TABLE toolsmith_artifact_chunks (
     artifact_id bigint NOT NULL REFERENCES toolsmith_artifacts (id) ON DELETE CASCADE,
     chunk integer NOT NULL, data bytea NOT NULL,
     PRIMARY KEY (artifact_id, chunk));`,
];

/** Bytes per stored chunk. */
const CHUNK_BYTES = 1024 * 1024;
/** Chunks fetched per query when loading. */
const CHUNKS_PER_READ = 4;

/** Options of {@link PostgresArtifactService.open}: the connection, and optionally the chunk size (tests use small ones). */
export type PostgresArtifactOptions = PostgresOptions & { chunkBytes?: number };

/**
 * Artifacts in PostgreSQL, so every server process over one database sees the
 * same files: versions from 0, MIME type, display name and custom metadata,
 * `user:` names shared by the user's sessions. The bytes are kept in 1 MiB
 * chunks (`toolsmith_artifact_chunks`) written in the version's own
 * transaction, so a version is visible whole or not at all, no single value
 * comes near PostgreSQL's 1 GB limit, and a load reads a few chunks at a time
 * into one buffer rather than the whole artifact as one hex string twice its
 * size. Two processes saving the same name at once get different versions (an
 * advisory lock per name). Create it with {@link PostgresArtifactService.open}.
 *
 * @example
 * ```ts
 * import { PostgresArtifactService } from "toolsmith/postgres";
 * const artifactService = await PostgresArtifactService.open({ connectionString: process.env.DATABASE_URL! });
 * ```
 */
export class PostgresArtifactService implements ArtifactService {
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  readonly #chunkBytes: number;

  private constructor(pool: pg.Pool, ownsPool: boolean, chunkBytes: number) {
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#chunkBytes = chunkBytes;
  }

  /** Connects, creates or upgrades the tables, and returns the service. */
  static async open(options: PostgresArtifactOptions): Promise<PostgresArtifactService> {
    checkPostgresOptions("PostgresArtifactService", options, ["chunkBytes"]);
    positiveWholeOption("PostgresArtifactService", "chunkBytes", options.chunkBytes);
    const { pool, ownsPool } = await openPostgresComponent("PostgresArtifactService", options, "artifacts", MIGRATIONS, { extraKeys: ["chunkBytes"] });
    return new PostgresArtifactService(pool, ownsPool, options.chunkBytes ?? CHUNK_BYTES);
  }

  async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    const key = rowKey(request);
    const { bytes, metadata } = encodeArtifact(request);
    return inTransaction(this.#pool, async (client) => {
      // One saver per name at a time, across processes; released at commit or rollback.
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [JSON.stringify(key)]);
      const inserted = await client.query<{ id: string; version: number }>(
        `INSERT INTO toolsmith_artifacts (app_name, user_id, session_id, filename, version, metadata, size)
         SELECT $1, $2, $3, $4, coalesce(max(version) + 1, 0), $5, $6 FROM toolsmith_artifacts
         WHERE app_name = $1 AND user_id = $2 AND session_id = $3 AND filename = $4
         RETURNING id, version`,
        [...key, JSON.stringify(metadata), bytes.length],
      );
      const { id, version } = inserted.rows[0]!;
      for (let offset = 0, chunk = 0; offset < bytes.length; offset += this.#chunkBytes, chunk++) {
        await client.query("INSERT INTO toolsmith_artifact_chunks (artifact_id, chunk, data) VALUES ($1, $2, $3)", [id, chunk, bytes.subarray(offset, offset + this.#chunkBytes)]);
      }
      return version;
    });
  }

  async loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined> {
    const key = rowKey(request);
    // One snapshot for the row and its chunks, so a delete or save running meanwhile cannot tear the read.
    return inTransaction(this.#pool, async (client) => {
      await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
      const row = await findVersion(client, key, request.version);
      if (!row) return undefined;
      const bytes = Buffer.alloc(Number(row.size));
      let filled = 0;
      for (let chunk = 0; filled < bytes.length; chunk += CHUNKS_PER_READ) {
        const chunks = await client.query<{ data: Buffer }>(
          "SELECT data FROM toolsmith_artifact_chunks WHERE artifact_id = $1 AND chunk >= $2 AND chunk < $3 ORDER BY chunk",
          [row.id, chunk, chunk + CHUNKS_PER_READ],
        );
        if (chunks.rows.length === 0) break;
        for (const { data } of chunks.rows) filled += data.copy(bytes, filled);
      }
      return decodeArtifact(bytes.subarray(0, filled), row.metadata);
    });
  }

  async getArtifactVersion(request: LoadArtifactRequest): Promise<ArtifactVersion | undefined> {
    const row = await findVersion(this.#pool, rowKey(request), request.version);
    return row && artifactVersionOf(row.version, row.metadata);
  }

  async listArtifactVersions(request: ArtifactKey): Promise<ArtifactVersion[]> {
    const result = await this.#pool.query<{ version: number; metadata: StoredArtifactMetadata }>(
      "SELECT version, metadata FROM toolsmith_artifacts WHERE app_name = $1 AND user_id = $2 AND session_id = $3 AND filename = $4 ORDER BY version",
      rowKey(request),
    );
    return result.rows.map((row) => artifactVersionOf(row.version, row.metadata));
  }

  async listArtifactKeys(request: ListArtifactsRequest): Promise<string[]> {
    assertArtifactKey(request, { listing: true });
    const result = await this.#pool.query<{ filename: string }>(
      `SELECT DISTINCT filename FROM toolsmith_artifacts
       WHERE app_name = $1 AND user_id = $2 AND (session_id = $3 OR (session_id = '' AND starts_with(filename, 'user:')))`,
      [request.appName, request.userId, request.sessionId],
    );
    return result.rows.map((row) => row.filename).sort();
  }

  async deleteArtifact(request: ArtifactKey): Promise<void> {
    // The chunks go with their rows (ON DELETE CASCADE), in the same statement.
    await this.#pool.query("DELETE FROM toolsmith_artifacts WHERE app_name = $1 AND user_id = $2 AND session_id = $3 AND filename = $4", rowKey(request));
  }

  async listVersions(request: ArtifactKey): Promise<number[]> {
    const result = await this.#pool.query<{ version: number }>(
      "SELECT version FROM toolsmith_artifacts WHERE app_name = $1 AND user_id = $2 AND session_id = $3 AND filename = $4 ORDER BY version",
      rowKey(request),
    );
    return result.rows.map((row) => row.version);
  }

  /** Ends the pool, when this service made it. */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.end();
  }
}

/** App, user, session (`''` for the user's shared `user:` names, which no session name can be) and name. */
function rowKey(key: ArtifactKey): [string, string, string, string] {
  assertArtifactKey(key);
  return [key.appName, key.userId, isUserScopedArtifact(key.filename) ? "" : key.sessionId, key.filename];
}

interface VersionRow {
  id: string;
  version: number;
  size: string;
  metadata: StoredArtifactMetadata;
}

/** The row of the version asked for (the latest when none is), or `undefined`. */
async function findVersion(client: pg.Pool | pg.PoolClient, key: [string, string, string, string], requested: number | undefined): Promise<VersionRow | undefined> {
  // A version no integer column can hold was never stored; asking for it is not an error.
  if (requested !== undefined && (chosenVersion(requested, []) === undefined || requested > 2 ** 31 - 1)) return undefined;
  const result = await client.query<VersionRow>(
    `SELECT id, version, size, metadata FROM toolsmith_artifacts
     WHERE app_name = $1 AND user_id = $2 AND session_id = $3 AND filename = $4 AND ($5::integer IS NULL OR version = $5)
     ORDER BY version DESC LIMIT 1`,
    [...key, requested ?? null],
  );
  return result.rows[0];
}
