/**
 * `npm run bench:tracing`: what tracing costs. W1 (framework time per model
 * turn) for toolsmith and @google/adk in one process, first with no
 * OpenTelemetry SDK registered (tracing off: the API is a no-op), then with
 * the Node SDK registered (spans batched to an exporter that drops them,
 * metrics collected by a reader), which both frameworks then trace through.
 * `-- --quick` runs fewer conversations.
 */
import { metrics, trace } from "@opentelemetry/api";
import { MeterProvider, PeriodicExportingMetricReader, InMemoryMetricExporter, AggregationTemporality } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, NodeTracerProvider, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace-node";
import { adk } from "./adk-framework.js";
import { printTable } from "./print-table.js";
import { toolsmith } from "./toolsmith-framework.js";
import { overheadPerModelTurn } from "./workloads.js";

const runs = process.argv.includes("--quick") ? 30 : 300;
console.info = () => undefined;
console.debug = () => undefined;

/** Counts spans and drops them: the cost measured is making spans, not sending them. */
class CountingExporter implements SpanExporter {
  spans = 0;
  export(spans: ReadableSpan[], done: (result: { code: number }) => void): void {
    this.spans += spans.length;
    done({ code: 0 }); // ExportResultCode.SUCCESS of @opentelemetry/core
  }
  async shutdown(): Promise<void> {}
}

const off = { toolsmith: await overheadPerModelTurn(toolsmith, runs, 10), adk: await overheadPerModelTurn(adk, runs, 10) };

const exporter = new CountingExporter();
const tracerProvider = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter, { maxQueueSize: 100_000, maxExportBatchSize: 4_096 })] });
tracerProvider.register();
const meterProvider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.DELTA), exportIntervalMillis: 60_000 })] });
metrics.setGlobalMeterProvider(meterProvider);
const on = { toolsmith: await overheadPerModelTurn(toolsmith, runs, 10), adk: await overheadPerModelTurn(adk, runs, 10) };
await tracerProvider.forceFlush();
const fmt = (value: number) => value.toFixed(1);
console.log(`\nTracing cost, W1 (10-turn conversation with one tool, 20 model turns), ${runs} conversations after 30 warm-up ones; ${exporter.spans.toLocaleString("en-US")} spans made with the SDK on\n`);
printTable([
  ["W1 overhead per model turn", "toolsmith", "@google/adk", "ratio (adk / toolsmith)"],
  ["tracing off (no SDK), median µs", fmt(off.toolsmith.median), fmt(off.adk.median), fmt(off.adk.median / off.toolsmith.median)],
  ["tracing on (Node SDK, batched), median µs", fmt(on.toolsmith.median), fmt(on.adk.median), fmt(on.adk.median / on.toolsmith.median)],
  ["tracing off, p95 µs", fmt(off.toolsmith.p95), fmt(off.adk.p95), fmt(off.adk.p95 / off.toolsmith.p95)],
  ["tracing on, p95 µs", fmt(on.toolsmith.p95), fmt(on.adk.p95), fmt(on.adk.p95 / on.toolsmith.p95)],
  ["on / off, median", fmt(on.toolsmith.median / off.toolsmith.median), fmt(on.adk.median / off.adk.median), ""],
]);
await tracerProvider.shutdown();
await meterProvider.shutdown();
trace.disable();
