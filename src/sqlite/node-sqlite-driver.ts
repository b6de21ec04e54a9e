import type { DriverProbe, SqliteDatabase, SqliteStatement, SqliteValue } from "./sqlite-driver.js";
import { firstColumn } from "./sqlite-driver.js";

/** The part of `node:sqlite` toolsmith uses (typed here: @types/node 20 has no node:sqlite). */
interface NodeSqliteModule {
  DatabaseSync: new (path: string) => DatabaseSync;
}
interface DatabaseSync {
  prepare(sql: string): StatementSync;
  exec(sql: string): void;
  close(): void;
}
interface StatementSync {
  run(...parameters: SqliteValue[]): unknown;
  get(...parameters: SqliteValue[]): unknown;
  all(...parameters: SqliteValue[]): unknown[];
}

const EXPERIMENTAL_WARNING = "SQLite is an experimental feature";

let probed: DriverProbe | undefined;

/** Whether this Node has `node:sqlite`, tried once per process. */
export function probeNodeSqlite(): DriverProbe {
  return (probed ??= probe());
}

function probe(): DriverProbe {
  let sqlite: NodeSqliteModule | undefined;
  try {
    sqlite = loadQuietly();
  } catch {
    sqlite = undefined;
  }
  if (!sqlite) {
    if (!nodeShipsSqlite(process.versions.node)) {
      return { available: false, reason: `this Node (${process.version}) has no node:sqlite`, fix: "run Node 22.13+" };
    }
    return { available: false, reason: `node:sqlite is turned off in this Node (${process.version}, --no-experimental-sqlite)`, fix: "drop --no-experimental-sqlite" };
  }
  const { DatabaseSync } = sqlite;
  return { available: true, open: (path, options) => wrapNodeSqlite(new DatabaseSync(path), path, options.busyTimeoutMs) };
}

/**
 * Loads `node:sqlite` without a static import, so Node 20 (which has none)
 * never fails at import time. Node 22 prints an ExperimentalWarning the first
 * time it loads; that one warning is dropped, since the user did not choose
 * node:sqlite and can do nothing about it. Every other warning passes.
 */
function loadQuietly(): NodeSqliteModule | undefined {
  const getBuiltinModule = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (!getBuiltinModule) return undefined;
  const emitWarning = process.emitWarning;
  process.emitWarning = function filtered(this: unknown, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === "string" ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    const text = typeof warning === "string" ? warning : warning.message;
    if (type === "ExperimentalWarning" && text.startsWith(EXPERIMENTAL_WARNING)) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return getBuiltinModule.call(process, "node:sqlite") as NodeSqliteModule | undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** node:sqlite is there without a flag from Node 22.13 and 23.4 on. */
function nodeShipsSqlite(version: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major >= 24 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);
}

function wrapNodeSqlite(database: DatabaseSync, path: string, busyTimeoutMs: number): SqliteDatabase {
  // PRAGMA rather than the constructor's `timeout` option, which Node 22.13 does not have yet.
  database.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  return {
    name: path,
    driver: "node:sqlite",
    prepare(sql) {
      const statement = database.prepare(sql);
      const wrapped: SqliteStatement = {
        run: (...parameters) => void statement.run(...parameters),
        get: (...parameters) => statement.get(...parameters),
        all: (...parameters) => statement.all(...parameters),
        value: (...parameters) => firstColumn(statement.get(...parameters)),
        values: (...parameters) => statement.all(...parameters).map(firstColumn),
      };
      return wrapped;
    },
    exec: (sql) => database.exec(sql),
    transaction(mode, work) {
      database.exec(mode === "immediate" ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
      try {
        const result = work();
        database.exec("COMMIT");
        return result;
      } catch (error) {
        // A failed COMMIT (SQLITE_BUSY) leaves the transaction open; some errors end it themselves, and then ROLLBACK has nothing to undo.
        try {
          database.exec("ROLLBACK");
        } catch {}
        throw error;
      }
    },
    pragma: (statement) => firstColumn(database.prepare(`PRAGMA ${statement}`).get()),
    close: () => database.close(),
  };
}
