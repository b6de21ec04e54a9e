import type { Context } from "hono";
import { HttpError } from "./http-error.js";
import type { AppRegistry } from "./app-registry.js";
import type { RunTracker } from "./run-tracker.js";
import type { TraceStore } from "./trace-store.js";

/** What every route handler reads: the apps, the traces, and the user a bearer token names. */
export interface ApiEnv {
  Variables: {
    /** Set in bearer-token mode: the only user this request may act for. */
    tokenUserId?: string;
  };
}

/** The parts of the server the routes share. */
export interface ApiServerParts {
  registry: AppRegistry;
  traces: TraceStore;
  /** The runs under way, which a shutdown drains. */
  runs: RunTracker;
}

/**
 * Refuses a request for another user's data. In bearer-token mode a user id
 * that is not the token's gets the same 404 as a session that does not exist,
 * so tokens cannot probe other users' sessions.
 */
export function authorizeUser(context: Context<ApiEnv>, userId: string, what = "Session"): void {
  const allowed = context.get("tokenUserId");
  if (allowed !== undefined && allowed !== userId) throw new HttpError(404, "NOT_FOUND", `${what} not found.`);
}

/**
 * Refuses (403, `APP_STATE_REFUSED`) a request that writes `app:` state in bearer-token mode: every user of the app
 * shares it, so one user's request would change what all the others' agents read (an `app:` instruction, say).
 * Without tokens the caller is the app's developer, and ADK's `state` and `stateDelta` are taken as they are.
 */
export function authorizeStateWrite(tokenUserId: string | undefined, record: Record<string, unknown> | undefined, field: string): void {
  if (tokenUserId === undefined || record === undefined) return;
  const shared = Object.keys(record).filter((key) => key.startsWith("app:"));
  if (shared.length > 0) {
    throw new HttpError(403, "APP_STATE_REFUSED", `With bearer tokens a request may not write app: state, which every user of the app shares (${shared.map((key) => `"${key}"`).join(", ")} in ${field}). Write it from the app's own code, or use a user: key.`);
  }
}
