import { checkAppendRequest, checkSessionRequest, getOrCreateSessionIn, planSessionList, sessionListResponse } from "../sessions/store-requests.js";
import type pg from "pg";
import { ConfigurationError, isToolsmithError, SessionNotFoundError, StaleSessionError, type SharedStateConflictError } from "../errors/toolsmith-error.js";
import type { Event } from "../events/event.js";
import { newId } from "../events/new-id.js";
import { applyEventToLiveSession, toStoredEvent } from "../sessions/apply-event.js";
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
import { splitStateDelta, type ScopedStateDelta } from "../sessions/state-prefixes.js";
import { hasKeys } from "../events/event-actions.js";
import { assertNoSharedStateConflict, writesSharedState, type StoredSharedState } from "../sessions/shared-state-conflict.js";
import { inTransaction, openPostgresComponent, type PostgresOptions } from "./postgres-database.js";

/** Thrown inside an append's transaction when it matched no session, so that the transaction rolls back. */
const NO_SESSION_ROW = Symbol("no session row");

const MIGRATIONS = [
  `CREATE TABLE toolsmith_sessions (
     app_name text NOT NULL, user_id text NOT NULL, id text NOT NULL,
     state jsonb NOT NULL, create_time double precision NOT NULL, update_time double precision NOT NULL,
     PRIMARY KEY (app_name, user_id, id));
   CREATE INDEX toolsmith_sessions_by_update ON toolsmith_sessions (app_name, update_time, id);
   CREATE TABLE toolsmith_events (
     seq bigserial PRIMARY KEY,
     app_name text NOT NULL, user_id text NOT NULL, session_id text NOT NULL,
     id text NOT NULL, timestamp double precision NOT NULL, event text NOT NULL);
   CREATE INDEX toolsmith_events_by_session ON toolsmith_events (app_name, user_id, session_id, seq);
   CREATE TABLE toolsmith_app_states (app_name text PRIMARY KEY, state jsonb NOT NULL);
   CREATE TABLE toolsmith_user_states (app_name text NOT NULL, user_id text NOT NULL, state jsonb NOT NULL, PRIMARY KEY (app_name, user_id));`,
];

// One statement, so one round trip and one transaction: the conditional UPDATE is the stale check (a writer
// that waited for the row lock re-reads update_time and matches nothing), and the event and the shared
// state are written only when it matched.
const APPEND = `
WITH s AS (
  UPDATE toolsmith_sessions SET state = state || $4::jsonb,
    update_time = CASE WHEN $5::float8 > update_time THEN $5::float8 ELSE update_time + 1 END
  WHERE app_name = $1::text AND user_id = $2::text AND id = $3::text AND update_time <= $6::float8
  RETURNING update_time),
e AS (
  INSERT INTO toolsmith_events (app_name, user_id, session_id, id, timestamp, event)
  SELECT $1::text, $2::text, $3::text, $7::text, $5::float8, $8::text FROM s),
a AS (
  INSERT INTO toolsmith_app_states (app_name, state) SELECT $1::text, $9::jsonb FROM s WHERE $9::jsonb <> '{}'::jsonb
  ON CONFLICT (app_name) DO UPDATE SET state = toolsmith_app_states.state || EXCLUDED.state),
u AS (
  INSERT INTO toolsmith_user_states (app_name, user_id, state) SELECT $1::text, $2::text, $10::jsonb FROM s WHERE $10::jsonb <> '{}'::jsonb
  ON CONFLICT (app_name, user_id) DO UPDATE SET state = toolsmith_user_states.state || EXCLUDED.state)
SELECT update_time FROM s`;

// Lock the shared row an append is about to write and return its state, creating it empty when absent (inside
// the append's transaction, so a refused append leaves no row behind). ON CONFLICT DO UPDATE locks the row and
// returns its newest committed version, which a plain SELECT in READ COMMITTED would not promise to.
const LOCK_APP_STATE = `
INSERT INTO toolsmith_app_states (app_name, state) VALUES ($1::text, '{}'::jsonb)
ON CONFLICT (app_name) DO UPDATE SET state = toolsmith_app_states.state RETURNING state`;
const LOCK_USER_STATE = `
INSERT INTO toolsmith_user_states (app_name, user_id, state) VALUES ($1::text, $2::text, '{}'::jsonb)
ON CONFLICT (app_name, user_id) DO UPDATE SET state = toolsmith_user_states.state RETURNING state`;

const CREATE = `
WITH s AS (
  INSERT INTO toolsmith_sessions (app_name, user_id, id, state, create_time, update_time)
  VALUES ($1::text, $2::text, $3::text, $4::jsonb, $5::float8, $5::float8) ON CONFLICT DO NOTHING RETURNING 1),
a AS (
  INSERT INTO toolsmith_app_states (app_name, state) SELECT $1::text, $6::jsonb FROM s WHERE $6::jsonb <> '{}'::jsonb
  ON CONFLICT (app_name) DO UPDATE SET state = toolsmith_app_states.state || EXCLUDED.state),
u AS (
  INSERT INTO toolsmith_user_states (app_name, user_id, state) SELECT $1::text, $2::text, $7::jsonb FROM s WHERE $7::jsonb <> '{}'::jsonb
  ON CONFLICT (app_name, user_id) DO UPDATE SET state = toolsmith_user_states.state || EXCLUDED.state)
SELECT count(*)::int AS created FROM s`;

const SESSION_COLUMNS = `s.user_id, s.id, s.state, s.update_time, a.state AS app_state, u.state AS user_state`;
const SHARED_STATE_JOINS = `LEFT JOIN toolsmith_app_states a ON a.app_name = s.app_name
  LEFT JOIN toolsmith_user_states u ON u.app_name = s.app_name AND u.user_id = s.user_id`;

// The session, its shared state and its events in one statement, so they are read at one moment. The stored
// events are JSON texts, joined into one JSON array so the client parses once.
const GET = `
SELECT ${SESSION_COLUMNS},
  (SELECT '[' || coalesce(string_agg(r.event, ',' ORDER BY r.seq), '') || ']' FROM (
    SELECT e.seq, e.event FROM toolsmith_events e
    WHERE e.app_name = s.app_name AND e.user_id = s.user_id AND e.session_id = s.id AND ($4::float8 IS NULL OR e.timestamp >= $4::float8)
    ORDER BY e.seq DESC LIMIT $5::bigint) r) AS events
FROM toolsmith_sessions s ${SHARED_STATE_JOINS}
WHERE s.app_name = $1::text AND s.user_id = $2::text AND s.id = $3::text`;

const LIST_WHERE = `WHERE s.app_name = $1::text AND ($2::text IS NULL OR s.user_id = $2::text)`;
const LIST = `
SELECT ${SESSION_COLUMNS} FROM toolsmith_sessions s ${SHARED_STATE_JOINS}
${LIST_WHERE}
ORDER BY s.update_time, s.id, s.user_id LIMIT $3::bigint OFFSET $4::bigint`;

// ADK's paging: the page and the count of every match in one statement, so the two agree. The count comes first
// and the page is joined to it, so a page past the end still brings the count.
const countedList = (order: string) => `
SELECT c.total_items, p.* FROM (SELECT count(*)::int AS total_items FROM toolsmith_sessions s ${LIST_WHERE}) c
LEFT JOIN LATERAL (
  SELECT ${SESSION_COLUMNS} FROM toolsmith_sessions s ${SHARED_STATE_JOINS}
  ${LIST_WHERE}
  ORDER BY ${order} LIMIT $3::bigint OFFSET $4::bigint) p ON true`;
const COUNTED_LIST = countedList("s.update_time, s.id, s.user_id");
const COUNTED_LIST_NEWEST_FIRST = countedList("s.update_time DESC, s.id, s.user_id");

interface SessionRow {
  user_id: string;
  id: string;
  state: Record<string, unknown>;
  update_time: number;
  app_state: Record<string, unknown> | null;
  user_state: Record<string, unknown> | null;
  /** A JSON array of the selected events, for getSession. */
  events?: string;
}

/**
 * Sessions in PostgreSQL, for many stateless server processes over one
 * database. Each append is one statement: it stores the event, applies its
 * state delta and moves the update marker only if the caller's copy is
 * current, so a stale writer gets {@link StaleSessionError} and no write is
 * lost. An append that writes `app:` or `user:` keys first locks those shared
 * rows and checks them against what the session read; one that would overwrite
 * another session's change gets {@link SharedStateConflictError} (the rule is
 * {@link assertNoSharedStateConflict}'s). Either way nothing is stored. Create
 * it with {@link PostgresSessionService.open}.
 *
 * @example
 * ```ts
 * import { PostgresSessionService } from "toolsmith/postgres";
 * const sessionService = await PostgresSessionService.open({ connectionString: process.env.DATABASE_URL! });
 * ```
 */
export class PostgresSessionService implements SessionService {
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;

  private constructor(pool: pg.Pool, ownsPool: boolean) {
    this.#pool = pool;
    this.#ownsPool = ownsPool;
  }

  /** Connects, creates or upgrades the tables, and returns the service. */
  static async open(options: PostgresOptions): Promise<PostgresSessionService> {
    const { pool, ownsPool } = await openPostgresComponent("PostgresSessionService", options, "sessions", MIGRATIONS);
    return new PostgresSessionService(pool, ownsPool);
  }

  async createSession(request: CreateSessionRequest): Promise<Session> {
    checkSessionRequest("createSession", request, ["appName", "userId"], ["sessionId"]);
    assertJsonState(request.state ?? {});
    const sessionId = request.sessionId ?? newId();
    const scoped = splitStateDelta(request.state ?? {});
    const result = await this.#pool.query<{ created: number }>(CREATE, [
      request.appName,
      request.userId,
      sessionId,
      JSON.stringify(scoped.session),
      Date.now(),
      JSON.stringify(scoped.app),
      JSON.stringify(scoped.user),
    ]);
    if (result.rows[0]!.created === 0) {
      throw new ConfigurationError(
        "SESSION_EXISTS",
        `Session "${sessionId}" already exists for app "${request.appName}" and user "${request.userId}". Choose another sessionId or omit it.`,
      );
    }
    return (await this.getSession({ appName: request.appName, userId: request.userId, sessionId }))!;
  }

  /** The session `request.sessionId` names, or a new one; safe when two callers race for the same new id. */
  getOrCreateSession(request: CreateSessionRequest): Promise<Session> {
    return getOrCreateSessionIn(this, request);
  }

  async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    checkSessionRequest("getSession", request, ["appName", "userId", "sessionId"]);
    const recent = request.config?.numRecentEvents;
    const result = await this.#pool.query<SessionRow>(GET, [
      request.appName,
      request.userId,
      request.sessionId,
      request.config?.afterTimestamp ?? null,
      recent === undefined ? null : Math.max(0, recent),
    ]);
    const row = result.rows[0];
    if (!row) return undefined;
    return toSession(request.appName, row, JSON.parse(row.events!) as Event[]);
  }

  async listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse> {
    checkSessionRequest("listSessions", request, ["appName"], ["userId"]);
    const plan = planSessionList(request);
    const parameters = [request.appName, request.userId ?? null, plan.fetch ?? null, plan.offset];
    if (plan.kind === "token") {
      const result = await this.#pool.query<SessionRow>(LIST, parameters);
      return sessionListResponse(plan, result.rows.map((row) => toSession(request.appName, row, [])), undefined);
    }
    const result = await this.#pool.query<SessionRow & { total_items: number }>(plan.descending ? COUNTED_LIST_NEWEST_FIRST : COUNTED_LIST, parameters);
    const rows = result.rows.filter((row) => row.id !== null);
    return sessionListResponse(plan, rows.map((row) => toSession(request.appName, row, [])), result.rows[0]?.total_items ?? 0);
  }

  async deleteSession(request: SessionKey): Promise<void> {
    checkSessionRequest("deleteSession", request, ["appName", "userId", "sessionId"]);
    await this.#pool.query(
      `WITH e AS (DELETE FROM toolsmith_events WHERE app_name = $1 AND user_id = $2 AND session_id = $3)
       DELETE FROM toolsmith_sessions WHERE app_name = $1 AND user_id = $2 AND id = $3`,
      [request.appName, request.userId, request.sessionId],
    );
  }

  async appendEvent(request: AppendEventRequest): Promise<Event> {
    checkAppendRequest(request);
    const { session, event } = request;
    if (event.partial) return event;
    assertJsonState(event.actions.stateDelta);
    const storedEvent = toStoredEvent(event);
    const scoped = splitStateDelta(storedEvent.actions.stateDelta);
    const parameters = [
      session.appName,
      session.userId,
      session.id,
      JSON.stringify(scoped.session),
      event.timestamp,
      session.lastUpdateTime,
      event.id,
      JSON.stringify(storedEvent),
      JSON.stringify(scoped.app),
      JSON.stringify(scoped.user),
    ];
    const row = writesSharedState(scoped)
      ? await this.#appendWithSharedState(session, scoped, parameters)
      : (await this.#pool.query<{ update_time: number }>(APPEND, parameters)).rows[0];
    if (!row) {
      // Matched no session: gone, or changed since this copy was read (even if a re-read here looks current, as it would after a race).
      const storedAt = await this.#refuse(session);
      throw new StaleSessionError({ sessionId: session.id, readAt: session.lastUpdateTime, storedAt });
    }
    applyEventToLiveSession(session, event, row.update_time);
    return storedEvent;
  }

  /** Ends the pool, when this service made it. */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.end();
  }

  /**
   * An append that writes `app:` or `user:` keys: one transaction that first locks the shared rows it writes
   * (the app's before the user's, always, so two appends cannot deadlock on them), checks them against what the
   * session read, and only then runs the one-statement append. Without the locks, another session could change
   * a shared key between the check and the write. Resolves to no row when the session is stale or gone.
   */
  async #appendWithSharedState(session: Session, scoped: ScopedStateDelta, parameters: unknown[]): Promise<{ update_time: number } | undefined> {
    try {
      return await inTransaction(this.#pool, async (client) => {
        const stored: StoredSharedState = { app: {}, user: {} };
        if (hasKeys(scoped.app)) stored.app = (await client.query<{ state: Record<string, unknown> }>(LOCK_APP_STATE, [session.appName])).rows[0]!.state;
        if (hasKeys(scoped.user)) stored.user = (await client.query<{ state: Record<string, unknown> }>(LOCK_USER_STATE, [session.appName, session.userId])).rows[0]!.state;
        assertNoSharedStateConflict(session, scoped, stored);
        const row = (await client.query<{ update_time: number }>(APPEND, parameters)).rows[0];
        // No row: the session is stale or gone. Thrown so the transaction rolls back the rows the locks made.
        if (!row) throw NO_SESSION_ROW;
        return row;
      });
    } catch (error) {
      if (error === NO_SESSION_ROW) return undefined;
      // A session that is itself stale (or gone) is reported as such first, as the other services do.
      if (isToolsmithError(error) && error.code === "SHARED_STATE_CONFLICT") await this.#refuse(session);
      throw error;
    }
  }

  /** Throws {@link SessionNotFoundError} or {@link StaleSessionError} when the session is gone or changed; otherwise returns its stored update marker. */
  async #refuse(session: Session): Promise<number> {
    const current = await this.#pool.query<{ update_time: number }>(
      "SELECT update_time FROM toolsmith_sessions WHERE app_name = $1 AND user_id = $2 AND id = $3",
      [session.appName, session.userId, session.id],
    );
    const storedAt = current.rows[0]?.update_time;
    if (storedAt === undefined) throw new SessionNotFoundError({ appName: session.appName, userId: session.userId, sessionId: session.id });
    if (storedAt > session.lastUpdateTime) throw new StaleSessionError({ sessionId: session.id, readAt: session.lastUpdateTime, storedAt });
    return storedAt;
  }
}

function toSession(appName: string, row: SessionRow, events: Event[]): Session {
  return {
    id: row.id,
    appName,
    userId: row.user_id,
    state: { ...row.app_state, ...row.user_state, ...row.state },
    events,
    lastUpdateTime: row.update_time,
  };
}
