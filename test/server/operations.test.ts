import { spawn } from "node:child_process";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../src/index.js";
import { AppRegistry } from "../../src/server/app-registry.js";
import { createApiApp } from "../../src/server/create-api-app.js";
import { openServices } from "../../src/server/open-services.js";
import { otlpRequested } from "../../src/server/otlp-export.js";
import { createLogger, type LogLevel } from "../../src/server/request-log.js";
import { RunTracker, ServerShuttingDownError } from "../../src/server/run-tracker.js";
import { ScriptedModel, textResponse } from "../../src/testing/index.js";
import { InlineLoader, inlineApi } from "./inline-api.js";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";

const echo = () => new LlmAgent({ name: "echo", model: new ScriptedModel([textResponse("hi")]) });

function capturedLogger(level: LogLevel = "info") {
  const lines: Record<string, unknown>[] = [];
  return { lines, logger: createLogger({ level, write: (line) => lines.push(JSON.parse(line)) }) };
}

describe("health and readiness", () => {
  it("answers /healthz and /readyz with the stores' checks, without a bearer token", async () => {
    const { json } = await inlineApi({ echo: echo() }, { tokens: { secret: "alice" } });
    expect(await json("/healthz")).toMatchObject({ status: 200, body: { status: "ok" } });
    expect(await json("/readyz")).toMatchObject({ status: 200, body: { status: "ready", checks: { sessions: "ok", artifacts: "ok" } } });
    expect((await json("/list-apps")).status).toBe(401);
  });

  it("is not ready, naming the store and its error, when the session store does not answer", async () => {
    const services = await openServices({ sessionServiceUri: "memory://", artifactServiceUri: "memory://" });
    services.sessionService.listSessions = async () => {
      throw new Error("connection refused (127.0.0.1:5432)");
    };
    const app = createApiApp({ registry: new AppRegistry({ loader: new InlineLoader({ echo: echo() }), services }) });
    const response = await app.request("/readyz");
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      status: "not ready",
      code: "NOT_READY",
      error: "Not ready: sessions failed: connection refused (127.0.0.1:5432).",
      checks: { sessions: "failed: connection refused (127.0.0.1:5432)", artifacts: "ok" },
    });
  });

  it("is not ready and refuses new runs with 503 and Retry-After while draining; a session is still readable", async () => {
    const runs = new RunTracker();
    const { json } = await inlineApi({ echo: echo() }, { runs });
    const session = await json("/apps/echo/users/u/sessions", { json: {} });
    await runs.drain({ graceMs: 0 });
    expect(await json("/readyz")).toMatchObject({ status: 503, body: { status: "draining", code: "SERVER_DRAINING" } });
    const refused = await json("/run", { json: { appName: "echo", userId: "u", sessionId: session.body.id, newMessage: { parts: [{ text: "hi" }] } } });
    expect(refused).toMatchObject({ status: 503, body: { code: "SERVER_DRAINING", error: expect.stringContaining("another replica") } });
    expect(refused.headers.get("retry-after")).toBe("1");
    const stored = await json(`/apps/echo/users/u/sessions/${session.body.id}`);
    expect(stored.body.events).toEqual([]);
  });
});

describe("request log", () => {
  it("writes one JSON line per request with its route, status, duration and request id, and returns the id", async () => {
    const { lines, logger } = capturedLogger();
    const { call } = await inlineApi({ echo: echo() }, { logger });
    const response = await call("/apps/echo/users/u/sessions/nope", { headers: { "x-request-id": "lb-1234.abc" } });
    expect(response.status).toBe(404);
    expect(response.headers.get("x-request-id")).toBe("lb-1234.abc");
    expect(lines).toEqual([
      { time: expect.any(String), level: "info", msg: "request", request_id: "lb-1234.abc", method: "GET", path: "/apps/echo/users/u/sessions/nope", route: "/apps/:appName/users/:userId/sessions/:sessionId", status: 404, duration_ms: expect.any(Number) },
    ]);
  });

  it("replaces a request id a log could be forged with, and makes one when none is sent", async () => {
    const { lines, logger } = capturedLogger();
    const { call } = await inlineApi({ echo: echo() }, { logger });
    const hostile = ['x"},{"level":"error","msg":"forged', "a".repeat(129), "id with spaces", "../../etc"];
    for (const id of hostile) {
      const response = await call("/healthz", { headers: { "x-request-id": id } });
      expect(response.headers.get("x-request-id")).not.toBe(id);
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
    await call("/healthz");
    expect(lines).toHaveLength(hostile.length + 1);
    expect(new Set(lines.map((line) => line.request_id)).size).toBe(lines.length);
    expect(lines.every((line) => line.msg === "request")).toBe(true);
  });

  it("logs nothing below its level, and server errors at error", async () => {
    const { lines, logger } = capturedLogger("warn");
    const services = await openServices({ sessionServiceUri: "memory://", artifactServiceUri: "memory://" });
    services.sessionService.listSessions = async () => {
      throw new Error("store down");
    };
    const app = createApiApp({ registry: new AppRegistry({ loader: new InlineLoader({ echo: echo() }), services }), logger });
    await app.request("/healthz");
    await app.request("/apps/echo/users/u/sessions");
    expect(lines.map((line) => [line.level, line.status])).toEqual([["error", 500]]);
  });
});

describe("RunTracker", () => {
  it("lets runs that end within the grace period finish and cancels the rest with SERVER_SHUTTING_DOWN", async () => {
    const runs = new RunTracker();
    const reasons: unknown[] = [];
    const quick = runs.track(() => reasons.push("quick cancelled"));
    let endSlow!: () => void;
    endSlow = runs.track((reason) => {
      reasons.push(reason);
      setTimeout(() => endSlow(), 5);
    });
    setTimeout(quick, 10);
    expect(runs.active).toBe(2);
    const result = await runs.drain({ graceMs: 100 });
    expect(result).toEqual({ finished: 1, interrupted: 1 });
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toBeInstanceOf(ServerShuttingDownError);
    expect((reasons[0] as ServerShuttingDownError).code).toBe("SERVER_SHUTTING_DOWN");
    expect(runs.active).toBe(0);
    expect(runs.draining).toBe(true);
  });

  it("does not wait past its bounds for a run that ignores cancellation", async () => {
    const runs = new RunTracker();
    runs.track(() => undefined);
    const started = Date.now();
    expect(await runs.drain({ graceMs: 20, stopMs: 20 })).toEqual({ finished: 0, interrupted: 1 });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("OTLP export", () => {
  it("is asked for by the standard variables and turned off by OTEL_SDK_DISABLED or an exporter of none", () => {
    expect(otlpRequested({})).toEqual({ traces: false, metrics: false });
    expect(otlpRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toEqual({ traces: true, metrics: true });
    expect(otlpRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toEqual({ traces: true, metrics: false });
    expect(otlpRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_METRICS_EXPORTER: "none" })).toEqual({ traces: true, metrics: false });
    expect(otlpRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" })).toEqual({ traces: false, metrics: false });
  });

  it("sends a served run's spans and metrics over OTLP/HTTP to the collector in OTEL_EXPORTER_OTLP_ENDPOINT", async () => {
    const received: Array<{ path: string; body: any }> = [];
    const collector = createServer((request: IncomingMessage, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        received.push({ path: request.url ?? "", body: request.headers["content-type"]?.includes("json") ? JSON.parse(body) : body });
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    const child = spawn(process.execPath, [...SOURCE_NODE_FLAGS, join(process.cwd(), "bin/toolsmith.mjs"), "api-server", "examples", "--port", "0", "--session-service-uri", "memory://", "--artifact-service-uri", "memory://", "--shutdown-grace", "0"], {
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: "shop-api", OTEL_METRIC_EXPORT_INTERVAL: "3600000" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      const base = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const match = /API server at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (match) (clearInterval(timer), resolve(match[1]!));
          if (child.exitCode !== null) (clearInterval(timer), reject(new Error(output)));
        }, 50);
      });
      const session = (await (await fetch(`${base}/apps/shop/users/u1/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).json()) as { id: string };
      const run = await fetch(`${base}/run`, { method: "POST", headers: { "content-type": "application/json", "x-request-id": "req-77" }, body: JSON.stringify({ appName: "shop", userId: "u1", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "order A-17" }] } }) });
      expect(run.status).toBe(200);
      expect(output).toContain(`note: exporting traces and metrics over OTLP to ${endpoint}`);
      // The SDK's batch processor sends on shutdown: a SIGTERM flushes it.
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      collector.close();
    }
    const traces = received.filter((request) => request.path === "/v1/traces").flatMap((request) => request.body.resourceSpans);
    const spans = traces.flatMap((resource: any) => resource.scopeSpans.flatMap((scope: any) => scope.spans));
    const attribute = (span: any, key: string) => span.attributes.find((entry: any) => entry.key === key)?.value;
    const names = spans.map((span: any) => span.name);
    console.log(`OTLP/HTTP receiver got ${spans.length} spans: ${[...new Set(names)].join(", ")}`);
    expect(names).toEqual(expect.arrayContaining(["POST /run", "invocation", "invoke_agent shop_assistant", "execute_tool lookup_order"]));
    const service = traces[0].resource.attributes.find((entry: any) => entry.key === "service.name")?.value;
    expect(service).toEqual({ stringValue: "shop-api" });
    const request = spans.find((span: any) => span.name === "POST /run");
    expect(attribute(request, "toolsmith.request_id")).toEqual({ stringValue: "req-77" });
    const invocation = spans.find((span: any) => span.name === "invocation");
    expect(invocation.parentSpanId).toBe(request.spanId);
    expect(invocation.traceId).toBe(request.traceId);
    const metricNames = received.filter((entry) => entry.path === "/v1/metrics").flatMap((entry) => entry.body.resourceMetrics.flatMap((resource: any) => resource.scopeMetrics.flatMap((scope: any) => scope.metrics.map((metric: any) => metric.name))));
    expect(metricNames).toEqual(expect.arrayContaining(["toolsmith.tool.duration", "toolsmith.runs.active", "gen_ai.client.operation.duration"]));
  }, 60_000);
});
