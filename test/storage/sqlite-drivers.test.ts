import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../src/index.js";
import { openSqliteDatabase, preferredSqliteDriver, SqliteSessionService, sqliteDriverAvailability, type SqliteDriverAvailability, type SqliteDriverName } from "../../src/sqlite/index.js";
import { tempDir } from "../support/temp-dir.js";
import { SQLITE_DRIVERS } from "./sqlite-drivers-here.js";

const dir = tempDir();
const works = { available: true } as const;
const missing = (reason: string, fix: string) => ({ available: false, reason, fix }) as const;
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
const nodeShipsSqlite = major >= 24 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);

describe("choosing a SQLite driver", () => {
  it("prefers better-sqlite3 when it loads, then node:sqlite, and has none when neither works", () => {
    const both: SqliteDriverAvailability = { "better-sqlite3": works, "node:sqlite": works };
    const onlyNode: SqliteDriverAvailability = { "better-sqlite3": missing("better-sqlite3 is not installed", "npm install better-sqlite3"), "node:sqlite": works };
    const onlyPackage: SqliteDriverAvailability = { "better-sqlite3": works, "node:sqlite": missing("this Node (v20.19.0) has no node:sqlite", "run Node 22.13+") };
    expect(preferredSqliteDriver(both)).toBe("better-sqlite3");
    expect(preferredSqliteDriver(onlyNode)).toBe("node:sqlite");
    expect(preferredSqliteDriver(onlyPackage)).toBe("better-sqlite3");
    expect(preferredSqliteDriver({ "better-sqlite3": onlyNode["better-sqlite3"], "node:sqlite": onlyPackage["node:sqlite"] })).toBeUndefined();
  });

  it("tells whether this Node has node:sqlite, and what to run when it has not", () => {
    const status = sqliteDriverAvailability()["node:sqlite"];
    if (nodeShipsSqlite) expect(status).toEqual({ available: true });
    else expect(status).toEqual({ available: false, reason: `this Node (${process.version}) has no node:sqlite`, fix: "run Node 22.13+" });
  });

  it("opens a file with the preferred driver when none is asked for", () => {
    const preferred = SQLITE_DRIVERS.find((entry) => !entry.skipped)!.driver;
    expect(preferredSqliteDriver()).toBe(preferred);
    const database = openSqliteDatabase({ path: join(dir, "preferred.db") });
    expect(database.driver).toBe(preferred);
    database.close();
  });

  for (const { driver, skipped } of SQLITE_DRIVERS.filter((entry) => entry.skipped)) {
    it(`refuses to open a file with ${driver}, which this process cannot use, saying what to do and creating nothing`, () => {
      const folder = join(dir, `never-${driver.replace(":", "-")}`);
      const path = join(folder, "toolsmith.db");
      const status = sqliteDriverAvailability()[driver] as Extract<SqliteDriverAvailability[SqliteDriverName], { available: false }>;
      expect(skipped).toContain(status.reason);
      const error = (() => {
        try {
          new SqliteSessionService({ path, driver });
        } catch (caught) {
          return caught as ConfigurationError;
        }
      })();
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error!.code).toBe("DRIVER_MISSING");
      expect(error!.message).toBe(
        `${path} was to be opened with the SQLite driver ${driver}, but ${status.reason}; nothing was written. To fix: ${status.fix}, or leave driver unset to use any driver that works here.`,
      );
      expect(existsSync(folder)).toBe(false);
    });
  }

  it("refuses a driver name it does not know, naming the two it has", () => {
    const path = join(dir, "unknown-driver", "toolsmith.db");
    expect(() => openSqliteDatabase({ path, driver: "sqlite3" as SqliteDriverName })).toThrow(
      'There is no SQLite driver called "sqlite3". Choose "better-sqlite3" or "node:sqlite", or leave driver unset.',
    );
    expect(existsSync(join(dir, "unknown-driver"))).toBe(false);
  });
});
