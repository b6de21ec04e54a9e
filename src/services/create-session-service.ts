import { InMemorySessionService } from "../sessions/in-memory-session-service.js";
import type { SessionService } from "../sessions/session-service.js";
import { DEFAULT_DATABASE_URI, importWithDriver, parseServiceUri } from "./service-uri.js";

/** A service that holds a connection or file, released by `close()`. */
export type ClosableService<T> = T & { close(): Promise<void> };

/**
 * A session service chosen by URI: `memory://`, `sqlite://<path>` (the
 * default, {@link DEFAULT_DATABASE_URI}) or `postgres://user@host:port/db`.
 * The database driver is imported only when its scheme is used; SQLite uses
 * better-sqlite3 when it is installed, else node:sqlite (Node 22.13+).
 *
 * @example
 * ```ts
 * const sessionService = await createSessionService("sqlite://.toolsmith/toolsmith.db");
 * const runner = new Runner({ appName: "app", agent, sessionService });
 * ```
 */
export async function createSessionService(uri: string = DEFAULT_DATABASE_URI): Promise<ClosableService<SessionService>> {
  const { scheme, location } = parseServiceUri(uri, { service: "session", schemes: ["memory", "sqlite", "postgres", "postgresql"] });
  if (scheme === "memory") return new InMemorySessionService();
  if (scheme === "sqlite") {
    // Picks better-sqlite3 or node:sqlite when the file is opened; DRIVER_MISSING, writing nothing, when this process has neither.
    const { SqliteSessionService } = await import("../sqlite/sqlite-session-service.js");
    return new SqliteSessionService({ path: location });
  }
  const { PostgresSessionService } = await importWithDriver(() => import("../postgres/postgres-session-service.js"), { packageName: "pg", scheme });
  return PostgresSessionService.open({ connectionString: location });
}
