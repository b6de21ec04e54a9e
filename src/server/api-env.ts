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
