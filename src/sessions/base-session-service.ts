import type { Event } from "../events/event.js";
import type { Session } from "./session.js";
import type { AppendEventRequest, CreateSessionRequest, GetSessionRequest, ListSessionsRequest, ListSessionsResponse, SessionKey, SessionService } from "./session-service.js";
import { getOrCreateSessionIn } from "./store-requests.js";
import { hasTempKeys, withoutTempKeys } from "./state-prefixes.js";

/**
 * ADK's base class for a session store of your own: implement `createSession`, `getSession`, `listSessions` and
 * `deleteSession`, and override `appendEvent` to keep each event, calling `super.appendEvent` first, as ADK's
 * docs do. `super.appendEvent` does what ADK's does: a partial event is left alone; otherwise the event's `temp:`
 * keys are taken out of its state delta (so the event you then keep has none), the rest of the delta is written
 * to the session's state, and the event is added to the session's events (or replaces the one with its id).
 *
 * toolsmith's own stores implement {@link SessionService} directly; this class is for programs that extend ADK's.
 */
export abstract class BaseSessionService implements SessionService {
  abstract createSession(request: CreateSessionRequest): Promise<Session>;
  abstract getSession(request: GetSessionRequest): Promise<Session | undefined>;
  abstract listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse>;
  abstract deleteSession(request: SessionKey): Promise<void>;

  /**
   * The session `request.sessionId` names when it exists, else a new one made from `request` (with that id, when
   * one was given), as ADK's `getOrCreateSession`; a race for the same new id gives both callers the one session.
   */
  getOrCreateSession(request: CreateSessionRequest): Promise<Session> {
    return getOrCreateSessionIn(this, request);
  }

  /** Applies a complete event to `session` (see the class): what a subclass calls before keeping the event. */
  async appendEvent({ session, event }: AppendEventRequest): Promise<Event> {
    if (event.partial) return event;
    const delta = event.actions.stateDelta;
    if (hasTempKeys(delta)) event.actions.stateDelta = withoutTempKeys(delta);
    for (const key in event.actions.stateDelta) session.state[key] = event.actions.stateDelta[key];
    const index = session.events.findIndex((stored) => stored.id === event.id);
    if (index >= 0) session.events[index] = event;
    else session.events.push(event);
    return event;
  }
}
