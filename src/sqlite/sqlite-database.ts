import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { StorageError } from "../errors/storage-error.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { describeGiven, refuseNonObjectOptions, refuseUnhonouredOptions } from "../errors/unhonoured-option.js";
import { loadSqliteDriver } from "./sqlite-driver-availability.js";
import type { SqliteDatabase, SqliteDriverName } from "./sqlite-driver.js";

/** How a SQLite file is opened. */
export interface OpenSqliteOptions {
  /** The database file; its folder is created when missing. `:memory:` for a private in-memory database. */
  path: string;
  /**
   * The driver: `"better-sqlite3"` (the package) or `"node:sqlite"` (built into
   * Node 22.13+). Unset, better-sqlite3 when it is installed and loads, else
   * node:sqlite. Both read and write the same files.
   */
  driver?: SqliteDriverName;
  /**
   * `"full"` (the default) makes every append durable once it returns, even on
   * power loss; `"normal"` is faster and may lose the last appends on power
   * loss (never on a process crash), without corrupting the file.
   */
  synchronous?: "full" | "normal";
  /** How long a writer waits for another process's write lock. Default 5,000 ms. */
  busyTimeoutMs?: number;
}

/** What a SQLite service is made from: a file to open, or a database opened already (shared by several services). */
export type SqliteServiceOptions = OpenSqliteOptions | { database: SqliteDatabase };

const OPEN_OPTIONS = ["path", "driver", "synchronous", "busyTimeoutMs"] as const;

const SCHEMA_TABLE = "toolsmith_schema";

/**
 * Refuses, before any file is touched, options a SQLite service cannot use: a path given alone, an unknown option,
 * a path that is not a string, a durability or wait it does not have. `extraKeys` are the service's own options.
 */
export function checkSqliteServiceOptions(owner: string, options: unknown, extraKeys: readonly string[] = []): asserts options is SqliteServiceOptions {
  refuseNonObjectOptions(owner, options, (given) => `new ${owner}({ path: ${JSON.stringify(given ?? ".toolsmith/toolsmith.db")} }), or { database } with a database from openSqliteDatabase`);
  if (options.database !== undefined) {
    refuseUnhonouredOptions(owner, options, ["database", ...extraKeys]);
    return;
  }
  refuseUnhonouredOptions(owner, options, [...OPEN_OPTIONS, ...extraKeys]);
  checkOpenOptions(owner, options);
}

/** A SQLite service's database, and whether the service opened it (and so closes it). */
export interface SqliteServiceDatabase {
  database: SqliteDatabase;
  ownsDatabase: boolean;
}

/**
 * The database of a SQLite service, with its component's tables created or upgraded (then `check` run): the options
 * are checked first ({@link checkSqliteServiceOptions}), and a database the service opened is closed again when a
 * step fails, with the failure in toolsmith's words.
 */
export function openSqliteService(
  owner: string,
  options: unknown,
  component: string,
  migrations: readonly string[],
  { extraKeys = [], check }: { extraKeys?: readonly string[]; check?: (database: SqliteDatabase) => void } = {},
): SqliteServiceDatabase {
  checkSqliteServiceOptions(owner, options, extraKeys);
  const ownsDatabase = !("database" in options);
  const database = "database" in options ? options.database : openCheckedFile(options);
  try {
    migrateSqlite(database, component, migrations);
    check?.(database);
  } catch (error) {
    if (ownsDatabase) database.close();
    throw translateSqliteError(database.name, error);
  }
  return { database, ownsDatabase };
}

function checkOpenOptions(owner: string, options: Record<string, unknown>): void {
  const { path, synchronous, busyTimeoutMs } = options;
  if (typeof path !== "string" || path.trim() === "") {
    throw new ConfigurationError("UNSUPPORTED_OPTION", `${owner}'s path must be the database file's path (or ":memory:"); it got ${describeGiven(path)}.`);
  }
  if (synchronous !== undefined && synchronous !== "full" && synchronous !== "normal") {
    throw new ConfigurationError("UNSUPPORTED_OPTION", `${owner}'s synchronous is "full" (the default: every append durable once it returns) or "normal"; it got ${describeGiven(synchronous)}.`);
  }
  if (busyTimeoutMs !== undefined && (typeof busyTimeoutMs !== "number" || !Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0)) {
    throw new ConfigurationError("UNSUPPORTED_OPTION", `${owner}'s busyTimeoutMs is a whole number of milliseconds, 0 or more; it got ${describeGiven(busyTimeoutMs)}.`);
  }
}

/**
 * Opens a SQLite file for toolsmith: refuses a file that is not a SQLite
 * database or belongs to another program (so nothing is written into it), then
 * turns on write-ahead logging and the chosen durability. Without a usable
 * driver it throws `DRIVER_MISSING` before creating any file or folder.
 *
 * @example
 * ```ts
 * import { openSqliteDatabase, SqliteMemoryService, SqliteSessionService } from "toolsmith/sqlite";
 * const database = openSqliteDatabase({ path: ".toolsmith/toolsmith.db" });
 * const sessionService = new SqliteSessionService({ database });
 * const memoryService = new SqliteMemoryService({ database });
 * ```
 */
export function openSqliteDatabase(options: OpenSqliteOptions): SqliteDatabase {
  refuseNonObjectOptions("openSqliteDatabase", options, (given) => `openSqliteDatabase({ path: ${JSON.stringify(given ?? ".toolsmith/toolsmith.db")} })`);
  refuseUnhonouredOptions("openSqliteDatabase", options, OPEN_OPTIONS);
  checkOpenOptions("openSqliteDatabase", options as unknown as Record<string, unknown>);
  return openCheckedFile(options);
}

/** {@link openSqliteDatabase}'s work, for options already checked (a service checks its own, naming itself). */
function openCheckedFile(options: OpenSqliteOptions): SqliteDatabase {
  const open = loadSqliteDriver(options);
  const inMemory = options.path === ":memory:";
  if (!inMemory) {
    const folder = dirname(resolve(options.path));
    try {
      mkdirSync(folder, { recursive: true });
    } catch (error) {
      throw new StorageError(
        "SQLITE_FILE_UNUSABLE",
        `${options.path} cannot be used as a toolsmith database: its folder ${folder} cannot be made (${error instanceof Error ? error.message : String(error)}). Give sqlite:// a path in a folder this process can write.`,
        { cause: error },
      );
    }
  }
  let database: SqliteDatabase;
  try {
    database = open(options.path, { busyTimeoutMs: options.busyTimeoutMs ?? 5_000 });
  } catch (error) {
    throw unusableFile(options.path, error);
  }
  try {
    const tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").values() as string[];
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
  database.transaction("immediate", () => {
    const version = (database.prepare(`SELECT version FROM ${SCHEMA_TABLE} WHERE component = ?`).value(component) as number | undefined) ?? 0;
    if (version > migrations.length) {
      throw new StorageError(
        "SCHEMA_TOO_NEW",
        `The ${component} tables in ${database.name} are at schema version ${version}, newer than this toolsmith knows (${migrations.length}). Upgrade toolsmith.`,
      );
    }
    for (let next = version; next < migrations.length; next++) database.exec(migrations[next]!);
    database.prepare(`INSERT INTO ${SCHEMA_TABLE} (component, version) VALUES (?, ?) ON CONFLICT (component) DO UPDATE SET version = excluded.version`).run(component, migrations.length);
  });
}

/**
 * Turns SQLite's "file is not a database", "malformed" and "busy" errors into a
 * {@link StorageError} naming the file, from either driver's error shape.
 */
export function translateSqliteError(path: string, error: unknown): unknown {
  const code = sqliteErrorCode(error);
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

/** SQLite's primary result codes that toolsmith turns into its own errors, by number (node:sqlite's `errcode`). */
const PRIMARY_CODES: Record<number, string> = { 5: "SQLITE_BUSY", 11: "SQLITE_CORRUPT", 26: "SQLITE_NOTADB" };

/**
 * The primary result code of a driver's error: better-sqlite3 gives
 * `code: "SQLITE_BUSY"` (or an extended `"SQLITE_BUSY_SNAPSHOT"`), node:sqlite
 * gives `code: "ERR_SQLITE_ERROR"` with the (extended) number in `errcode`.
 */
function sqliteErrorCode(error: unknown): string | undefined {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  if (typeof errcode === "number") return PRIMARY_CODES[errcode & 0xff];
  return typeof code === "string" ? /^SQLITE_[A-Z]+/.exec(code)?.[0] : undefined;
}

function unusableFile(path: string, error: unknown): StorageError {
  const reason = error instanceof Error ? error.message : String(error);
  return new StorageError(
    "SQLITE_FILE_UNUSABLE",
    `${path} cannot be used as a toolsmith database (${reason}); it was left untouched. Move it away or give sqlite:// another file.`,
    { cause: error },
  );
}
