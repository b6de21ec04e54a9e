import type { Event } from "../events/event.js";

/**
 * A conversation between a user and an app: its events in order and its state.
 * `state` holds the session's own keys plus the app's (`app:…`) and the user's
 * (`user:…`) shared keys, as they were when the session was read.
 */
export interface Session {
  id: string;
  appName: string;
  userId: string;
  state: Record<string, unknown>;
  events: Event[];
  /** Timestamp (ms) of the last event appended; used to detect a stale writer. */
  lastUpdateTime: number;
}

/**
 * ADK's `createSession`: a session object with ADK's defaults for what is left out (no user id, empty state, no
 * events, `lastUpdateTime` 0), for session services of one's own to return. It stores nothing; a store's
 * `createSession` does.
 */
export function createSession(params: Pick<Session, "id" | "appName"> & Partial<Omit<Session, "id" | "appName">>): Session {
  return {
    id: params.id,
    appName: params.appName,
    userId: params.userId || "",
    state: params.state || {},
    events: params.events || [],
    lastUpdateTime: params.lastUpdateTime ?? 0,
  };
}
