import type { Session } from "../sessions/session.js";
import type { MemoryEntry, MemoryService, SearchMemoryRequest, SearchMemoryResponse } from "./memory-service.js";
import { DEFAULT_MEMORY_LIMIT, memoriesOf, searchRequestWords, searchWords } from "./memory-text.js";

interface IndexedEntry {
  sessionId: string;
  entry: MemoryEntry;
  words: Set<string>;
}

/**
 * Keyword memory in this process: an entry matches when it shares a word with
 * the query, ranked by how many query words it contains.
 */
export class InMemoryMemoryService implements MemoryService {
  readonly #entries = new Map<string, IndexedEntry[]>();

  async addSessionToMemory(session: Session): Promise<void> {
    // First: memoriesOf refuses a session without its ids before they are read here.
    const memories = memoriesOf(session);
    const key = userKey(session.appName, session.userId);
    const kept = (this.#entries.get(key) ?? []).filter((indexed) => indexed.sessionId !== session.id);
    for (const memory of memories) kept.push({ sessionId: session.id, entry: memory.entry, words: new Set(searchWords(memory.text)) });
    this.#entries.set(key, kept);
  }

  async searchMemory(request: SearchMemoryRequest): Promise<SearchMemoryResponse> {
    const queryWords = new Set(searchRequestWords(request));
    const scored: Array<{ score: number; entry: MemoryEntry }> = [];
    for (const indexed of this.#entries.get(userKey(request.appName, request.userId)) ?? []) {
      let score = 0;
      for (const word of queryWords) if (indexed.words.has(word)) score++;
      if (score > 0) scored.push({ score, entry: indexed.entry });
    }
    scored.sort((a, b) => b.score - a.score);
    return { memories: scored.slice(0, request.limit ?? DEFAULT_MEMORY_LIMIT).map((match) => match.entry) };
  }

  /** Nothing to release; here so every service can be closed the same way. */
  async close(): Promise<void> {}
}

/** One user of one app, kept apart whatever characters the ids hold. */
function userKey(appName: string, userId: string): string {
  return JSON.stringify([appName, userId]);
}
