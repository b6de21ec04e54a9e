import { branchSafeId } from "../agents/branch.js";
import type { FunctionCall, FunctionResponse } from "../content/content.js";
import type { AuthConfig } from "../events/event-actions.js";
import type { Event } from "../events/event.js";

/** A function call of the session, with the event it came in. */
export interface LocatedCall {
  call: FunctionCall;
  event: Event;
}

/**
 * Every function call of a session, its latest response, and the credential
 * requests tools stored, built in one pass over the history and kept up to
 * date with {@link CallIndex.add} as events are stored. The runner builds one
 * per invocation; checking the client's answers, finding whose call they
 * answer and repairing interrupted calls all read it instead of scanning the
 * history again.
 */
export class CallIndex {
  readonly #calls = new Map<string, LocatedCall>();
  readonly #responses = new Map<string, FunctionResponse>();
  readonly #authRequests = new Map<string, AuthConfig>();
  /** Built on first use: only resuming inside an agent tool's branch asks for it, and the regex per call is not free. */
  #byBranchSafeId: Map<string, LocatedCall> | undefined;

  constructor(events: readonly Event[] = []) {
    for (const event of events) this.add(event);
  }

  /** Takes a stored event into the index. */
  add(event: Event): void {
    for (const part of event.content?.parts ?? []) {
      const call = part.functionCall;
      if (call?.id) {
        const located = { call, event };
        this.#calls.set(call.id, located);
        this.#byBranchSafeId?.set(branchSafeId(call.id), located);
      }
      const response = part.functionResponse;
      if (response?.id) this.#responses.set(response.id, response);
    }
    // No Object.entries here: an array per event on every run, for a field almost always empty.
    const requested = event.actions?.requestedAuthConfigs;
    if (requested) for (const callId in requested) this.#authRequests.set(callId, requested[callId]!);
  }

  /** The call with this id, and its event. */
  call(id: string): LocatedCall | undefined {
    return this.#calls.get(id);
  }

  /** The call whose id, made branch-safe, is this (agent-tool branches name their call that way). */
  callByBranchSafeId(safeId: string): LocatedCall | undefined {
    if (!this.#byBranchSafeId) {
      this.#byBranchSafeId = new Map();
      for (const located of this.#calls.values()) this.#byBranchSafeId.set(branchSafeId(located.call.id!), located);
    }
    return this.#byBranchSafeId.get(safeId);
  }

  /** The latest response to the call with this id. */
  response(id: string): FunctionResponse | undefined {
    return this.#responses.get(id);
  }

  /** The credential request the call with this id stored, with the secrets the client never saw. */
  authRequest(id: string): AuthConfig | undefined {
    return this.#authRequests.get(id);
  }

  /** Every call, in the order they were made. */
  calls(): IterableIterator<LocatedCall> {
    return this.#calls.values();
  }

  /** Every call that has no response yet, in order. */
  *unanswered(): Generator<LocatedCall> {
    for (const located of this.#calls.values()) if (!this.#responses.has(located.call.id!)) yield located;
  }
}

/**
 * The calls of a history that have no response, exactly as `new CallIndex(events).unanswered()` lists them, for
 * a run that needs nothing else of the index (one that answers no paused call). Where every call is answered
 * (nearly always), it finds so without indexing the history: a call is held only until a response with its id
 * comes (the index was a quarter of a turn on a 100,000-event session). The ids in flight are a few at a time,
 * kept in a short list (a `Map` cost this walk half its time); past {@link MOST_IN_FLIGHT} of them, or when a
 * call is left over (which also happens when an id is called again after its response: the index counts that as
 * answered), the index decides.
 */
export function unansweredCalls(events: readonly Event[]): LocatedCall[] {
  const inFlight: string[] = [];
  // Indexed: `for … of` makes an iterator result per step until V8 optimizes this walk (see getFunctionCalls).
  for (let eventIndex = 0; eventIndex < events.length; eventIndex++) {
    const parts = events[eventIndex]!.content?.parts;
    if (!parts) continue;
    for (let partIndex = 0; partIndex < parts.length; partIndex++) {
      const part = parts[partIndex]!;
      const callId = part.functionCall?.id;
      if (callId && !inFlight.includes(callId)) {
        if (inFlight.length === MOST_IN_FLIGHT) return [...new CallIndex(events).unanswered()];
        inFlight.push(callId);
      }
      const responseId = part.functionResponse?.id;
      if (responseId && inFlight.length > 0) {
        const position = inFlight.indexOf(responseId);
        // The ids are distinct and their order does not matter: the last one takes the answered one's place
        // (`splice` would make a list of the removed id each time).
        if (position >= 0) {
          inFlight[position] = inFlight[inFlight.length - 1]!;
          inFlight.pop();
        }
      }
    }
  }
  return inFlight.length === 0 ? [] : [...new CallIndex(events).unanswered()];
}

/** How many calls {@link unansweredCalls} follows at once in its list before it lets the index decide. */
const MOST_IN_FLIGHT = 32;
