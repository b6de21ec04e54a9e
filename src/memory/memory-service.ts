import type { Content } from "../content/content.js";
import type { Session } from "../sessions/session.js";

/** One remembered piece of a past conversation. */
export interface MemoryEntry {
  content: Content;
  author?: string;
  /** ISO 8601 time of the original event. */
  timestamp?: string;
}

/** Options of {@link MemoryService.searchMemory}: always scoped to one user of one app. */
export interface SearchMemoryRequest {
  appName: string;
  userId: string;
  query: string;
  /** At most this many memories, best first. Default 10. */
  limit?: number;
}

/** What a memory search found, best match first. */
export interface SearchMemoryResponse {
  memories: MemoryEntry[];
}

/**
 * Long-term memory across sessions. Implementations: keyword search in memory
 * here; SQLite FTS5 and PostgreSQL full-text search behind their subpaths.
 */
export interface MemoryService {
  /** Makes the session's text events searchable for its user; adding a session again replaces its earlier entries. */
  addSessionToMemory(session: Session): Promise<void>;
  searchMemory(request: SearchMemoryRequest): Promise<SearchMemoryResponse>;
}
