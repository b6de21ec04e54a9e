import { noDriverReason, preferredSqliteDriver, sqliteDriverAvailability, type SqliteDriverAvailability } from "../sqlite/sqlite-driver-availability.js";
import { DEFAULT_DATABASE_URI } from "./service-uri.js";

/** Where sessions and memory go when no URI is given, and what to tell the user when they will not last. */
export interface DefaultStorage {
  /** {@link DEFAULT_DATABASE_URI} when this process has a SQLite driver, otherwise `memory://`. */
  uri: string;
  /** Only with `memory://`: one line saying that sessions are lost on exit, why, and how to keep them. */
  notice?: string;
}

/**
 * The one default store of the CLI and server: SQLite in
 * `.toolsmith/toolsmith.db` when a SQLite driver works here (better-sqlite3
 * when installed, else node:sqlite on Node 22.13+), otherwise in memory with
 * a notice to print, so `npx toolsmith web` starts with no native build and no
 * extra install. `drivers` defaults to {@link sqliteDriverAvailability}.
 *
 * @example
 * ```ts
 * const { uri, notice } = defaultStorage();
 * if (notice) console.error(`note: ${notice}`);
 * const sessionService = await createSessionService(uri);
 * ```
 */
export function defaultStorage(options: { drivers?: SqliteDriverAvailability } = {}): DefaultStorage {
  const drivers = options.drivers ?? sqliteDriverAvailability();
  if (preferredSqliteDriver(drivers)) return { uri: DEFAULT_DATABASE_URI };
  const { reason, fix } = noDriverReason(drivers);
  return { uri: "memory://", notice: `sessions are kept in memory and lost on exit: ${reason}. To keep them, ${fix}.` };
}
