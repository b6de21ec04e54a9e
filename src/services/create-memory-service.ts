import { InMemoryMemoryService } from "../memory/in-memory-memory-service.js";
import type { MemoryService } from "../memory/memory-service.js";
import type { ClosableService } from "./create-session-service.js";
import { DEFAULT_DATABASE_URI, importWithDriver, parseServiceUri } from "./service-uri.js";

/**
 * A memory service chosen by URI: `memory://` (keyword search), `sqlite://<path>`
 * (FTS5, BM25 ranking) or `postgres://…` (full-text search). The database
 * driver is imported only when its scheme is used.
 *
 * @example
 * ```ts
 * const memoryService = await createMemoryService("sqlite://.toolsmith/toolsmith.db");
 * ```
 */
export async function createMemoryService(uri: string = DEFAULT_DATABASE_URI): Promise<ClosableService<MemoryService>> {
  const { scheme, location } = parseServiceUri(uri, { service: "memory", schemes: ["memory", "sqlite", "postgres", "postgresql"] });
  if (scheme === "memory") return new InMemoryMemoryService();
  if (scheme === "sqlite") {
    // Picks better-sqlite3 or node:sqlite when the file is opened; DRIVER_MISSING, writing nothing, when this process has neither.
    const { SqliteMemoryService } = await import("../sqlite/sqlite-memory-service.js");
    return new SqliteMemoryService({ path: location });
  }
  const { PostgresMemoryService } = await importWithDriver(() => import("../postgres/postgres-memory-service.js"), { packageName: "pg", scheme });
  return PostgresMemoryService.open({ connectionString: location });
}
