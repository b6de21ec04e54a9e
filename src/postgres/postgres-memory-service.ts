import type pg from "pg";
import type { MemoryEntry, MemoryService, SearchMemoryRequest, SearchMemoryResponse } from "../memory/memory-service.js";
import { DEFAULT_MEMORY_LIMIT, memoriesOf, searchRequestWords } from "../memory/memory-text.js";
import type { Session } from "../sessions/session.js";
import { inTransaction, openPostgresComponent, type PostgresOptions } from "./postgres-database.js";

const MIGRATIONS = [
  `CREATE TABLE toolsmith_memories (
     id bigserial PRIMARY KEY,
     app_name text NOT NULL, user_id text NOT NULL, session_id text NOT NULL, event_id text NOT NULL,
     entry text NOT NULL, text text NOT NULL,
     search tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED);
   CREATE INDEX toolsmith_memories_by_session ON toolsmith_memories (app_name, user_id, session_id);
   CREATE INDEX toolsmith_memories_search ON toolsmith_memories USING gin (search);`,
];

/**
 * Long-term memory in PostgreSQL, searched with its full-text search (English
 * stemming, `websearch_to_tsquery`) and ranked by `ts_rank`. A query matches
 * entries holding any of its words. Always scoped to one user. Create it with
 * {@link PostgresMemoryService.open}.
 *
 * @example
 * ```ts
 * import { PostgresMemoryService } from "toolsmith/postgres";
 * const memoryService = await PostgresMemoryService.open({ connectionString: process.env.DATABASE_URL! });
 * ```
 */
export class PostgresMemoryService implements MemoryService {
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;

  private constructor(pool: pg.Pool, ownsPool: boolean) {
    this.#pool = pool;
    this.#ownsPool = ownsPool;
  }

  /** Connects, creates or upgrades the tables, and returns the service. */
  static async open(options: PostgresOptions): Promise<PostgresMemoryService> {
    const { pool, ownsPool } = await openPostgresComponent("PostgresMemoryService", options, "memory", MIGRATIONS);
    return new PostgresMemoryService(pool, ownsPool);
  }

  async addSessionToMemory(session: Session): Promise<void> {
    const memories = memoriesOf(session);
    await inTransaction(this.#pool, async (client) => {
      await client.query("DELETE FROM toolsmith_memories WHERE app_name = $1 AND user_id = $2 AND session_id = $3", [session.appName, session.userId, session.id]);
      if (memories.length > 0) {
        await client.query(
          `INSERT INTO toolsmith_memories (app_name, user_id, session_id, event_id, entry, text)
           SELECT $1, $2, $3, m.event_id, m.entry, m.text FROM unnest($4::text[], $5::text[], $6::text[]) AS m (event_id, entry, text)`,
          [
            session.appName,
            session.userId,
            session.id,
            memories.map((memory) => memory.eventId),
            memories.map((memory) => JSON.stringify(memory.entry)),
            memories.map((memory) => memory.text),
          ],
        );
      }
    });
  }

  async searchMemory(request: SearchMemoryRequest): Promise<SearchMemoryResponse> {
    const words = [...new Set(searchRequestWords(request))];
    if (words.length === 0) return { memories: [] };
    // "a or b": any word matches, as in the other memory services; websearch_to_tsquery never fails on user text.
    const result = await this.#pool.query<{ entry: string }>(
      `SELECT m.entry FROM toolsmith_memories m, websearch_to_tsquery('english', $3) q
       WHERE m.app_name = $1 AND m.user_id = $2 AND m.search @@ q
       ORDER BY ts_rank(m.search, q) DESC, m.id LIMIT $4`,
      [request.appName, request.userId, words.join(" or "), request.limit ?? DEFAULT_MEMORY_LIMIT],
    );
    return { memories: result.rows.map((row) => JSON.parse(row.entry) as MemoryEntry) };
  }

  /** Ends the pool, when this service made it. */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.end();
  }
}
