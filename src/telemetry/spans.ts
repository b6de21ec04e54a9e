import { context as otelContext, propagation, ProxyTracerProvider, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from "@opentelemetry/api";
import { randomHex } from "../events/new-id.js";
import { TOOLSMITH_VERSION } from "../platform/package-root.js";

/**
 * Where new spans of a run go: the OpenTelemetry context they are children
 * of, the ids of the span that context holds (so in-process listeners such as
 * the dev UI see the nesting even when no OpenTelemetry SDK is registered),
 * and whether message contents may be recorded.
 */
export interface TraceScope {
  readonly context: Context;
  readonly traceId?: string;
  readonly spanId?: string;
  /** Whether spans may carry message texts, tool arguments and results (off unless the developer opts in). */
  readonly captureContent: boolean;
}

/** A span as an in-process listener receives it when it ends. Times are milliseconds since the epoch. */
export interface FinishedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  startTime: number;
  endTime: number;
  attributes: Record<string, unknown>;
  /** Set when the work the span covers failed: the `error.type` recorded. */
  errorType?: string;
}

/** Milliseconds since the epoch, with the fraction: spans of one millisecond still sort by start. */
function now(): number {
  return performance.timeOrigin + performance.now();
}

/** Receives every toolsmith span when it ends. */
export type SpanListener = (span: FinishedSpan) => void;

const listeners = new Set<SpanListener>();
const tracer = trace.getTracer("toolsmith", TOOLSMITH_VERSION);

/**
 * Calls `listener` with each span toolsmith ends from now on, whether or not an
 * OpenTelemetry SDK is registered (the dev server's trace view is one).
 * Returns the function that stops it.
 */
export function onSpanEnd(listener: SpanListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether message contents may go on spans when the developer has not said: `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`. */
export function captureContentFromEnvironment(): boolean {
  const value = process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.toLowerCase();
  return value === "true" || value === "1";
}

/** The scope of a run started from whatever span is active (an HTTP request's, say), or none. */
export function rootTraceScope(options: { captureContent?: boolean } = {}): TraceScope {
  const active = otelContext.active();
  const parent = trace.getSpanContext(active);
  return { context: active, traceId: parent?.traceId, spanId: parent?.spanId, captureContent: options.captureContent ?? captureContentFromEnvironment() };
}

/**
 * A span toolsmith opened. When nothing records (no SDK registered, or the
 * sampler dropped it, and no listener), every method does nothing and
 * {@link OpenSpan.scope} is the parent's, so tracing costs next to nothing.
 */
export interface OpenSpan {
  /** Whether anything records this span: attributes worth computing only then. */
  readonly recording: boolean;
  /** The scope for work inside this span. */
  readonly scope: TraceScope;
  setAttributes(attributes: Attributes): void;
  /** Marks the span failed with `error.type` (a code or an exception's name) and the message. */
  fail(errorType: string, message?: string): void;
  end(): void;
}

const SPAN_KINDS = { internal: SpanKind.INTERNAL, client: SpanKind.CLIENT, server: SpanKind.SERVER } as const;

/** A span nothing records: its methods do nothing (on the prototype, so making one is one small object). */
class NotRecordingSpan implements OpenSpan {
  readonly recording = false;
  constructor(readonly scope: TraceScope) {}
  setAttributes(): void {}
  fail(): void {}
  end(): void {}
}

/** What the API answers when no SDK registered a tracer provider: a fresh proxy's delegate is the API's no-op. */
const NO_SDK = new ProxyTracerProvider().getDelegate();

/**
 * Whether anything would record a span: an SDK is registered, or an
 * in-process listener is. When not, {@link startSpan} makes no span at all,
 * so a run without tracing pays one check per span (W1 must not move).
 */
export function tracingEnabled(): boolean {
  if (listeners.size > 0) return true;
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NO_SDK;
}

/** What a span is: its name, attributes and kind. */
export interface SpanDescription {
  name: string;
  attributes: Attributes;
  kind?: "internal" | "client" | "server";
}

/**
 * Opens a span under `parent` as `describe` says, calling it only when
 * something records: the run loop's spans cost one check each when tracing
 * is off, no name or attributes built.
 */
export function traced(parent: TraceScope, describe: () => SpanDescription): OpenSpan {
  if (!tracingEnabled()) return new NotRecordingSpan(parent);
  const { name, attributes, kind } = describe();
  return openSpan(parent, name, attributes, kind ?? "internal");
}

/** Opens a span named `name` under `parent` (an internal span unless `kind` says it is a client's or a server's). */
export function startSpan(parent: TraceScope, name: string, attributes: Attributes, kind: "internal" | "client" | "server" = "internal"): OpenSpan {
  return tracingEnabled() ? openSpan(parent, name, attributes, kind) : new NotRecordingSpan(parent);
}

/** The span itself, once {@link tracingEnabled} said something records. */
function openSpan(parent: TraceScope, name: string, attributes: Attributes, kind: "internal" | "client" | "server"): OpenSpan {
  const span = tracer.startSpan(name, { attributes, kind: SPAN_KINDS[kind] }, parent.context);
  if (!span.isRecording() && listeners.size === 0) {
    const context = span.spanContext();
    // A sampled-out span still carries its context, so the decision reaches the services the run calls.
    return new NotRecordingSpan(trace.isSpanContextValid(context) ? { ...parent, context: trace.setSpan(parent.context, span) } : parent);
  }
  return new RecordedSpan(span, parent, name, attributes);
}

class RecordedSpan implements OpenSpan {
  readonly recording = true;
  readonly scope: TraceScope;
  readonly #span: Span;
  readonly #name: string;
  readonly #attributes: Record<string, unknown>;
  readonly #parentSpanId: string | undefined;
  readonly #startTime = now();
  #errorType: string | undefined;
  #ended = false;

  constructor(span: Span, parent: TraceScope, name: string, attributes: Attributes) {
    this.#span = span;
    this.#name = name;
    this.#attributes = { ...attributes };
    this.#parentSpanId = parent.spanId;
    const context = span.spanContext();
    // Without an SDK the span has no ids of its own: listeners get ids made here, in OpenTelemetry's format.
    const valid = trace.isSpanContextValid(context);
    const traceId = valid ? context.traceId : (parent.traceId ?? randomHex(16));
    const spanId = valid ? context.spanId : randomHex(8);
    this.scope = { context: trace.setSpan(parent.context, span), traceId, spanId, captureContent: parent.captureContent };
  }

  setAttributes(attributes: Attributes): void {
    Object.assign(this.#attributes, attributes);
    this.#span.setAttributes(attributes);
  }

  fail(errorType: string, message?: string): void {
    this.#errorType = errorType;
    this.setAttributes({ "error.type": errorType });
    this.#span.setStatus({ code: SpanStatusCode.ERROR, message });
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#span.end();
    if (listeners.size === 0) return;
    const finished: FinishedSpan = {
      name: this.#name,
      traceId: this.scope.traceId!,
      spanId: this.scope.spanId!,
      parentSpanId: this.#parentSpanId,
      startTime: this.#startTime,
      endTime: now(),
      attributes: this.#attributes,
      errorType: this.#errorType,
    };
    for (const listener of listeners) {
      try {
        listener(finished);
      } catch {
        // A listener's failure must not end the run it watches.
      }
    }
  }
}

/** Runs `work` with the scope's span active, so instrumented libraries under it (HTTP clients, drivers) nest their spans there. */
export function withScope<T>(scope: TraceScope, work: () => T): T {
  // Without an SDK there is no context manager to tell: the API's no-op one would only cost the call.
  return tracingEnabled() ? otelContext.with(scope.context, work) : work();
}

/** The same iterable, its steps run with the scope's span active (a vendor SDK's HTTP calls nest under the model call). */
export function iterateInScope<T>(scope: TraceScope, iterable: AsyncIterable<T>): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      const iterator = otelContext.with(scope.context, () => iterable[Symbol.asyncIterator]());
      return {
        next: otelContext.bind(scope.context, iterator.next.bind(iterator)),
        return: iterator.return ? otelContext.bind(scope.context, iterator.return.bind(iterator)) : undefined,
        throw: iterator.throw ? otelContext.bind(scope.context, iterator.throw.bind(iterator)) : undefined,
      } as AsyncIterator<T>;
    },
  };
}

/**
 * The scope's trace context as W3C Trace Context entries (`traceparent`,
 * `tracestate`) by the registered propagator, for a request to another
 * service: HTTP headers, or an MCP request's `_meta`. Empty when no SDK (and
 * so no propagator) is registered.
 */
export function traceContextEntries(scope: TraceScope): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(scope.context, carrier);
  return carrier;
}

/**
 * A scope continuing the trace a caller sent (`traceparent` in an MCP
 * request's `_meta`, say), or the active one when it sent none.
 */
export function scopeFromEntries(entries: unknown, options: { captureContent?: boolean } = {}): TraceScope {
  const base = rootTraceScope(options);
  if (entries === null || typeof entries !== "object") return base;
  const carrier: Record<string, string> = {};
  for (const [key, value] of Object.entries(entries)) if (typeof value === "string") carrier[key] = value;
  const context = propagation.extract(base.context, carrier);
  const parent = trace.getSpanContext(context);
  return parent ? { ...base, context, traceId: parent.traceId, spanId: parent.spanId } : base;
}
