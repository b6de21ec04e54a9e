import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import type { DriverProbe, SqliteDatabase, SqliteStatement } from "./sqlite-driver.js";

type BetterSqlite3Constructor = typeof BetterSqlite3;

let probed: DriverProbe | undefined;

/**
 * Loads `better-sqlite3` (CommonJS, so through `require`) and opens a private
 * in-memory database with it: the package loads its native addon only when a
 * database is opened, so an addon built for another Node version shows here
 * rather than at the user's first session. Tried once per process.
 */
export function probeBetterSqlite3(): DriverProbe {
  return (probed ??= probe());
}

function probe(): DriverProbe {
  let Database: BetterSqlite3Constructor;
  try {
    Database = createRequire(import.meta.url)("better-sqlite3") as BetterSqlite3Constructor;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "MODULE_NOT_FOUND" && String((error as Error).message).includes("'better-sqlite3'")) {
      return { available: false, reason: "better-sqlite3 is not installed", fix: "npm install better-sqlite3" };
    }
    return broken(error);
  }
  try {
    new Database(":memory:").close();
  } catch (error) {
    return broken(error);
  }
  return { available: true, open: (path, options) => wrapBetterSqlite3(new Database(path, { timeout: options.busyTimeoutMs })) };
}

function broken(error: unknown): DriverProbe {
  // Node's message for an addon built for another Node spans lines; its first sentence says enough.
  const firstSentence = String((error as Error).message ?? error).replace(/\s+/g, " ").split(". ")[0];
  return { available: false, reason: `better-sqlite3 does not load on Node ${process.version} (${firstSentence})`, fix: "npm rebuild better-sqlite3" };
}

function wrapBetterSqlite3(database: BetterSqlite3.Database): SqliteDatabase {
  return {
    name: database.name,
    driver: "better-sqlite3",
    prepare(sql) {
      const statement = database.prepare(sql);
      // pluck() switches a statement's mode in place, so single-column reads get their own copy.
      let plucked: BetterSqlite3.Statement | undefined;
      const pluck = () => (plucked ??= database.prepare(sql).pluck());
      const wrapped: SqliteStatement = {
        run: (...parameters) => void statement.run(...parameters),
        get: (...parameters) => statement.get(...parameters),
        all: (...parameters) => statement.all(...parameters),
        value: (...parameters) => pluck().get(...parameters),
        values: (...parameters) => pluck().all(...parameters),
      };
      return wrapped;
    },
    exec: (sql) => void database.exec(sql),
    transaction: (mode, work) => database.transaction(work)[mode](),
    pragma: (statement) => database.pragma(statement, { simple: true }),
    close: () => void database.close(),
  };
}
