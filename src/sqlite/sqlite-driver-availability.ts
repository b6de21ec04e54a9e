import { ConfigurationError } from "../errors/toolsmith-error.js";
import { probeBetterSqlite3 } from "./better-sqlite3-driver.js";
import { probeNodeSqlite } from "./node-sqlite-driver.js";
import { SQLITE_DRIVER_NAMES, type DriverProbe, type SqliteDriverName } from "./sqlite-driver.js";

/** Whether one SQLite driver can be used here, and if not, why and how to fix it. */
export type SqliteDriverStatus = { available: true } | { available: false; reason: string; fix: string };

/** Each SQLite driver's status in this process. */
export type SqliteDriverAvailability = Record<SqliteDriverName, SqliteDriverStatus>;

const PROBES: Record<SqliteDriverName, () => DriverProbe> = { "better-sqlite3": probeBetterSqlite3, "node:sqlite": probeNodeSqlite };

/**
 * Which SQLite drivers this process can use: `better-sqlite3` when it is
 * installed and loads on this Node, `node:sqlite` when this Node has it
 * (22.13+, 24). Each is tried once per process; better-sqlite3 is loaded to
 * find out, node:sqlite without Node 22's ExperimentalWarning.
 *
 * @example
 * ```ts
 * import { preferredSqliteDriver, sqliteDriverAvailability } from "toolsmith/sqlite";
 * const drivers = sqliteDriverAvailability();
 * if (!preferredSqliteDriver(drivers)) console.log(drivers["node:sqlite"]); // { available: false, reason: "this Node (v20.19.0) has no node:sqlite", fix: "run Node 22.13+" }
 * ```
 */
export function sqliteDriverAvailability(): SqliteDriverAvailability {
  const status = (probe: DriverProbe): SqliteDriverStatus => (probe.available ? { available: true } : { available: false, reason: probe.reason, fix: probe.fix });
  return { "better-sqlite3": status(probeBetterSqlite3()), "node:sqlite": status(probeNodeSqlite()) };
}

/**
 * The driver an open without `driver` uses: better-sqlite3 when it loads (a
 * user who installed it chose it), otherwise node:sqlite; `undefined` when
 * there is neither.
 */
export function preferredSqliteDriver(availability: SqliteDriverAvailability = sqliteDriverAvailability()): SqliteDriverName | undefined {
  return SQLITE_DRIVER_NAMES.find((name) => availability[name].available);
}

/** Why no SQLite driver can be used, as one clause: "this Node (v20.20.2) has no node:sqlite and better-sqlite3 is not installed". */
export function noDriverReason(availability: SqliteDriverAvailability): { reason: string; fix: string } {
  const missing = (["node:sqlite", "better-sqlite3"] as const).map((name) => availability[name]).filter((status) => !status.available);
  return { reason: missing.map((status) => status.reason).join(" and "), fix: missing.map((status) => status.fix).join(" or ") };
}

/**
 * The `open` of the driver `requested`, or of the preferred one; throws a
 * {@link ConfigurationError} `DRIVER_MISSING` saying what to install or run
 * when that driver (or every driver) is unavailable.
 */
export function loadSqliteDriver(options: { path: string; driver?: SqliteDriverName }): Extract<DriverProbe, { available: true }>["open"] {
  const requested = options.driver;
  if (requested !== undefined && !SQLITE_DRIVER_NAMES.includes(requested)) {
    throw new ConfigurationError("DRIVER_MISSING", `There is no SQLite driver called ${JSON.stringify(requested)}. Choose "better-sqlite3" or "node:sqlite", or leave driver unset.`);
  }
  for (const name of requested ? [requested] : SQLITE_DRIVER_NAMES) {
    const probe = PROBES[name]();
    if (probe.available) return probe.open;
    if (requested) {
      throw new ConfigurationError(
        "DRIVER_MISSING",
        `${options.path} was to be opened with the SQLite driver ${name}, but ${probe.reason}; nothing was written. To fix: ${probe.fix}, or leave driver unset to use any driver that works here.`,
      );
    }
  }
  const { reason, fix } = noDriverReason(sqliteDriverAvailability());
  throw new ConfigurationError("DRIVER_MISSING", `${options.path} needs a SQLite driver, and there is none here: ${reason}; nothing was written. To fix: ${fix}.`);
}
