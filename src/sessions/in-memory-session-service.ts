import { checkAppendRequest, checkSessionRequest, compareListedSessions, getOrCreateSessionIn, planSessionList, sessionListResponse } from "./store-requests.js";
import { ConfigurationError, SessionNotFoundError, StaleSessionError, type SharedStateConflictError } from "../errors/toolsmith-error.js";
import { newId } from "../events/new-id.js";
import type { Event } from "../events/event.js";
import type { Session } from "./session.js";
import type {
  AppendEventRequest,
  CreateSessionRequest,
  GetSessionRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  SessionKey,
  SessionService,
} from "./session-service.js";
import { splitStateDelta, type ScopedStateDelta } from "./state-prefixes.js";
import { hasKeys } from "../events/event-actions.js";
import { applyEventToLiveSession, nextUpdateTime, selectEvents, toStoredEvent } from "./apply-event.js";
import { assertJsonState } from "./json-value.js";
import { assertNoSharedStateConflict, writesSharedState } from "./shared-state-conflict.js";
import { packEvents, unpackEvents } from "./packed-events.js";
import { refuseUnhonouredOptions } from "../errors/unhonoured-option.js";

interface StoredSession {
  /** The session's own state; {@link NO_STATE} until a key is written (most sessions never write one). */
  state: Record<string, unknown>;
  /** The events as objects while the session is live; undefined while it is packed. */
  events: Event[] | undefined;
  /** The events packed ({@link packEvents}): set while idle, kept once unpacked until an append changes them. */
  packed: string | undefined;
  lastUpdateTime: number;
}

/** The state of every session that has none: shared and frozen, replaced by the session's own object at its first write. */
const NO_STATE: Record<string, unknown> = Object.freeze({});

/**
 * A session with fewer events than this has its list copied to its exact length when another session becomes
 * the most recently used: a list grown by appends keeps room for 16 more (V8 grows an array to 1.5 × + 16),
 * about 100 bytes of a small live session. Copying at each append instead cost the loop 2 % of a model turn;
 * a longer session keeps its room (a smaller share of it, and a copy that grows with it).
 */
const TRIMMED_BELOW = 16;

// Set by InMemorySessionService's static block, which alone reaches its private append.
let appendNow: (service: InMemorySessionService, request: AppendEventRequest) => Event;
let appendsNow: (service: object) => service is InMemorySessionService;

/**
 * The store's append as a plain call, when `service` is an {@link InMemorySessionService} whose `appendEvent` is
 * its own (not replaced by a subclass, on the instance or on the prototype): the runner stores each event of a
 * run, and awaiting an append that is already done cost a model turn about 4 % (two suspensions of the run's
 * generator and the promises between). Undefined for any other store, whose `appendEvent` the runner awaits.
 */
export function synchronousAppend(service: SessionService): ((request: AppendEventRequest) => Event) | undefined {
  return appendsNow(service) ? (request) => appendNow(service, request) : undefined;
}

/** Options of {@link InMemorySessionService}. */
export interface InMemorySessionServiceOptions {
  /**
   * How many of the most recently used sessions keep their events as objects (default 1,000). The others keep them
   * packed (their JSON, deflated: about a third of the memory for small sessions) and unpack them on their next
   * use, which costs about 15 µs for a small session and grows with its events. At least 1.
   */
  liveSessions?: number;
}

/**
 * Keeps sessions in this process's memory: nothing to set up, nothing survives
 * a restart. Good for tests and scripts; use the SQLite or PostgreSQL service
 * for anything that must last. Appends follow the same rules as theirs: a stale
 * copy throws {@link StaleSessionError}, and a write to an `app:` or `user:` key
 * another session changed since this one was read throws
 * {@link SharedStateConflictError} (see {@link assertNoSharedStateConflict}).
 */
export class InMemorySessionService implements SessionService {
  readonly #sessions = new Map<string, Map<string, Map<string, StoredSession>>>();
  readonly #appState = new Map<string, Record<string, unknown>>();
  readonly #userState = new Map<string, Map<string, Record<string, unknown>>>();
  /** The live sessions, least recently used first. */
  readonly #live = new Set<StoredSession>();
  #newest: StoredSession | undefined;
  readonly #liveLimit: number;

  constructor(options: InMemorySessionServiceOptions = {}) {
    if (new.target === InMemorySessionService) refuseUnhonouredOptions("InMemorySessionService", options, ["liveSessions"]);
    const limit = options.liveSessions ?? 1_000;
    if (!Number.isInteger(limit) || limit < 1) {
      throw new ConfigurationError("INVALID_SESSION_STORE_OPTION", `liveSessions must be a whole number of at least 1, not ${String(limit)}. Leave it out for 1,000.`);
    }
    this.#liveLimit = limit;
  }

  async createSession(request: CreateSessionRequest): Promise<Session> {
    checkSessionRequest("createSession", request, ["appName", "userId"], ["sessionId"]);
    const sessionId = request.sessionId ?? newId();
    const userSessions = this.#userSessions(request.appName, request.userId, true);
    if (userSessions.has(sessionId)) {
      throw new ConfigurationError(
        "SESSION_EXISTS",
        `Session "${sessionId}" already exists for app "${request.appName}" and user "${request.userId}". Choose another sessionId or omit it.`,
      );
    }
    assertJsonState(request.state ?? {});
    const scoped = splitStateDelta(request.state ?? {});
    this.#mergeSharedState(request.appName, request.userId, scoped);
    const stored: StoredSession = { state: hasKeys(scoped.session) ? scoped.session : NO_STATE, events: [], packed: undefined, lastUpdateTime: Date.now() };
    userSessions.set(sessionId, stored);
    return this.#toSession(request.appName, request.userId, sessionId, stored, this.#eventsOf(stored).slice());
  }

  /** The session `request.sessionId` names, or a new one; safe when two callers race for the same new id. */
  getOrCreateSession(request: CreateSessionRequest): Promise<Session> {
    return getOrCreateSessionIn(this, request);
  }

  async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    checkSessionRequest("getSession", request, ["appName", "userId", "sessionId"]);
    const stored = this.#userSessions(request.appName, request.userId, false)?.get(request.sessionId);
    if (!stored) return undefined;
    return this.#toSession(request.appName, request.userId, request.sessionId, stored, selectEvents(this.#eventsOf(stored), request.config));
  }

  async listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse> {
    checkSessionRequest("listSessions", request, ["appName"], ["userId"]);
    const plan = planSessionList(request);
    const users = this.#sessions.get(request.appName);
    const sessions: Session[] = [];
    for (const [userId, userSessions] of users ?? []) {
      if (request.userId !== undefined && userId !== request.userId) continue;
      for (const [sessionId, stored] of userSessions) sessions.push(this.#toSession(request.appName, userId, sessionId, stored, []));
    }
    sessions.sort(compareListedSessions(plan.descending));
    const page = sessions.slice(plan.offset, plan.fetch === undefined ? undefined : plan.offset + plan.fetch);
    return sessionListResponse(plan, page, sessions.length);
  }

  async deleteSession(request: SessionKey): Promise<void> {
    checkSessionRequest("deleteSession", request, ["appName", "userId", "sessionId"]);
    const sessions = this.#userSessions(request.appName, request.userId, false);
    const stored = sessions?.get(request.sessionId);
    if (!stored) return;
    sessions!.delete(request.sessionId);
    this.#live.delete(stored);
    if (this.#newest === stored) this.#newest = undefined;
  }

  async appendEvent(request: AppendEventRequest): Promise<Event> {
    // The runner's own appends skip this check (it checked each event it made): see synchronousAppend.
    checkAppendRequest(request);
    return this.#append(request);
  }

  static {
    // The method as the class defined it: one patched later on the prototype (a logging wrapper) must be called.
    const ownAppendEvent = InMemorySessionService.prototype.appendEvent;
    appendNow = (service, request) => service.#append(request);
    appendsNow = (service): service is InMemorySessionService => #append in service && (service as InMemorySessionService).appendEvent === ownAppendEvent;
  }

  /** {@link appendEvent}'s work, done at once: what {@link synchronousAppend} hands the runner. */
  #append({ session, event }: AppendEventRequest): Event {
    if (event.partial) return event;
    assertJsonState(event.actions.stateDelta);
    const stored = this.#userSessions(session.appName, session.userId, false)?.get(session.id);
    if (!stored) throw new SessionNotFoundError({ appName: session.appName, userId: session.userId, sessionId: session.id });
    if (session.lastUpdateTime < stored.lastUpdateTime) {
      throw new StaleSessionError({ sessionId: session.id, readAt: session.lastUpdateTime, storedAt: stored.lastUpdateTime });
    }
    const storedEvent = toStoredEvent(event);
    // Most events change no state: nothing to split, check or merge.
    if (hasKeys(storedEvent.actions.stateDelta)) this.#applyStateDelta(session, stored, storedEvent.actions.stateDelta);
    this.#eventsOf(stored).push(storedEvent);
    stored.packed = undefined;
    stored.lastUpdateTime = nextUpdateTime(stored.lastUpdateTime, event.timestamp);
    applyEventToLiveSession(session, event, stored.lastUpdateTime);
    return storedEvent;
  }

  /** Merges a stored event's delta into the app's, the user's and the session's state, refusing a conflicting shared write. */
  #applyStateDelta(session: Session, stored: StoredSession, delta: Record<string, unknown>): void {
    const scoped = splitStateDelta(delta);
    if (writesSharedState(scoped)) {
      assertNoSharedStateConflict(session, scoped, {
        app: this.#appState.get(session.appName) ?? {},
        user: this.#userState.get(session.appName)?.get(session.userId) ?? {},
      });
    }
    this.#mergeSharedState(session.appName, session.userId, scoped);
    if (!hasKeys(scoped.session)) return;
    if (stored.state === NO_STATE) stored.state = scoped.session; // splitStateDelta made it for this write
    else Object.assign(stored.state, scoped.session);
  }

  /** The session's events as objects, unpacked when it was idle; it becomes the most recently used. */
  #eventsOf(stored: StoredSession): Event[] {
    if (this.#newest !== stored) {
      const left = this.#newest?.events;
      if (left !== undefined && left.length > 0 && left.length < TRIMMED_BELOW) this.#newest!.events = left.slice();
      this.#live.delete(stored);
      this.#live.add(stored);
      this.#newest = stored;
      if (this.#live.size > this.#liveLimit) this.#packLeastRecent();
    }
    return (stored.events ??= unpackEvents(stored.packed!));
  }

  /** Packs the least recently used sessions beyond the limit. One whose events cannot be packed stays as objects. */
  #packLeastRecent(): void {
    for (const oldest of this.#live) {
      if (this.#live.size <= this.#liveLimit) return;
      this.#live.delete(oldest);
      const events = oldest.events!;
      if (events.length === 0) continue;
      oldest.packed ??= packEvents(events);
      if (oldest.packed !== undefined) oldest.events = undefined;
    }
  }

  #toSession(appName: string, userId: string, sessionId: string, stored: StoredSession, events: Event[]): Session {
    return {
      id: sessionId,
      appName,
      userId,
      state: { ...this.#appState.get(appName), ...this.#userState.get(appName)?.get(userId), ...stored.state },
      events,
      lastUpdateTime: stored.lastUpdateTime,
    };
  }

  #userSessions(appName: string, userId: string, create: true): Map<string, StoredSession>;
  #userSessions(appName: string, userId: string, create: false): Map<string, StoredSession> | undefined;
  #userSessions(appName: string, userId: string, create: boolean): Map<string, StoredSession> | undefined {
    let users = this.#sessions.get(appName);
    if (!users) {
      if (!create) return undefined;
      users = new Map();
      this.#sessions.set(appName, users);
    }
    let sessions = users.get(userId);
    if (!sessions && create) {
      sessions = new Map();
      users.set(userId, sessions);
    }
    return sessions;
  }

  /**
   * Merges the `app:` and `user:` keys of a delta into the shared state. The app's and the user's records are
   * made at their first key: a server with a session each for many users keeps no empty record per user.
   */
  #mergeSharedState(appName: string, userId: string, scoped: ScopedStateDelta): void {
    if (hasKeys(scoped.app)) Object.assign(this.#appStateOf(appName), scoped.app);
    if (hasKeys(scoped.user)) Object.assign(this.#userStateOf(appName, userId), scoped.user);
  }

  #appStateOf(appName: string): Record<string, unknown> {
    let state = this.#appState.get(appName);
    if (!state) this.#appState.set(appName, (state = {}));
    return state;
  }

  #userStateOf(appName: string, userId: string): Record<string, unknown> {
    let users = this.#userState.get(appName);
    if (!users) this.#userState.set(appName, (users = new Map()));
    let state = users.get(userId);
    if (!state) users.set(userId, (state = {}));
    return state;
  }

  /** Nothing to release; here so every service can be closed the same way. */
  async close(): Promise<void> {}
}
