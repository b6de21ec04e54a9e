/**
 * SQLite services: sessions and long-term memory in one file, through the
 * optional peer `better-sqlite3` (`npm install better-sqlite3`). The default
 * store of the CLI and server, at {@link DEFAULT_DATABASE_PATH}.
 *
 * @module toolsmith/sqlite
 */
export { SqliteSessionService, type SqliteServiceOptions } from "./sqlite-session-service.js";
export { SqliteMemoryService } from "./sqlite-memory-service.js";
export { openSqliteDatabase, type OpenSqliteOptions, type SqliteDatabase } from "./sqlite-database.js";
export { DEFAULT_DATABASE_PATH } from "../services/service-uri.js";
