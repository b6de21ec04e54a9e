import { getText } from "../content/content.js";
import type { Session } from "../sessions/session.js";
import type { MemoryEntry } from "./memory-service.js";

/** One event of a session as it is remembered, with its searchable text. */
export interface IndexableMemory {
  eventId: string;
  text: string;
  entry: MemoryEntry;
}

/** The session's events that carry text, as memory entries; events without text are left out. */
export function memoriesOf(session: Session): IndexableMemory[] {
  const memories: IndexableMemory[] = [];
  for (const event of session.events) {
    const text = getText(event.content);
    if (!text.trim()) continue;
    memories.push({
      eventId: event.id,
      text,
      entry: { content: event.content!, author: event.author, timestamp: new Date(event.timestamp).toISOString() },
    });
  }
  return memories;
}

/** The words of a text, lower-cased: letters and digits of any script. */
export function searchWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** How many memories a search returns when the request gives no limit. */
export const DEFAULT_MEMORY_LIMIT = 10;
