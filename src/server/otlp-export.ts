import { metrics, trace } from "@opentelemetry/api";
import { loadOptionalPeer } from "../platform/load-optional-peer.js";
import { TOOLSMITH_VERSION } from "../platform/package-root.js";

/** Telemetry being exported; `shutdown` sends what is buffered and stops. */
export interface OtlpExport {
  shutdown(): Promise<void>;
}

const OTLP_ENDPOINTS = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"] as const;

/**
 * Whether the environment asks for OTLP export, as the OpenTelemetry
 * specification's variables say: an OTLP endpoint is set, and neither
 * `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none` with
 * `OTEL_METRICS_EXPORTER=none` turns it off.
 */
export function otlpRequested(env: NodeJS.ProcessEnv = process.env): { traces: boolean; metrics: boolean } {
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === "true" || !OTLP_ENDPOINTS.some((name) => env[name])) return { traces: false, metrics: false };
  return {
    traces: env.OTEL_TRACES_EXPORTER?.toLowerCase() !== "none" && Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT),
    metrics: env.OTEL_METRICS_EXPORTER?.toLowerCase() !== "none" && Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT),
  };
}

/**
 * Registers OpenTelemetry's Node SDK with OTLP/HTTP exporters for traces and
 * metrics when the environment asks for it ({@link otlpRequested}); the
 * exporters read the standard `OTEL_EXPORTER_OTLP_*` variables (endpoint,
 * headers, timeout), the resource `OTEL_SERVICE_NAME` and
 * `OTEL_RESOURCE_ATTRIBUTES` (service name `toolsmith` otherwise). The SDK
 * packages are optional peers, loaded only here; an error names the ones to
 * install. Returns `undefined` when nothing is asked.
 */
export async function startOtlpExport(env: NodeJS.ProcessEnv = process.env): Promise<OtlpExport | undefined> {
  const wanted = otlpRequested(env);
  if (!wanted.traces && !wanted.metrics) return undefined;
  const neededFor = "Exporting telemetry over OTLP (OTEL_EXPORTER_OTLP_* is set)";
  const resources = await loadOptionalPeer({ load: () => import("@opentelemetry/resources"), packageName: "@opentelemetry/resources", neededFor });
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ "service.name": "toolsmith", "service.version": TOOLSMITH_VERSION }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const stops: Array<() => Promise<void>> = [];
  if (wanted.traces) {
    const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }] = await Promise.all([
      loadOptionalPeer({ load: () => import("@opentelemetry/sdk-trace-node"), packageName: "@opentelemetry/sdk-trace-node", neededFor }),
      loadOptionalPeer({ load: () => import("@opentelemetry/exporter-trace-otlp-http"), packageName: "@opentelemetry/exporter-trace-otlp-http", neededFor }),
    ]);
    const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
    provider.register();
    stops.push(async () => {
      await provider.shutdown();
      trace.disable();
    });
  }
  if (wanted.metrics) {
    const [{ MeterProvider, PeriodicExportingMetricReader }, { OTLPMetricExporter }] = await Promise.all([
      loadOptionalPeer({ load: () => import("@opentelemetry/sdk-metrics"), packageName: "@opentelemetry/sdk-metrics", neededFor }),
      loadOptionalPeer({ load: () => import("@opentelemetry/exporter-metrics-otlp-http"), packageName: "@opentelemetry/exporter-metrics-otlp-http", neededFor }),
    ]);
    const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL);
    const reader = new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: Number.isFinite(interval) && interval > 0 ? interval : 60_000 });
    const provider = new MeterProvider({ resource, readers: [reader] });
    metrics.setGlobalMeterProvider(provider);
    stops.push(async () => {
      await provider.shutdown();
      metrics.disable();
    });
  }
  return {
    async shutdown() {
      await Promise.allSettled(stops.map((stop) => stop()));
    },
  };
}
