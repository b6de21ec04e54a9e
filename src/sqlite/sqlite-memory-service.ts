import type { MemoryEntry, MemoryService, SearchMemoryRequest, SearchMemoryResponse } from "../memory/memory-service.js";
import { DEFAULT_MEMORY_LIMIT, memoriesOf, searchRequestWords } from "../memory/memory-text.js";
import type { Session } from "../sessions/session.js";
import { openSqliteService, translateSqliteError, type SqliteServiceOptions } from "./sqlite-database.js";
import type { SqliteDatabase } from "./sqlite-driver.js";

const MIGRATIONS = [
  `CREATE TABLE toolsmith_memories (
     rowid INTEGER PRIMARY KEY,
     app_name TEXT NOT NULL, user_id TEXT NOT NULL, session_id TEXT NOT NULL, event_id TEXT NOT NULL,
     entry TEXT NOT NULL, text TEXT NOT NULL);
   CREATE INDEX toolsmith_memories_by_session ON toolsmith_memories (app_name, user_id, session_id);
   CREATE VIRTUAL TABLE toolsmith_memories_fts USING fts5 (text, content = 'toolsmith_memories', content_rowid = 'rowid', tokenize = 'porter unicode61');
   CREATE TRIGGER toolsmith_memories_added AFTER INSERT ON toolsmith_memories BEGIN
     INSERT INTO toolsmith_memories_fts (rowid, text) VALUES (new.rowid, new.text);
   END;
   CREATE TRIGGER toolsmith_memories_removed AFTER DELETE ON toolsmith_memories BEGIN
     INSERT INTO toolsmith_memories_fts (toolsmith_memories_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
   END;`,
];

/**
 * Long-term memory in a SQLite file, searched with FTS5 (Porter stemming) and
 * ranked by BM25. A query matches entries holding any of its words; entries
 * holding more of them, and rarer ones, rank first. Always scoped to one user.
 *
 * @example
 * ```ts
 * import { SqliteMemoryService } from "toolsmith/sqlite";
 * const memoryService = new SqliteMemoryService({ path: ".toolsmith/toolsmith.db" });
 * ```
 */
export class SqliteMemoryService implements MemoryService {
  readonly #database: SqliteDatabase;
  readonly #ownsDatabase: boolean;
  readonly #sql;

  constructor(options: SqliteServiceOptions) {
    ({ database: this.#database, ownsDatabase: this.#ownsDatabase } = openSqliteService("SqliteMemoryService", options, "memory", MIGRATIONS));
    this.#sql = {
      forget: this.#database.prepare("DELETE FROM toolsmith_memories WHERE app_name = ? AND user_id = ? AND session_id = ?"),
      remember: this.#database.prepare("INSERT INTO toolsmith_memories (app_name, user_id, session_id, event_id, entry, text) VALUES (?, ?, ?, ?, ?, ?)"),
      search: this.#database.prepare(
        `SELECT m.entry FROM toolsmith_memories_fts f JOIN toolsmith_memories m ON m.rowid = f.rowid
         WHERE toolsmith_memories_fts MATCH ? AND m.app_name = ? AND m.user_id = ?
         ORDER BY bm25(toolsmith_memories_fts) LIMIT ?`,
      ),
    };
  }

  async addSessionToMemory(session: Session): Promise<void> {
    const memories = memoriesOf(session);
    try {
      this.#database.transaction("immediate", () => {
        this.#sql.forget.run(session.appName, session.userId, session.id);
        for (const memory of memories) {
          this.#sql.remember.run(session.appName, session.userId, session.id, memory.eventId, JSON.stringify(memory.entry), memory.text);
        }
      });
    } catch (error) {
      throw translateSqliteError(this.#database.name, error);
    }
  }

  async searchMemory(request: SearchMemoryRequest): Promise<SearchMemoryResponse> {
    const words = [...new Set(searchRequestWords(request))];
    if (words.length === 0) return { memories: [] };
    // Each word quoted, so the user's text can never be read as FTS5 query syntax.
    const match = words.map((word) => `"${word}"`).join(" OR ");
    try {
      const rows = this.#sql.search.values(match, request.appName, request.userId, request.limit ?? DEFAULT_MEMORY_LIMIT) as string[];
      return { memories: rows.map((row) => JSON.parse(row) as MemoryEntry) };
    } catch (error) {
      throw translateSqliteError(this.#database.name, error);
    }
  }

  /** Closes the file, when this service opened it. */
  async close(): Promise<void> {
    if (this.#ownsDatabase) this.#database.close();
  }
}
