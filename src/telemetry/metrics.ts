import { createNoopMeter, metrics, type Histogram, type MeterProvider, type UpDownCounter, type Counter } from "@opentelemetry/api";
import { TOOLSMITH_VERSION } from "../platform/package-root.js";
import { GenAi } from "./gen-ai-attributes.js";

interface Instruments {
  provider: MeterProvider;
  /** No meter provider is registered: nothing is measured, and no attributes are built. */
  noop: boolean;
  tokenUsage: Histogram;
  operationDuration: Histogram;
  toolDuration: Histogram;
  toolErrors: Counter;
  activeRuns: UpDownCounter;
}

let instruments: Instruments | undefined;
/** The meter the API's no-op provider hands out (one shared instance). */
const NOOP_METER = createNoopMeter();

/**
 * The instruments of the meter provider registered now. The metrics API has
 * no proxy (unlike tracing), so a provider registered after toolsmith loaded
 * is picked up here, on the next measurement.
 */
function current(): Instruments {
  const provider = metrics.getMeterProvider();
  if (instruments?.provider === provider) return instruments;
  const meter = provider.getMeter("toolsmith", TOOLSMITH_VERSION);
  instruments = {
    provider,
    noop: meter === NOOP_METER,
    tokenUsage: meter.createHistogram("gen_ai.client.token.usage", { unit: "{token}", description: "Tokens used per model call, by gen_ai.token.type (input, output)." }),
    operationDuration: meter.createHistogram("gen_ai.client.operation.duration", { unit: "s", description: "Duration of model calls." }),
    toolDuration: meter.createHistogram("toolsmith.tool.duration", { unit: "s", description: "Duration of tool calls." }),
    toolErrors: meter.createCounter("toolsmith.tool.errors", { description: "Tool calls that failed (the tool threw, timed out, or its arguments were refused)." }),
    activeRuns: meter.createUpDownCounter("toolsmith.runs.active", { description: "Runs in flight." }),
  };
  return instruments;
}

/** Records one model call: its duration, and its input and output tokens when the model reported them. */
export function recordModelCall(options: { operation: string; provider: string; model: string; seconds: number; inputTokens?: number; outputTokens?: number; errorType?: string }): void {
  const { tokenUsage, operationDuration, noop } = current();
  if (noop) return;
  const attributes = { [GenAi.operationName]: options.operation, [GenAi.providerName]: options.provider, [GenAi.requestModel]: options.model };
  operationDuration.record(options.seconds, options.errorType ? { ...attributes, "error.type": options.errorType } : attributes);
  if (options.inputTokens !== undefined) tokenUsage.record(options.inputTokens, { ...attributes, "gen_ai.token.type": "input" });
  if (options.outputTokens !== undefined) tokenUsage.record(options.outputTokens, { ...attributes, "gen_ai.token.type": "output" });
}

/** Records one tool call: its duration, and an error when it failed. */
export function recordToolCall(options: { tool: string; seconds: number; errorType?: string }): void {
  const { toolDuration, toolErrors, noop } = current();
  if (noop) return;
  const attributes = options.errorType ? { [GenAi.toolName]: options.tool, "error.type": options.errorType } : { [GenAi.toolName]: options.tool };
  toolDuration.record(options.seconds, attributes);
  if (options.errorType) toolErrors.add(1, attributes);
}

/** Counts a run starting (`+1`) or ending (`-1`), per app. */
export function countActiveRun(appName: string, delta: 1 | -1): void {
  const { activeRuns, noop } = current();
  if (!noop) activeRuns.add(delta, { "toolsmith.app.name": appName });
}

/** Whether a meter provider is registered, so measurements are worth taking. */
export function metricsEnabled(): boolean {
  return !current().noop;
}
