import { ConfigurationError, isToolsmithError } from "../errors/toolsmith-error.js";
import type { Session } from "./session.js";
import type { CreateSessionRequest, SessionService } from "./session-service.js";

/**
 * ADK's `getOrCreateSession`, written once for every store: the session `request.sessionId` names when it
 * exists, else a new one made from `request` (with that id, when one was given). `request.state` is used only
 * when the session is made.
 *
 * Safe when two callers race for the same new id, which ADK's is not: the store that loses the race refuses the
 * second `createSession` with `SESSION_EXISTS`, and the loser then reads the winner's session instead of failing.
 */
export async function getOrCreateSessionIn(store: Pick<SessionService, "getSession" | "createSession">, request: CreateSessionRequest): Promise<Session> {
  if (request.sessionId === undefined) return store.createSession(request);
  const key = { appName: request.appName, userId: request.userId, sessionId: request.sessionId };
  const existing = await store.getSession(key);
  if (existing) return existing;
  try {
    return await store.createSession(request);
  } catch (error) {
    if (!isToolsmithError(error) || error.code !== "SESSION_EXISTS") throw error;
    const made = await store.getSession(key);
    if (made) return made;
    throw error; // made and deleted again in between: say so rather than guess
  }
}

/** ADK's paging options of `listSessions`, which toolsmith's stores do not take. */
const ADK_PAGING = ["limit", "offset", "page", "order"] as const;

/**
 * Refuses ADK's `listSessions` paging (`limit`, `offset`, `page`, `order`) by name, which toolsmith's stores would
 * otherwise pass over: a caller asking for two sessions must not get all of them without a word.
 */
export function assertTokenPaging(request: object): void {
  const given = ADK_PAGING.filter((option) => (request as Record<string, unknown>)[option] !== undefined);
  if (given.length === 0) return;
  throw new ConfigurationError(
    "UNSUPPORTED_OPTION",
    `listSessions got ADK's ${given.join(", ")}, which toolsmith does not take: page with pageSize, then pass the response's nextPageToken as pageToken for the next page.`,
  );
}
