import { context as otelContext, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { MiddlewareHandler } from "hono";
import { newId } from "../events/new-id.js";
import { TOOLSMITH_VERSION } from "../platform/package-root.js";
import type { ApiEnv } from "./api-env.js";

/** How much the server logs, least first; `silent` logs nothing. */
export const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** One JSON object per line: `time`, `level`, `msg`, and the fields given. */
export interface Logger {
  readonly level: LogLevel;
  log(level: Exclude<LogLevel, "silent">, msg: string, fields?: Record<string, unknown>): void;
}

/** Whether `value` names a log level; the CLI's `--log-level` and `TOOLSMITH_LOG_LEVEL` take these. */
export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

/** A logger writing JSON lines at `level` and above to `write` (standard error unless given). */
export function createLogger(options: { level: LogLevel; write?: (line: string) => void }): Logger {
  const threshold = LOG_LEVELS.indexOf(options.level);
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  return {
    level: options.level,
    log(level, msg, fields = {}) {
      if (LOG_LEVELS.indexOf(level) < threshold) return;
      write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
    },
  };
}

/** What a client may send as its own request id (`X-Request-Id`): short, and nothing a log could be forged with. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;

const tracer = trace.getTracer("toolsmith.server", TOOLSMITH_VERSION);

/**
 * Gives each request an id (the client's `X-Request-Id` when it is a safe one,
 * a new one otherwise), sends it back in `X-Request-Id`, runs the request in a
 * server span that carries it (runs started by the request nest under it),
 * and logs one line when the response is ready: method, route, status,
 * duration, request id and trace id. Server errors log at `error` (a 503
 * while draining does not), the rest at `info`.
 */
export function requestLog(logger: Logger): MiddlewareHandler<ApiEnv> {
  return async (context, next) => {
    const sent = context.req.header("x-request-id");
    const requestId = sent && REQUEST_ID.test(sent) ? sent : newId();
    const method = context.req.method;
    const started = performance.now();
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { "http.request.method": method, "url.path": context.req.path, "toolsmith.request_id": requestId } });
    try {
      await otelContext.with(trace.setSpan(otelContext.active(), span), next);
    } finally {
      const status = context.res.status;
      const route = context.req.routePath;
      span.updateName(`${method} ${route}`);
      span.setAttributes({ "http.route": route, "http.response.status_code": status });
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      context.res.headers.set("x-request-id", requestId);
      const traceId = span.spanContext().traceId;
      // A 503 is a draining server saying so, not a failure.
      logger.log(status >= 500 && status !== 503 ? "error" : "info", "request", {
        request_id: requestId,
        method,
        path: context.req.path,
        route,
        status,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        ...(span.isRecording() ? { trace_id: traceId } : {}),
      });
    }
  };
}
