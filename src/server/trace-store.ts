import { onSpanEnd, type FinishedSpan } from "../telemetry/spans.js";
import { GenAi } from "../telemetry/gen-ai-attributes.js";

/** One span of a run, in the shape ADK's dev UI reads from its trace endpoints. */
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

const stores = new Set<WeakRef<TraceStore>>();
let unsubscribe: (() => void) | undefined;
// A store nobody holds any more (a server closed) stops receiving spans.
const forgotten = new FinalizationRegistry<WeakRef<TraceStore>>((reference) => {
  stores.delete(reference);
  if (stores.size === 0) {
    unsubscribe?.();
    unsubscribe = undefined;
  }
});

/**
 * The spans of recent runs in this process, as OpenTelemetry would export
 * them (the same spans, from toolsmith's in-process listener), per session
 * and per event. Bounded: the oldest sessions are forgotten first.
 */
export class TraceStore {
  readonly #bySession = new Map<string, TraceSpan[]>();
  readonly #byEvent = new Map<string, TraceSpan>();
  readonly #maxSessions: number;

  constructor(options: { maxSessions?: number } = {}) {
    this.#maxSessions = options.maxSessions ?? 1000;
    const reference = new WeakRef(this);
    stores.add(reference);
    forgotten.register(this, reference);
    unsubscribe ??= onSpanEnd((span) => {
      for (const store of stores) store.deref()?.record(span);
    });
  }

  /** Keeps a span that ended, under its session (`gen_ai.conversation.id`) and event (`gcp.vertex.agent.event_id`). */
  record(finished: FinishedSpan): void {
    const sessionId = finished.attributes[GenAi.conversationId];
    if (typeof sessionId !== "string") return;
    const span: TraceSpan = {
      name: finished.name,
      span_id: finished.spanId,
      trace_id: finished.traceId,
      start_time: finished.startTime * 1e6,
      end_time: finished.endTime * 1e6,
      attributes: finished.attributes,
      parent_span_id: finished.parentSpanId ?? null,
    };
    let spans = this.#bySession.get(sessionId);
    if (!spans) {
      if (this.#bySession.size >= this.#maxSessions) this.#forgetOldest();
      this.#bySession.set(sessionId, (spans = []));
    }
    spans.push(span);
    const eventId = finished.attributes[GenAi.eventId];
    if (typeof eventId === "string") this.#byEvent.set(eventId, span);
  }

  /** The span that produced an event (a model call for its answer, a tool call for its response). */
  forEvent(eventId: string): TraceSpan | undefined {
    return this.#byEvent.get(eventId);
  }

  /** A session's spans in the order they started. */
  forSession(sessionId: string): TraceSpan[] {
    return [...(this.#bySession.get(sessionId) ?? [])].sort((a, b) => a.start_time - b.start_time);
  }

  #forgetOldest(): void {
    const oldest = this.#bySession.keys().next().value;
    if (oldest === undefined) return;
    for (const span of this.#bySession.get(oldest) ?? []) {
      const eventId = span.attributes[GenAi.eventId];
      if (typeof eventId === "string" && this.#byEvent.get(eventId) === span) this.#byEvent.delete(eventId);
    }
    this.#bySession.delete(oldest);
  }
}
