/** The two SQLite drivers toolsmith can use: the `better-sqlite3` package, or Node's built-in `node:sqlite` (Node 22.13+). */
export type SqliteDriverName = "better-sqlite3" | "node:sqlite";

/** Every driver in the order an unforced open tries them: a user who installed better-sqlite3 chose it. */
export const SQLITE_DRIVER_NAMES: readonly SqliteDriverName[] = ["better-sqlite3", "node:sqlite"];

/**
 * Whether a driver can be used in this process: its `open`, or a short reason
 * it cannot ("better-sqlite3 is not installed") and the fix ("npm install
 * better-sqlite3"), worded to be joined into one sentence.
 */
export type DriverProbe =
  | { available: true; open: (path: string, options: { busyTimeoutMs: number }) => SqliteDatabase }
  | { available: false; reason: string; fix: string };

/** A value bound to a `?` of a statement. */
export type SqliteValue = string | number | null;

/** A prepared statement, as the SQLite services use it; the same shape over either driver. */
export interface SqliteStatement {
  run(...parameters: SqliteValue[]): void;
  /** The first row as an object keyed by column name, or `undefined`. */
  get(...parameters: SqliteValue[]): unknown;
  /** Every row as an object keyed by column name. */
  all(...parameters: SqliteValue[]): unknown[];
  /** The first column of the first row (SQLite's "pluck"), or `undefined` when there is no row. */
  value(...parameters: SqliteValue[]): unknown;
  /** The first column of every row. */
  values(...parameters: SqliteValue[]): unknown[];
}

/**
 * An open SQLite file, as the SQLite services use it, whichever driver opened
 * it. Get one from {@link openSqliteDatabase} to share one connection between
 * a session and a memory service.
 */
export interface SqliteDatabase {
  /** The file name it was opened with (`:memory:` for a private in-memory database). */
  readonly name: string;
  /** The driver underneath. */
  readonly driver: SqliteDriverName;
  prepare(sql: string): SqliteStatement;
  /** Runs one or more statements that return nothing. */
  exec(sql: string): void;
  /**
   * Runs `work` in one transaction and commits, or rolls back when it throws.
   * `"immediate"` takes the write lock before `work` reads anything, so no
   * other process writes between its reads and its writes; `"deferred"` takes
   * a lock only when needed, for reads that must come from one moment.
   */
  transaction<T>(mode: "immediate" | "deferred", work: () => T): T;
  /** Runs `PRAGMA <statement>` and returns the first column of its first row, if any. */
  pragma(statement: string): unknown;
  close(): void;
}

/** The first column of a row object (columns keep their SELECT order), or `undefined` for no row. */
export function firstColumn(row: unknown): unknown {
  if (row === undefined || row === null) return undefined;
  for (const key in row as Record<string, unknown>) return (row as Record<string, unknown>)[key];
  return undefined;
}
