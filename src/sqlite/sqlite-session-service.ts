import { checkAppendRequest, checkSessionRequest, getOrCreateSessionIn, planSessionList, sessionListResponse } from "../sessions/store-requests.js";
import { ConfigurationError, SessionNotFoundError, StaleSessionError, type SharedStateConflictError } from "../errors/toolsmith-error.js";
import type { Event } from "../events/event.js";
import { newId } from "../events/new-id.js";
import { applyEventToLiveSession, nextUpdateTime, toStoredEvent } from "../sessions/apply-event.js";
import { assertJsonState } from "../sessions/json-value.js";
import type { Session } from "../sessions/session.js";
import type {
  AppendEventRequest,
  CreateSessionRequest,
  GetSessionRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  SessionKey,
  SessionService,
} from "../sessions/session-service.js";
import { splitStateDelta } from "../sessions/state-prefixes.js";
import { hasKeys } from "../events/event-actions.js";
import { assertNoSharedStateConflict, writesSharedState, type StoredSharedState } from "../sessions/shared-state-conflict.js";
import { openSqliteService, translateSqliteError, type SqliteServiceOptions } from "./sqlite-database.js";
import type { SqliteDatabase } from "./sqlite-driver.js";
import { GroupCommit } from "./group-commit.js";

/** Options of {@link SqliteSessionService} and {@link SqliteMemoryService}: a file to open (and optionally the driver), or a connection from {@link openSqliteDatabase} to share. */
export type { SqliteServiceOptions } from "./sqlite-database.js";

const MIGRATIONS = [
  `CREATE TABLE toolsmith_sessions (
     app_name TEXT NOT NULL, user_id TEXT NOT NULL, id TEXT NOT NULL,
     state TEXT NOT NULL, create_time REAL NOT NULL, update_time REAL NOT NULL,
     PRIMARY KEY (app_name, user_id, id));
   CREATE INDEX toolsmith_sessions_by_update ON toolsmith_sessions (app_name, update_time, id);
   CREATE TABLE toolsmith_events (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     app_name TEXT NOT NULL, user_id TEXT NOT NULL, session_id TEXT NOT NULL,
     id TEXT NOT NULL, timestamp REAL NOT NULL, event TEXT NOT NULL);
   CREATE INDEX toolsmith_events_by_session ON toolsmith_events (app_name, user_id, session_id, seq);
   CREATE TABLE toolsmith_app_states (app_name TEXT PRIMARY KEY, state TEXT NOT NULL);
   CREATE TABLE toolsmith_user_states (app_name TEXT NOT NULL, user_id TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (app_name, user_id));`,
];

interface SessionRow {
  user_id: string;
  id: string;
  state: string;
  update_time: number;
}

/**
 * Sessions in a SQLite file: survives restarts with nothing to set up, and
 * several processes on one machine may share the file. Each append stores the
 * event, applies its state delta and moves the session's update marker in one
 * transaction; an append from a stale copy throws {@link StaleSessionError}, and
 * one that writes an `app:` or `user:` key another session changed since this
 * copy was read throws {@link SharedStateConflictError} (the rule is
 * {@link assertNoSharedStateConflict}'s). Either way nothing is stored.
 *
 * @example
 * ```ts
 * import { SqliteSessionService } from "toolsmith/sqlite";
 * const sessionService = new SqliteSessionService({ path: ".toolsmith/toolsmith.db" });
 * ```
 */
export class SqliteSessionService implements SessionService {
  readonly #database: SqliteDatabase;
  readonly #ownsDatabase: boolean;
  readonly #path: string;
  readonly #sql;
  /** Appends made in the same turn of the event loop commit together (one sync to disk for all of them). */
  readonly #appends: GroupCommit;

  constructor(options: SqliteServiceOptions) {
    ({ database: this.#database, ownsDatabase: this.#ownsDatabase } = openSqliteService("SqliteSessionService", options, "sessions", MIGRATIONS));
    this.#path = this.#database.name;
    const db = this.#database;
    this.#appends = new GroupCommit(db, (error) => translateSqliteError(this.#path, error));
    this.#sql = {
      insertSession: db.prepare("INSERT INTO toolsmith_sessions (app_name, user_id, id, state, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)"),
      sessionExists: db.prepare("SELECT 1 FROM toolsmith_sessions WHERE app_name = ? AND user_id = ? AND id = ?"),
      session: db.prepare("SELECT user_id, id, state, update_time FROM toolsmith_sessions WHERE app_name = ? AND user_id = ? AND id = ?"),
      marker: db.prepare("SELECT update_time FROM toolsmith_sessions WHERE app_name = ? AND user_id = ? AND id = ?"),
      sessionState: db.prepare("SELECT state FROM toolsmith_sessions WHERE app_name = ? AND user_id = ? AND id = ?"),
      updateSession: db.prepare("UPDATE toolsmith_sessions SET state = ?, update_time = ? WHERE app_name = ? AND user_id = ? AND id = ?"),
      touchSession: db.prepare("UPDATE toolsmith_sessions SET update_time = ? WHERE app_name = ? AND user_id = ? AND id = ?"),
      deleteSession: db.prepare("DELETE FROM toolsmith_sessions WHERE app_name = ? AND user_id = ? AND id = ?"),
      deleteEvents: db.prepare("DELETE FROM toolsmith_events WHERE app_name = ? AND user_id = ? AND session_id = ?"),
      insertEvent: db.prepare("INSERT INTO toolsmith_events (app_name, user_id, session_id, id, timestamp, event) VALUES (?, ?, ?, ?, ?, ?)"),
      events: db.prepare("SELECT event FROM toolsmith_events WHERE app_name = ? AND user_id = ? AND session_id = ? AND timestamp >= ? ORDER BY seq"),
      recentEvents: db.prepare(
        "SELECT event FROM (SELECT seq, event FROM toolsmith_events WHERE app_name = ? AND user_id = ? AND session_id = ? AND timestamp >= ? ORDER BY seq DESC LIMIT ?) ORDER BY seq",
      ),
      appState: db.prepare("SELECT state FROM toolsmith_app_states WHERE app_name = ?"),
      putAppState: db.prepare("INSERT INTO toolsmith_app_states (app_name, state) VALUES (?, ?) ON CONFLICT (app_name) DO UPDATE SET state = excluded.state"),
      userState: db.prepare("SELECT state FROM toolsmith_user_states WHERE app_name = ? AND user_id = ?"),
      putUserState: db.prepare(
        "INSERT INTO toolsmith_user_states (app_name, user_id, state) VALUES (?, ?, ?) ON CONFLICT (app_name, user_id) DO UPDATE SET state = excluded.state",
      ),
      listAll: db.prepare("SELECT user_id, id, state, update_time FROM toolsmith_sessions WHERE app_name = ? ORDER BY update_time, id, user_id LIMIT ? OFFSET ?"),
      listUser: db.prepare(
        "SELECT user_id, id, state, update_time FROM toolsmith_sessions WHERE app_name = ? AND user_id = ? ORDER BY update_time, id, user_id LIMIT ? OFFSET ?",
      ),
      listAllNewestFirst: db.prepare("SELECT user_id, id, state, update_time FROM toolsmith_sessions WHERE app_name = ? ORDER BY update_time DESC, id, user_id LIMIT ? OFFSET ?"),
      listUserNewestFirst: db.prepare(
        "SELECT user_id, id, state, update_time FROM toolsmith_sessions WHERE app_name = ? AND user_id = ? ORDER BY update_time DESC, id, user_id LIMIT ? OFFSET ?",
      ),
      countAll: db.prepare("SELECT count(*) FROM toolsmith_sessions WHERE app_name = ?"),
      countUser: db.prepare("SELECT count(*) FROM toolsmith_sessions WHERE app_name = ? AND user_id = ?"),
    };
  }

  async createSession(request: CreateSessionRequest): Promise<Session> {
    checkSessionRequest("createSession", request, ["appName", "userId"], ["sessionId"]);
    assertJsonState(request.state ?? {});
    const sessionId = request.sessionId ?? newId();
    const scoped = splitStateDelta(request.state ?? {});
    const createTime = Date.now();
    this.#write(() => {
      if (this.#sql.sessionExists.value(request.appName, request.userId, sessionId)) {
        throw new ConfigurationError(
          "SESSION_EXISTS",
          `Session "${sessionId}" already exists for app "${request.appName}" and user "${request.userId}". Choose another sessionId or omit it.`,
        );
      }
      this.#sql.insertSession.run(request.appName, request.userId, sessionId, JSON.stringify(scoped.session), createTime, createTime);
      this.#mergeShared(request.appName, request.userId, scoped.app, scoped.user);
    });
    return (await this.getSession({ appName: request.appName, userId: request.userId, sessionId }))!;
  }

  /** The session `request.sessionId` names, or a new one; safe when two callers race for the same new id. */
  getOrCreateSession(request: CreateSessionRequest): Promise<Session> {
    return getOrCreateSessionIn(this, request);
  }

  async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    checkSessionRequest("getSession", request, ["appName", "userId", "sessionId"]);
    return this.#read(() => {
      const row = this.#sql.session.get(request.appName, request.userId, request.sessionId) as SessionRow | undefined;
      if (!row) return undefined;
      const after = request.config?.afterTimestamp ?? -Infinity;
      const recent = request.config?.numRecentEvents;
      const texts = (
        recent === undefined
          ? this.#sql.events.values(request.appName, request.userId, request.sessionId, after)
          : recent <= 0
            ? []
            : this.#sql.recentEvents.values(request.appName, request.userId, request.sessionId, after, recent)
      ) as string[];
      return this.#toSession(request.appName, row, texts.map((text) => JSON.parse(text) as Event));
    });
  }

  async listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse> {
    checkSessionRequest("listSessions", request, ["appName"], ["userId"]);
    const plan = planSessionList(request);
    return this.#read(() => {
      const { appName, userId } = request;
      const limit = plan.fetch ?? -1;
      const rows = (
        plan.descending
          ? userId === undefined ? this.#sql.listAllNewestFirst.all(appName, limit, plan.offset) : this.#sql.listUserNewestFirst.all(appName, userId, limit, plan.offset)
          : userId === undefined ? this.#sql.listAll.all(appName, limit, plan.offset) : this.#sql.listUser.all(appName, userId, limit, plan.offset)
      ) as SessionRow[];
      // ADK's paging counts every match; read in the same transaction, so the count and the page agree.
      const total = plan.kind === "adk" ? Number(userId === undefined ? this.#sql.countAll.value(appName) : this.#sql.countUser.value(appName, userId)) : undefined;
      return sessionListResponse(plan, rows.map((row) => this.#toSession(appName, row, [])), total);
    });
  }

  async deleteSession(request: SessionKey): Promise<void> {
    checkSessionRequest("deleteSession", request, ["appName", "userId", "sessionId"]);
    this.#write(() => {
      this.#sql.deleteEvents.run(request.appName, request.userId, request.sessionId);
      this.#sql.deleteSession.run(request.appName, request.userId, request.sessionId);
    });
  }

  async appendEvent(request: AppendEventRequest): Promise<Event> {
    checkAppendRequest(request);
    const { session, event } = request;
    if (event.partial) return event;
    assertJsonState(event.actions.stateDelta);
    const storedEvent = toStoredEvent(event);
    const text = JSON.stringify(storedEvent);
    const scoped = splitStateDelta(storedEvent.actions.stateDelta);
    const key = [session.appName, session.userId, session.id] as const;
    const updateTime = await this.#appends.write(session, () => {
      const storedAt = this.#sql.marker.value(...key) as number | undefined;
      if (storedAt === undefined) throw new SessionNotFoundError({ appName: session.appName, userId: session.userId, sessionId: session.id });
      if (session.lastUpdateTime < storedAt) throw new StaleSessionError({ sessionId: session.id, readAt: session.lastUpdateTime, storedAt });
      // The immediate transaction holds the file's write lock, so the shared state read here is what this append overwrites.
      if (writesSharedState(scoped)) assertNoSharedStateConflict(session, scoped, this.#sharedState(session.appName, session.userId));
      const updateTime = nextUpdateTime(storedAt, event.timestamp);
      this.#sql.insertEvent.run(...key, event.id, event.timestamp, text);
      if (hasKeys(scoped.session)) {
        const state = { ...JSON.parse(this.#sql.sessionState.value(...key) as string), ...scoped.session };
        this.#sql.updateSession.run(JSON.stringify(state), updateTime, ...key);
      } else this.#sql.touchSession.run(updateTime, ...key);
      this.#mergeShared(session.appName, session.userId, scoped.app, scoped.user);
      return updateTime;
    });
    applyEventToLiveSession(session, event, updateTime);
    return storedEvent;
  }

  /** Closes the file, when this service opened it. */
  async close(): Promise<void> {
    this.#appends.flushNow();
    if (this.#ownsDatabase) this.#database.close();
  }

  #sharedState(appName: string, userId: string): StoredSharedState {
    const app = this.#sql.appState.value(appName) as string | undefined;
    const user = this.#sql.userState.value(appName, userId) as string | undefined;
    return { app: app ? JSON.parse(app) : {}, user: user ? JSON.parse(user) : {} };
  }

  #mergeShared(appName: string, userId: string, app: Record<string, unknown>, user: Record<string, unknown>): void {
    if (hasKeys(app)) {
      const current = this.#sql.appState.value(appName) as string | undefined;
      this.#sql.putAppState.run(appName, JSON.stringify({ ...(current ? JSON.parse(current) : {}), ...app }));
    }
    if (hasKeys(user)) {
      const current = this.#sql.userState.value(appName, userId) as string | undefined;
      this.#sql.putUserState.run(appName, userId, JSON.stringify({ ...(current ? JSON.parse(current) : {}), ...user }));
    }
  }

  #toSession(appName: string, row: SessionRow, events: Event[]): Session {
    const app = this.#sql.appState.value(appName) as string | undefined;
    const user = this.#sql.userState.value(appName, row.user_id) as string | undefined;
    return {
      id: row.id,
      appName,
      userId: row.user_id,
      state: { ...(app ? JSON.parse(app) : {}), ...(user ? JSON.parse(user) : {}), ...JSON.parse(row.state) },
      events,
      lastUpdateTime: row.update_time,
    };
  }

  /** Runs `work` in a write transaction that takes the lock first, so another process cannot slip in between read and write. */
  #write<T>(work: () => T): T {
    try {
      return this.#database.transaction("immediate", work);
    } catch (error) {
      throw translateSqliteError(this.#path, error);
    }
  }

  /** Runs `work` in one read transaction, so the session, its state and its events come from one moment. */
  #read<T>(work: () => T): T {
    try {
      return this.#database.transaction("deferred", work);
    } catch (error) {
      throw translateSqliteError(this.#path, error);
    }
  }
}
