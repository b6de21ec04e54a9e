import { ConfigurationError, isToolsmithError } from "../errors/toolsmith-error.js";
import { describeGiven, refuseNonObjectOptions, refuseUnlessId } from "../errors/unhonoured-option.js";
import { describeNonEvent, isEventShaped } from "../events/event.js";
import type { Session } from "./session.js";
import type { AppendEventRequest, CreateSessionRequest, ListSessionsRequest, ListSessionsResponse, SessionService } from "./session-service.js";

/** The ids a session request names: the app and user always, the session where one is meant. */
type SessionIdKey = "appName" | "userId" | "sessionId";

/**
 * Refuses, before the store is read or written, a session request whose ids are not non-empty strings (a number
 * would be stored as "5.0" by SQLite, a missing id looked up or stored as `undefined`) or whose `state` is not an
 * object (a string would be stored spread into {"0": …}). `optional` ids may be left out.
 */
export function checkSessionRequest(method: string, request: unknown, required: readonly SessionIdKey[], optional: readonly SessionIdKey[] = []): void {
  refuseNonObjectOptions(method, request, () => `${method}({ ${required.join(", ")} })`);
  for (const key of [...required, ...optional]) {
    if (request[key] !== undefined || !optional.includes(key)) refuseUnlessId(method, key, request[key]);
  }
  const state = request.state;
  if (state !== undefined && (typeof state !== "object" || state === null || Array.isArray(state))) {
    throw new ConfigurationError("UNSUPPORTED_OPTION", `${method}'s state is an object of keys and values ({ "user:name": "Ada" }); it got ${describeGiven(state)}.`);
  }
}

/** Refuses an `appendEvent` request without a session this store could have made, or with something that is no event. */
export function checkAppendRequest(request: unknown): asserts request is AppendEventRequest {
  refuseNonObjectOptions("appendEvent", request, () => "appendEvent({ session, event })");
  const session = request.session as Partial<Session> | null | undefined;
  if (typeof session !== "object" || session === null || typeof session.id !== "string" || typeof session.appName !== "string" || typeof session.userId !== "string") {
    throw new ConfigurationError("UNSUPPORTED_OPTION", "appendEvent needs the session the event goes into, as createSession or getSession gave it (with its id, appName and userId).");
  }
  if (!isEventShaped(request.event)) {
    throw new ConfigurationError(
      "INVALID_EVENT",
      `appendEvent got ${describeNonEvent(request.event)}, which is not an event. Make it with createEvent({ invocationId, author, content }), which fills in its id, time and actions.`,
    );
  }
}

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

/** ADK's paging options of `listSessions`. */
const ADK_PAGING = ["limit", "offset", "page", "order"] as const;

/**
 * How one `listSessions` call reads the store, worked out once for every store: which sessions (`offset`, at most
 * `fetch` of them, in which order) and whether to count every match.
 */
export type SessionListPlan =
  /** toolsmith's paging: `fetch` is one more than the page, to know whether another page follows. */
  | { readonly kind: "token"; readonly offset: number; readonly pageSize: number | undefined; readonly fetch: number | undefined; readonly descending: false }
  /** ADK's paging, which counts every matching session. */
  | { readonly kind: "adk"; readonly offset: number; readonly limit: number | undefined; readonly page: number | undefined; readonly fetch: number | undefined; readonly descending: boolean };

/**
 * Checks a `listSessions` request and plans its reading. Either paging is taken, not both; a value of the wrong
 * kind, a token this store did not give, or `page` without `limit` is refused (`INVALID_LIST_REQUEST`) rather than
 * read some other way.
 */
export function planSessionList(request: ListSessionsRequest): SessionListPlan {
  const adkOptions = ADK_PAGING.filter((option) => request[option] !== undefined);
  if (adkOptions.length === 0) {
    const pageSize = request.pageSize === undefined || request.pageSize === 0 ? undefined : wholeNumber("pageSize", request.pageSize, 1);
    const token = request.pageToken;
    if (token !== undefined && !/^\d{1,15}$/.test(token)) {
      throw invalidList(`listSessions got pageToken ${JSON.stringify(token)}, which is not a token this store gave. Pass the nextPageToken of the page before, or leave it out for the first page.`);
    }
    return { kind: "token", offset: token === undefined ? 0 : Number(token), pageSize, fetch: pageSize === undefined ? undefined : pageSize + 1, descending: false };
  }
  const tokenOptions = (["pageSize", "pageToken"] as const).filter((option) => request[option] !== undefined);
  if (tokenOptions.length > 0) {
    throw invalidList(`listSessions got ${tokenOptions.join(", ")} with ADK's ${adkOptions.join(", ")}: page one way, with pageSize and pageToken, or with ADK's limit and offset or page.`);
  }
  const limit = request.limit === undefined ? undefined : wholeNumber("limit", request.limit, 0);
  const page = request.page === undefined ? undefined : wholeNumber("page", request.page, 1);
  if (page !== undefined && limit === undefined) throw invalidList("listSessions got page without limit: a page is limit sessions long. Give limit too.");
  if (page !== undefined && request.offset !== undefined) throw invalidList("listSessions got both page and offset, which both say where to start. Give one of them.");
  if (request.order !== undefined && request.order !== "asc" && request.order !== "desc") {
    throw invalidList(`listSessions got order ${JSON.stringify(request.order)}: use "asc" (oldest update first, the default) or "desc".`);
  }
  const offset = page !== undefined ? (page - 1) * limit! : request.offset === undefined ? 0 : wholeNumber("offset", request.offset, 0);
  if (!Number.isSafeInteger(offset)) throw invalidList(`listSessions got page ${page} of ${limit} sessions, which starts past any store's sessions. Ask for an earlier page.`);
  return { kind: "adk", offset, limit, page, fetch: limit, descending: request.order === "desc" };
}

/**
 * The response to a planned `listSessions`: `sessions` are those the store read for the plan (with toolsmith's
 * paging, up to one more than the page); `totalItems`, for ADK's paging, how many sessions match in all.
 */
export function sessionListResponse(plan: SessionListPlan, sessions: Session[], totalItems?: number): ListSessionsResponse {
  if (plan.kind === "token") {
    if (plan.pageSize !== undefined && sessions.length > plan.pageSize) return { sessions: sessions.slice(0, plan.pageSize), nextPageToken: String(plan.offset + plan.pageSize) };
    // Not paged at all: ADK's figures cost nothing, and an ADK program reads them.
    if (plan.pageSize === undefined && plan.offset === 0) return { sessions, ...adkFigures(plan, sessions.length) };
    return { sessions };
  }
  return { sessions, ...adkFigures(plan, totalItems ?? sessions.length) };
}

/** ADK's `page`, `limit`, `totalItems` and `totalPages`, computed as ADK's in-memory store computes them. */
function adkFigures(plan: SessionListPlan, totalItems: number) {
  const limit = plan.kind === "adk" ? plan.limit : undefined;
  if (limit === undefined) return { page: 1, limit: totalItems, totalItems, totalPages: totalItems === 0 ? 0 : 1 };
  const page = plan.kind === "adk" && plan.page !== undefined ? plan.page : limit === 0 ? 1 : Math.floor(plan.offset / limit) + 1;
  return { page, limit, totalItems, totalPages: limit === 0 ? 0 : Math.ceil(totalItems / limit) };
}

/** Orders sessions as every store lists them: by last update (oldest first, or newest), then by id and user. */
export function compareListedSessions(descending: boolean): (a: Session, b: Session) => number {
  const byTime = descending ? (a: Session, b: Session) => b.lastUpdateTime - a.lastUpdateTime : (a: Session, b: Session) => a.lastUpdateTime - b.lastUpdateTime;
  return (a, b) => byTime(a, b) || compareText(a.id, b.id) || compareText(a.userId, b.userId);
}

/** Code-unit order, as SQLite compares text (ADK's in-memory store uses `localeCompare`; ids are ASCII, where the two agree but on case and punctuation). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function wholeNumber(option: string, value: unknown, least: number): number {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= least) return value;
  throw invalidList(`listSessions got ${option} ${typeof value === "string" ? JSON.stringify(value) : String(value)}: it must be a whole number of at least ${least}.`);
}

function invalidList(message: string): ConfigurationError {
  return new ConfigurationError("INVALID_LIST_REQUEST", message);
}
