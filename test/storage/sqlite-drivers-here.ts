/**
 * The SQLite drivers the storage tests run over in this process, each with
 * the reason its tests are skipped when it cannot be used here. On Node 20,
 * node:sqlite's tests are skipped and test/storage/node-sqlite.test.ts runs
 * them under Node 24, where the better-sqlite3 built for Node 20 is skipped.
 */
import { sqliteDriverAvailability, type SqliteDriverName } from "../../src/sqlite/index.js";

const availability = sqliteDriverAvailability();

/** Each driver; `skipped` is `""` when its tests run here, else why not; `title` names it for a describe block. */
export const SQLITE_DRIVERS: ReadonlyArray<{ driver: SqliteDriverName; skipped: string; title: string }> = (["better-sqlite3", "node:sqlite"] as const).map((driver) => {
  const status = availability[driver];
  const skipped = status.available ? "" : `(skipped: ${status.reason})`;
  return { driver, skipped, title: `over ${driver}${skipped ? ` ${skipped}` : ""}` };
});
