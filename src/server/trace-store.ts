import { getFunctionCalls, getFunctionResponses } from "../content/content.js";
import type { Event } from "../events/event.js";

/** One timed step of a run, in the shape ADK's dev UI reads from its trace endpoints. */
export interface TraceSpan {
  name: string;
  span_id: string;
  trace_id: string;
  /** Nanoseconds since the epoch. */
  start_time: number;
  end_time: number;
  attributes: Record<string, unknown>;
  parent_span_id: string | null;
}

/**
 * Remembers how long each event of recent runs took to produce (from the
 * previous event of the run to this one), per session and per event. Bounded:
 * the oldest sessions are forgotten first.
 */
export class TraceStore {
  readonly #bySession = new Map<string, TraceSpan[]>();
  readonly #byEvent = new Map<string, TraceSpan>();
  readonly #maxSessions: number;

  constructor(options: { maxSessions?: number } = {}) {
    this.#maxSessions = options.maxSessions ?? 1000;
  }

  /** Records an event that ended a step begun at `startedAt` (ms). */
  record(options: { sessionId: string; event: Event; startedAt: number }): void {
    const { event, sessionId } = options;
    const calls = getFunctionCalls(event.content);
    const responses = getFunctionResponses(event.content);
    const name = responses.length ? `execute_tool ${responses.map((response) => response.name).join(", ")}` : event.author === "user" ? "user_message" : "call_llm";
    const span: TraceSpan = {
      name,
      span_id: event.id,
      trace_id: event.invocationId,
      start_time: Math.round(options.startedAt * 1e6),
      end_time: Math.round(Math.max(event.timestamp, options.startedAt) * 1e6),
      parent_span_id: null,
      attributes: {
        "gcp.vertex.agent.event_id": event.id,
        "gcp.vertex.agent.invocation_id": event.invocationId,
        "gcp.vertex.agent.session_id": sessionId,
        author: event.author,
        ...(calls.length ? { function_calls: calls.map((call) => call.name) } : {}),
        ...(responses.length ? { function_responses: responses.map((response) => response.name) } : {}),
      },
    };
    let spans = this.#bySession.get(sessionId);
    if (!spans) {
      if (this.#bySession.size >= this.#maxSessions) this.#forgetOldest();
      this.#bySession.set(sessionId, (spans = []));
    }
    spans.push(span);
    this.#byEvent.set(event.id, span);
  }

  forEvent(eventId: string): TraceSpan | undefined {
    return this.#byEvent.get(eventId);
  }

  forSession(sessionId: string): TraceSpan[] {
    return this.#bySession.get(sessionId) ?? [];
  }

  #forgetOldest(): void {
    const oldest = this.#bySession.keys().next().value;
    if (oldest === undefined) return;
    for (const span of this.#bySession.get(oldest) ?? []) this.#byEvent.delete(span.span_id);
    this.#bySession.delete(oldest);
  }
}
