import { getText } from "../events/content.js";
import type { Session } from "../sessions/session.js";
import type { MemoryEntry, MemoryService, SearchMemoryRequest, SearchMemoryResponse } from "./memory-service.js";

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
    const key = `${session.appName}/${session.userId}`;
    const kept = (this.#entries.get(key) ?? []).filter((indexed) => indexed.sessionId !== session.id);
    for (const event of session.events) {
      const text = getText(event.content);
      if (!text.trim()) continue;
      kept.push({
        sessionId: session.id,
        entry: { content: event.content!, author: event.author, timestamp: new Date(event.timestamp).toISOString() },
        words: new Set(tokenize(text)),
      });
    }
    this.#entries.set(key, kept);
  }

  async searchMemory(request: SearchMemoryRequest): Promise<SearchMemoryResponse> {
    const queryWords = new Set(tokenize(request.query));
    const scored: Array<{ score: number; entry: MemoryEntry }> = [];
    for (const indexed of this.#entries.get(`${request.appName}/${request.userId}`) ?? []) {
      let score = 0;
      for (const word of queryWords) if (indexed.words.has(word)) score++;
      if (score > 0) scored.push({ score, entry: indexed.entry });
    }
    scored.sort((a, b) => b.score - a.score);
    return { memories: scored.map((match) => match.entry) };
  }
}

function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}
