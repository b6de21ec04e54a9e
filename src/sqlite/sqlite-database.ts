import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import Database from "better-sqlite3";
import { StorageError } from "../errors/storage-error.js";

/** A better-sqlite3 connection, as the SQLite services use it. */
export type SqliteDatabase = Database.Database;

/** How a SQLite file is opened. */
export interface OpenSqliteOptions {
  /** The database file; its folder is created when missing. `:memory:` for a private in-memory database. */
  path: string;
  /**
   * `"full"` (the default) makes every append durable once it returns, even on
   * power loss; `"normal"` is faster and may lose the last appends on power
   * loss (never on a process crash), without corrupting the file.
   */
  synchronous?: "full" | "normal";
  /** How long a writer waits for another process's write lock. Default 5,000 ms. */
  busyTimeoutMs?: number;
}

const SCHEMA_TABLE = "toolsmith_schema";

/**
 * Opens a SQLite file for toolsmith: refuses a file that is not a SQLite
 * database or belongs to another program (so nothing is written into it), then
 * turns on write-ahead logging and the chosen durability.
 */
export function openSqliteDatabase(options: OpenSqliteOptions): SqliteDatabase {
  const inMemory = options.path === ":memory:";
  if (!inMemory) mkdirSync(dirname(resolve(options.path)), { recursive: true });
  let database: SqliteDatabase;
  try {
    database = new Database(options.path, { timeout: options.busyTimeoutMs ?? 5_000 });
  } catch (error) {
    throw unusableFile(options.path, error);
  }
  try {
    const tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    if (tables.length > 0 && !tables.includes(SCHEMA_TABLE)) {
      throw new StorageError(
        "SQLITE_FOREIGN_DATABASE",
        `${options.path} is a SQLite database of another program (tables: ${tables.slice(0, 5).join(", ")}${tables.length > 5 ? ", …" : ""}); toolsmith left it untouched. Give sqlite:// a new file, such as .toolsmith/toolsmith.db.`,
      );
    }
    if (!inMemory) database.pragma("journal_mode = WAL");
    database.pragma(`synchronous = ${options.synchronous === "normal" ? "NORMAL" : "FULL"}`);
    return database;
  } catch (error) {
    database.close();
    throw error instanceof StorageError ? error : unusableFile(options.path, error);
  }
}

/**
 * Creates or upgrades one component's tables (`sessions`, `memory`) to the
 * newest of `migrations`, recording the version in `toolsmith_schema`. Runs
 * under the write lock, so two processes opening a new file migrate it once.
 */
export function migrateSqlite(database: SqliteDatabase, component: string, migrations: readonly string[]): void {
  database.exec(`CREATE TABLE IF NOT EXISTS ${SCHEMA_TABLE} (component TEXT PRIMARY KEY, version INTEGER NOT NULL)`);
  const upgrade = database.transaction(() => {
    const row = database.prepare(`SELECT version FROM ${SCHEMA_TABLE} WHERE component = ?`).get(component) as { version: number } | undefined;
    const version = row?.version ?? 0;
    if (version > migrations.length) {
      throw new StorageError(
        "SCHEMA_TOO_NEW",
        `The ${component} tables in ${database.name} are at schema version ${version}, newer than this toolsmith knows (${migrations.length}). Upgrade toolsmith.`,
      );
    }
    for (let next = version; next < migrations.length; next++) database.exec(migrations[next]!);
    database.prepare(`INSERT INTO ${SCHEMA_TABLE} (component, version) VALUES (?, ?) ON CONFLICT (component) DO UPDATE SET version = excluded.version`).run(component, migrations.length);
  });
  upgrade.immediate();
}

/** Turns SQLite's "file is not a database", "malformed" and "busy" errors into a {@link StorageError} naming the file. */
export function translateSqliteError(path: string, error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT") return unusableFile(path, error);
  if (code === "SQLITE_BUSY") {
    return new StorageError(
      "SQLITE_BUSY",
      `${path} stayed locked by another process's write for longer than busyTimeoutMs; nothing was stored. Retry, raise busyTimeoutMs, or use PostgreSQL for many writers.`,
      { cause: error },
    );
  }
  return error;
}

function unusableFile(path: string, error: unknown): StorageError {
  const reason = error instanceof Error ? error.message : String(error);
  return new StorageError(
    "SQLITE_FILE_UNUSABLE",
    `${path} cannot be used as a toolsmith database (${reason}); it was left untouched. Move it away or give sqlite:// another file.`,
    { cause: error },
  );
}
