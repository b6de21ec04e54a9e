import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { context, metrics, propagation, trace } from "@opentelemetry/api";
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type HistogramMetricData, type SumMetricData } from "@opentelemetry/sdk-metrics";
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentTool, FunctionTool, InMemoryRunner, LlmAgent, Runner, SequentialAgent } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { onSpanEnd, type FinishedSpan } from "../../src/telemetry/spans.js";

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const metricReader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
const meterProvider = new MeterProvider({ readers: [metricReader] });

beforeAll(() => {
  provider.register();
  metrics.setGlobalMeterProvider(meterProvider);
});
afterAll(async () => {
  await provider.shutdown();
  await meterProvider.shutdown();
  trace.disable();
  metrics.disable();
  context.disable();
  propagation.disable();
});
afterEach(() => exporter.reset());

const add = new FunctionTool({
  name: "add",
  description: "Adds two numbers.",
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => ({ sum: a + b }),
});

async function runOnce(runner: Runner, text: string) {
  const session = await runner.sessionService.createSession({ appName: runner.appName, userId: "u1" });
  const events = await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage(text) }));
  return { session, events };
}

/**
 * Spans by name, with each one's parent's name, depth first, siblings in the order they started (the SDK's
 * clock has millisecond steps, so a tie goes to the one that ended first).
 */
function tree(spans: readonly ReadableSpan[]): Array<[string, string | undefined]> {
  const time = (value: [number, number]) => value[0] * 1e9 + value[1];
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const parentOf = (span: ReadableSpan) => (span.parentSpanContext && ids.has(span.parentSpanContext.spanId) ? span.parentSpanContext.spanId : undefined);
  const ordered = [...spans].sort((a, b) => time(a.startTime) - time(b.startTime) || time(a.endTime) - time(b.endTime));
  const rows: Array<[string, string | undefined]> = [];
  const visit = (span: ReadableSpan, parentName: string | undefined) => {
    rows.push([span.name, parentName]);
    for (const child of ordered.filter((candidate) => parentOf(candidate) === span.spanContext().spanId)) visit(child, span.name);
  };
  for (const root of ordered.filter((span) => parentOf(span) === undefined)) visit(root, undefined);
  return rows;
}


describe("OpenTelemetry spans of a run", () => {
  it("nests invocation, agent, model calls and tool calls as the run nests, by the GenAI semantic conventions", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "add", args: { a: 2, b: 3 } }), { ...textResponse("5"), usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 3, totalTokenCount: 15 }, finishReason: "STOP" }]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "calc", description: "Adds.", model, tools: [add] }) });
    const { session, events } = await runOnce(runner, "2+3");
    const spans = exporter.getFinishedSpans();
    expect(tree(spans)).toEqual([
      ["invocation", undefined],
      ["invoke_agent calc", "invocation"],
      ["chat scripted-model", "invoke_agent calc"],
      ["execute_tool add", "invoke_agent calc"],
      ["chat scripted-model", "invoke_agent calc"],
    ]);
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    const agent = spans.find((span) => span.name === "invoke_agent calc")!;
    expect(agent.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "calc", "gen_ai.agent.description": "Adds.", "gen_ai.conversation.id": session.id });
    const tool = spans.find((span) => span.name === "execute_tool add")!;
    const callId = events[0]!.content!.parts![0]!.functionCall!.id;
    expect(tool.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "add", "gen_ai.tool.call.id": callId, "gen_ai.tool.description": "Adds two numbers.", "gen_ai.tool.type": "function", "gcp.vertex.agent.event_id": events[1]!.id });
    const lastCall = spans.filter((span) => span.name.startsWith("chat"))[1]!;
    expect(lastCall.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "toolsmith.testing",
      "gen_ai.request.model": "scripted-model",
      "gen_ai.usage.input_tokens": 12,
      "gen_ai.usage.output_tokens": 3,
      "gen_ai.response.finish_reasons": ["stop"],
      "gcp.vertex.agent.event_id": events[2]!.id,
    });
  });

  it("records no message text, arguments or results unless the developer opts in", async () => {
    const script = () => new ScriptedModel([functionCallsResponse({ name: "add", args: { a: 40, b: 2 } }), textResponse("the secret sum is 42")]);
    await runOnce(new InMemoryRunner({ agent: new LlmAgent({ name: "calc", model: script(), tools: [add] }) }), "my password is hunter2");
    const silent = JSON.stringify(exporter.getFinishedSpans().map((span) => span.attributes));
    expect(silent).not.toContain("hunter2");
    expect(silent).not.toContain("secret sum");
    expect(silent).not.toContain("gen_ai.tool.call.arguments");
    exporter.reset();

    const runner = new Runner({ appName: "calc", agent: new LlmAgent({ name: "calc", model: script(), tools: [add] }), captureContentInSpans: true });
    await runOnce(runner, "my password is hunter2");
    const spans = exporter.getFinishedSpans();
    const firstCall = spans.find((span) => span.name.startsWith("chat"))!;
    expect(JSON.parse(firstCall.attributes["gen_ai.input.messages"] as string)).toEqual([{ role: "user", parts: [{ type: "text", content: "my password is hunter2" }] }]);
    const tool = spans.find((span) => span.name === "execute_tool add")!;
    expect(JSON.parse(tool.attributes["gen_ai.tool.call.arguments"] as string)).toEqual({ a: 40, b: 2 });
    expect(JSON.parse(tool.attributes["gen_ai.tool.call.result"] as string)).toEqual({ sum: 42 });
    const lastCall = spans.filter((span) => span.name.startsWith("chat"))[1]!;
    expect(JSON.parse(lastCall.attributes["gen_ai.output.messages"] as string)).toEqual([{ role: "assistant", parts: [{ type: "text", content: "the secret sum is 42" }] }]);
  });

  it("marks failed tool calls and model calls with error.type, and the run's spans with the error that ended it", async () => {
    const broken = new FunctionTool({ name: "broken", description: "Fails.", parameters: z.object({}), execute: () => { throw new TypeError("disk on fire"); } });
    const model = new ScriptedModel([
      functionCallsResponse({ name: "broken", args: {} }, { name: "add", args: { a: "two" } }, { name: "missing", args: {} }),
      new Error("upstream 500"),
    ]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "calc", model, tools: [add, broken] }) });
    const { events } = await runOnce(runner, "go");
    expect(events.at(-1)!.errorCode).toBe("MODEL_ERROR");
    const spans = exporter.getFinishedSpans();
    const errorOf = (name: string) => spans.filter((span) => span.name === name).map((span) => span.attributes["error.type"]);
    expect(errorOf("execute_tool broken")).toEqual(["TypeError"]);
    expect(errorOf("execute_tool add")).toEqual(["INVALID_ARGUMENTS"]);
    expect(errorOf("execute_tool missing")).toEqual(["TOOL_NOT_FOUND"]);
    expect(errorOf("chat scripted-model")).toEqual([undefined, "MODEL_ERROR"]);
    expect(errorOf("invoke_agent calc")).toEqual(["MODEL_ERROR"]);
    expect(errorOf("invocation")).toEqual(["MODEL_ERROR"]);
    for (const span of spans.filter((span) => span.attributes["error.type"])) expect(span.status.code).toBe(2);
  });

  it("nests an agent used as a tool under the tool call, and workflow agents' children under them", async () => {
    const inner = new LlmAgent({ name: "helper", description: "Helps.", model: new ScriptedModel([textResponse("helped")]) });
    const outerModel = new ScriptedModel([functionCallsResponse({ name: "helper", args: { request: "help" } }), textResponse("done")]);
    const outer = new LlmAgent({ name: "outer", model: outerModel, tools: [new AgentTool({ agent: inner })] });
    const last = new LlmAgent({ name: "last", model: new ScriptedModel([textResponse("bye")]) });
    await runOnce(new InMemoryRunner({ agent: new SequentialAgent({ name: "pipeline", subAgents: [outer, last] }) }), "go");
    expect(tree(exporter.getFinishedSpans())).toEqual([
      ["invocation", undefined],
      ["invoke_agent pipeline", "invocation"],
      ["invoke_agent outer", "invoke_agent pipeline"],
      ["chat scripted-model", "invoke_agent outer"],
      ["execute_tool helper", "invoke_agent outer"],
      ["invoke_agent helper", "execute_tool helper"],
      ["chat scripted-model", "invoke_agent helper"],
      ["chat scripted-model", "invoke_agent outer"],
      ["invoke_agent last", "invoke_agent pipeline"],
      ["chat scripted-model", "invoke_agent last"],
    ]);
  });

  it("runs a tool with its span active, so HTTP calls it makes carry the trace context (W3C traceparent)", async () => {
    let seen: IncomingHttpHeaders | undefined;
    const server = createServer((request, response) => {
      seen = request.headers;
      response.end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const fetchTool = new FunctionTool({
      name: "fetch_it",
      description: "Fetches.",
      parameters: z.object({}),
      execute: async () => {
        const headers: Record<string, string> = {};
        propagation.inject(context.active(), headers);
        await fetch(url, { headers });
        return { ok: true };
      },
    });
    try {
      await runOnce(new InMemoryRunner({ agent: new LlmAgent({ name: "web", model: new ScriptedModel([functionCallsResponse({ name: "fetch_it", args: {} }), textResponse("ok")]), tools: [fetchTool] }) }), "go");
    } finally {
      server.close();
    }
    const tool = exporter.getFinishedSpans().find((span) => span.name === "execute_tool fetch_it")!;
    expect(seen?.traceparent).toBe(`00-${tool.spanContext().traceId}-${tool.spanContext().spanId}-01`);
  });

  it("nests a run under the span active when it starts (an HTTP request's, say)", async () => {
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "echo", model: new ScriptedModel([textResponse("hi")]) }) });
    await trace.getTracer("test").startActiveSpan("POST /run", async (request) => {
      await runOnce(runner, "hello");
      request.end();
    });
    expect(tree(exporter.getFinishedSpans()).slice(0, 2)).toEqual([
      ["POST /run", undefined],
      ["invocation", "POST /run"],
    ]);
  });
});

describe("in-process span listeners", () => {
  it("get the same spans, with the SDK's ids, as they end", async () => {
    const seen: FinishedSpan[] = [];
    const stop = onSpanEnd((span) => seen.push(span));
    try {
      await runOnce(new InMemoryRunner({ agent: new LlmAgent({ name: "echo", model: new ScriptedModel([textResponse("hi")]) }) }), "hello");
    } finally {
      stop();
    }
    const exported = exporter.getFinishedSpans();
    expect(seen.map((span) => span.spanId).sort()).toEqual(exported.map((span) => span.spanContext().spanId).sort());
    const byId = new Map(seen.map((span) => [span.spanId, span]));
    for (const span of exported) expect(byId.get(span.spanContext().spanId)?.parentSpanId).toBe(span.parentSpanContext?.spanId);
  });

  it("is called no more once stopped, and a listener that throws does not end the run", async () => {
    let calls = 0;
    const stopCounting = onSpanEnd(() => calls++);
    const stopThrowing = onSpanEnd(() => {
      throw new Error("listener bug");
    });
    const { events } = await runOnce(new InMemoryRunner({ agent: new LlmAgent({ name: "echo", model: new ScriptedModel([textResponse("hi"), textResponse("again")]) }) }), "hello");
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("hi");
    const afterFirst = calls;
    expect(afterFirst).toBe(3);
    stopCounting();
    stopThrowing();
    await runOnce(new InMemoryRunner({ agent: new LlmAgent({ name: "echo", model: new ScriptedModel([textResponse("hi")]) }) }), "hello");
    expect(calls).toBe(afterFirst);
  });
});

describe("OpenTelemetry metrics of a run", () => {
  it("counts tokens, times model and tool calls, counts tool errors, and brings runs in flight back to zero", async () => {
    const broken = new FunctionTool({ name: "broken", description: "Fails.", parameters: z.object({}), execute: () => { throw new Error("no"); } });
    const model = new ScriptedModel([
      { ...functionCallsResponse({ name: "add", args: { a: 1, b: 1 } }, { name: "broken", args: {} }), usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 7 } },
      { ...textResponse("2"), usageMetadata: { promptTokenCount: 130, candidatesTokenCount: 2 } },
    ]);
    await runOnce(new Runner({ appName: "metered", agent: new LlmAgent({ name: "calc", model, tools: [add, broken] }) }), "1+1");
    await metricReader.forceFlush();
    const exported = metricExporter.getMetrics().at(-1)!.scopeMetrics.find((scope) => scope.scope.name === "toolsmith")!.metrics;
    const metric = (name: string) => exported.find((entry) => entry.descriptor.name === name)!;
    const tokens = (metric("gen_ai.client.token.usage") as HistogramMetricData).dataPoints;
    const sumOf = (type: string) => tokens.filter((point) => point.attributes["gen_ai.token.type"] === type).reduce((total, point) => total + point.value.sum!, 0);
    expect(sumOf("input")).toBeGreaterThanOrEqual(230);
    expect(sumOf("output")).toBeGreaterThanOrEqual(9);
    const toolDurations = (metric("toolsmith.tool.duration") as HistogramMetricData).dataPoints;
    expect(toolDurations.find((point) => point.attributes["gen_ai.tool.name"] === "add" && !point.attributes["error.type"])?.value.count).toBeGreaterThanOrEqual(1);
    const errors = (metric("toolsmith.tool.errors") as SumMetricData).dataPoints;
    expect(errors.find((point) => point.attributes["gen_ai.tool.name"] === "broken" && point.attributes["error.type"] === "Error")?.value).toBeGreaterThanOrEqual(1);
    const active = (metric("toolsmith.runs.active") as SumMetricData).dataPoints.find((point) => point.attributes["toolsmith.app.name"] === "metered");
    expect(active?.value).toBe(0);
    expect((metric("gen_ai.client.operation.duration") as HistogramMetricData).dataPoints.some((point) => point.attributes["gen_ai.request.model"] === "scripted-model")).toBe(true);
  });
});

describe("provider names on model spans", () => {
  it("names each adapter's provider as the semantic conventions do", async () => {
    const { OpenAIChatModel, OpenAIResponsesModel } = await import("../../src/models/openai/index.js");
    const { AnthropicModel } = await import("../../src/models/anthropic/index.js");
    const { GeminiModel } = await import("../../src/models/gemini/index.js");
    const named = (model: { provider?: string }) => model.provider;
    expect(named(new OpenAIChatModel({ model: "gpt-4o", apiKey: "k" }))).toBe("openai");
    expect(named(new OpenAIResponsesModel({ model: "gpt-5", apiKey: "k" }))).toBe("openai");
    expect(named(new OpenAIChatModel({ model: "deepseek-chat", apiKey: "k", baseURL: "https://api.deepseek.com/v1" }))).toBe("deepseek");
    expect(named(new OpenAIChatModel({ model: "mistral-large", apiKey: "k", baseURL: "https://api.mistral.ai/v1" }))).toBe("mistral_ai");
    expect(named(new OpenAIChatModel({ model: "qwen3", apiKey: "k", baseURL: "http://127.0.0.1:11434/v1", providerName: "Ollama" }))).toBe("ollama");
    expect(named(new OpenAIChatModel({ model: "local", apiKey: "k", baseURL: "http://127.0.0.1:8000/v1" }))).toBe("openai");
    expect(named(new AnthropicModel({ model: "claude-sonnet-4-5", apiKey: "k" }))).toBe("anthropic");
    expect(named(new GeminiModel({ model: "gemini-2.5-flash", apiKey: "k" }))).toBe("gcp.gemini");
  });
});

describe("trace context carried to other services", () => {
  it("continues the run's trace in a toolsmith MCP server: execute_tool → tools/call (client) → tools/call (server) → the served agent", async () => {
    const { createMcpServer, MCPToolset } = await import("../../src/mcp/index.js");
    const helper = new LlmAgent({ name: "helper", description: "Helps.", model: new ScriptedModel([textResponse("helped")]) });
    const server = createMcpServer({ name: "traced", agents: [helper] });
    const listener = await server.listen();
    const toolset = new MCPToolset({ connection: { type: "http", url: listener.url } });
    try {
      const model = new ScriptedModel([functionCallsResponse({ name: "helper", args: { request: "help" } }), textResponse("done")]);
      const { events } = await runOnce(new InMemoryRunner({ agent: new LlmAgent({ name: "caller", model, tools: [toolset] }) }), "go");
      expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("done");
    } finally {
      await toolset.close();
      await listener.close();
      await server.close();
    }
    const spans = exporter.getFinishedSpans();
    const byName = (name: string) => spans.find((span) => span.name === name)!;
    const chain = ["execute_tool helper", "tools/call helper", "tools/call helper", "invoke_agent helper"];
    const clientCall = spans.find((span) => span.name === "tools/call helper" && span.kind === 2)!;
    const serverCall = spans.find((span) => span.name === "tools/call helper" && span.kind === 1)!;
    expect(clientCall.parentSpanContext?.spanId).toBe(byName("execute_tool helper").spanContext().spanId);
    expect(serverCall.parentSpanContext?.spanId).toBe(clientCall.spanContext().spanId);
    const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
    const ancestors = (span: ReadableSpan): string[] => {
      const parent = span.parentSpanContext && byId.get(span.parentSpanContext.spanId);
      return parent ? [parent.spanContext().spanId, ...ancestors(parent)] : [];
    };
    const served = spans.find((span) => span.name === "invoke_agent helper")!;
    expect(ancestors(served)).toContain(serverCall.spanContext().spanId);
    expect(new Set(spans.filter((span) => chain.includes(span.name)).map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it("sends traceparent with an OpenAPI tool's HTTP request", async () => {
    const { OpenAPIToolset } = await import("../../src/openapi/index.js");
    let traceparent: string | undefined;
    const server = createServer((request, response) => {
      traceparent = request.headers.traceparent as string | undefined;
      response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const document = { openapi: "3.1.0", info: { title: "t", version: "1" }, servers: [{ url: baseUrl }], paths: { "/ping": { get: { operationId: "ping", responses: { "200": { description: "ok" } } } } } };
    try {
      const model = new ScriptedModel([functionCallsResponse({ name: "ping", args: {} }), textResponse("pong")]);
      await runOnce(new InMemoryRunner({ agent: new LlmAgent({ name: "caller", model, tools: [new OpenAPIToolset({ document })] }) }), "go");
    } finally {
      server.close();
    }
    const tool = exporter.getFinishedSpans().find((span) => span.name === "execute_tool ping")!;
    expect(traceparent).toBe(`00-${tool.spanContext().traceId}-${tool.spanContext().spanId}-01`);
  });
});
