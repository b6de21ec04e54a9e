import { getText } from "../content/content.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { Session } from "../sessions/session.js";
import type { MemoryEntry, SearchMemoryRequest } from "./memory-service.js";
import { describeGiven, refuseUnlessId } from "../errors/unhonoured-option.js";

/** One event of a session as it is remembered, with its searchable text. */
export interface IndexableMemory {
  eventId: string;
  text: string;
  entry: MemoryEntry;
}

/** The session's events that carry text, as memory entries; events without text are left out. */
export function memoriesOf(session: Session): IndexableMemory[] {
  assertRememberableSession(session);
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

/**
 * Refuses a session to remember that is not one a session service gave (no app, user or id, events that are not a
 * list), before anything is kept: memories filed under a missing user would be found by no search.
 */
export function assertRememberableSession(session: unknown): asserts session is Session {
  const given = session as Partial<Session> | null;
  if (typeof given !== "object" || given === null) {
    throw new ConfigurationError("UNSUPPORTED_OPTION", `addSessionToMemory takes a session, as getSession gives it; it got ${describeGiven(session)}.`);
  }
  for (const key of ["appName", "userId", "id"] as const) {
    if (typeof given[key] !== "string" || given[key] === "") {
      throw new ConfigurationError("UNSUPPORTED_OPTION", `addSessionToMemory takes a session, as getSession gives it: its ${key} is ${describeGiven(given[key])}.`);
    }
  }
  if (!Array.isArray(given.events)) throw new ConfigurationError("UNSUPPORTED_OPTION", `addSessionToMemory takes a session, as getSession gives it: its events are ${describeGiven(given.events)}, not a list.`);
}

/** The words of a search request's query, after refusing a request without an app, user or text query, or with a limit that is no count. */
export function searchRequestWords(request: unknown): string[] {
  const given = request as Partial<SearchMemoryRequest> | null;
  if (typeof given !== "object" || given === null) {
    throw new ConfigurationError("UNSUPPORTED_OPTION", `searchMemory takes { appName, userId, query }; it got ${describeGiven(request)}.`);
  }
  for (const key of ["appName", "userId"] as const) refuseUnlessId("searchMemory", key, given[key]);
  if (typeof given.query !== "string") throw new ConfigurationError("UNSUPPORTED_OPTION", `searchMemory needs query, the text to look for; it got ${describeGiven(given.query)}.`);
  if (given.limit !== undefined && (typeof given.limit !== "number" || !Number.isInteger(given.limit) || given.limit < 0)) {
    throw new ConfigurationError("UNSUPPORTED_OPTION", `searchMemory's limit is how many memories to return at most, a whole number; it got ${describeGiven(given.limit)}.`);
  }
  return searchWords(given.query);
}
