/**
 * SQLite services: sessions, long-term memory and credentials (encrypted) in
 * one file. The driver is
 * `better-sqlite3` when it is installed (`npm install better-sqlite3`), else
 * Node's built-in `node:sqlite` (Node 22.13+); neither is loaded until a file
 * is opened. The default store of the CLI and server, at
 * {@link DEFAULT_DATABASE_PATH}, when this process has a driver.
 *
 * @module toolsmith/sqlite
 */
export { SqliteSessionService, type SqliteServiceOptions } from "./sqlite-session-service.js";
export { SqliteMemoryService } from "./sqlite-memory-service.js";
export { SqliteCredentialService, type SqliteCredentialOptions } from "./sqlite-credential-service.js";
export { openSqliteDatabase, type OpenSqliteOptions } from "./sqlite-database.js";
export type { SqliteDatabase, SqliteDriverName, SqliteStatement, SqliteValue } from "./sqlite-driver.js";
export { preferredSqliteDriver, sqliteDriverAvailability, type SqliteDriverAvailability, type SqliteDriverStatus } from "./sqlite-driver-availability.js";
export { DEFAULT_DATABASE_PATH } from "../services/service-uri.js";
