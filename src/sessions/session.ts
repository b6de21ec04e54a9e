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
