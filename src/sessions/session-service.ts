import type { Event } from "../events/event.js";
import type { Session } from "./session.js";

/** Identifies one session. */
export interface SessionKey {
  appName: string;
  userId: string;
  sessionId: string;
}

/** Options of {@link SessionService.createSession}. */
export interface CreateSessionRequest {
  appName: string;
  userId: string;
  /** Initial state; `app:` and `user:` keys update the shared scopes. */
  state?: Record<string, unknown>;
  /** Chosen by the service (a UUID) when absent. */
  sessionId?: string;
}

/** Options of {@link SessionService.getSession}. */
export interface GetSessionRequest extends SessionKey {
  config?: {
    /** Return only the newest N events. */
    numRecentEvents?: number;
    /** Return only events at or after this timestamp (ms). */
    afterTimestamp?: number;
  };
}

/** ADK's name for what `deleteSession` takes: the session's {@link SessionKey}. */
export type DeleteSessionRequest = SessionKey;

/**
 * Options of {@link SessionService.listSessions}. Sessions come oldest update first. Two ways to page, not to be
 * mixed: toolsmith's `pageSize` and `pageToken` (each page tells the next one's token, and no page counts every
 * session), or ADK's `limit` with `offset` or `page`, and `order` (each page counts every session).
 */
export interface ListSessionsRequest {
  appName: string;
  /** All users of the app when absent. */
  userId?: string;
  /** At most this many sessions (a whole number; 0 or absent: all of them). */
  pageSize?: number;
  /** The `nextPageToken` of the page before. */
  pageToken?: string;
  /** ADK's paging: at most this many sessions (a whole number). */
  limit?: number;
  /** ADK's paging: how many sessions to pass over first. Not with `page`. */
  offset?: number;
  /** ADK's paging: the page of `limit` sessions to return, from 1. Needs `limit`. */
  page?: number;
  /** ADK's paging: `"desc"` for the most recently updated first (ties by id, as ADK orders them). */
  order?: "asc" | "desc";
}

/**
 * One page of sessions, without their events. ADK's figures (`page`, `limit`, `totalItems`, `totalPages`) are given
 * with ADK's paging and when the list is not paged at all, as ADK gives them; with `pageSize`, `nextPageToken` tells
 * whether there is more.
 */
export interface ListSessionsResponse {
  sessions: Session[];
  nextPageToken?: string;
  /** The page returned, from 1. */
  page?: number;
  /** The page size used: `totalItems` when no limit was asked. */
  limit?: number;
  /** How many sessions match, over every page. */
  totalItems?: number;
  /** How many pages of `limit` sessions there are (0 with no session, or a limit of 0). */
  totalPages?: number;
}

/** Options of {@link SessionService.appendEvent}. */
export interface AppendEventRequest {
  /** The session as last read or returned by `appendEvent`; it is updated in place. */
  session: Session;
  event: Event;
}

/**
 * Stores sessions, their events and their state. Implementations: in memory
 * here; SQLite and PostgreSQL behind their subpaths.
 */
export interface SessionService {
  createSession(request: CreateSessionRequest): Promise<Session>;
  /** The session, or `undefined` when there is none with that key. */
  getSession(request: GetSessionRequest): Promise<Session | undefined>;
  listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse>;
  deleteSession(request: SessionKey): Promise<void>;
  /**
   * The session `request.sessionId` names when it exists, else a new one made from `request` (with that id, when
   * one was given), as ADK's. `request.state` is used only when the session is made. toolsmith's stores and
   * `BaseSessionService` implement it with `getOrCreateSessionIn`, which is safe when two callers race for
   * the same new id; a store of your own can do the same.
   */
  getOrCreateSession(request: CreateSessionRequest): Promise<Session>;
  /**
   * Stores a complete event and applies its state delta, in one step. Partial
   * (streamed) events are returned unstored. `temp:` keys reach the in-memory
   * `session` for the rest of the invocation but are never stored. Returns
   * the event as stored (without `temp:` keys), as ADK's, which removes them
   * from the event it is given.
   */
  appendEvent(request: AppendEventRequest): Promise<Event>;
}
