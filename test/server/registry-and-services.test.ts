import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEvent, InMemoryArtifactService, InMemoryMemoryService, InMemorySessionService, LlmAgent, type Toolset } from "../../src/index.js";
import { FileArtifactService } from "../../src/artifacts/file/index.js";
import { AppNotFoundError } from "../../src/server/agent-loader.js";
import { AppRegistry } from "../../src/server/app-registry.js";
import { DEFAULT_SERVICE_URIS, openServices } from "../../src/server/open-services.js";
import type { FinishedSpan } from "../../src/telemetry/spans.js";
import { TraceStore } from "../../src/server/trace-store.js";
import { SqliteMemoryService, SqliteSessionService } from "../../src/sqlite/index.js";
import { FunctionModel, collect, functionCallsResponse, textResponse, userMessage } from "../../src/testing/index.js";
import { tempDir } from "../support/temp-dir.js";
import { InlineLoader } from "./inline-api.js";

const dir = tempDir();
const agent = (name: string, tools: LlmAgent["tools"] = []) => new LlmAgent({ name, model: new FunctionModel(() => textResponse("ok")), tools: [...tools] });

async function registryOver(agents: Record<string, LlmAgent>) {
  const loader = new InlineLoader(agents);
  return { loader, registry: new AppRegistry({ loader, services: await openServices({ sessionServiceUri: "memory://", artifactServiceUri: "memory://" }) }) };
}

describe("AppRegistry", () => {
  it("keeps one runner per app, over the shared services, named after the app", async () => {
    const { registry } = await registryOver({ one: agent("a1"), two: agent("a2") });
    const first = await registry.runner("one");
    expect(await registry.runner("one")).toBe(first);
    const second = await registry.runner("two");
    expect(second).not.toBe(first);
    expect(first.appName).toBe("one");
    expect(first.sessionService).toBe(registry.services.sessionService);
    expect(second.artifactService).toBe(registry.services.artifactService);
    expect(first.credentialService).toBe(second.credentialService);
  });

  it("builds a new runner when the app's module gives a new agent (a reload)", async () => {
    const { registry, loader } = await registryOver({ live: agent("v1") });
    const before = await registry.runner("live");
    loader.agents.live = agent("v2");
    const after = await registry.runner("live");
    expect(after).not.toBe(before);
    expect(after.agent.name).toBe("v2");
  });

  it("refuses an unknown app with AppNotFoundError listing the apps, without loading any", async () => {
    const { registry } = await registryOver({ one: agent("a1"), two: agent("a2") });
    expect(() => registry.assertApp("three")).toThrow(AppNotFoundError);
    expect(() => registry.assertApp("three")).toThrow('No app "three". Apps in the agents directory: one, two.');
    await expect(registry.runner("three")).rejects.toMatchObject({ code: "APP_NOT_FOUND" });
  });

  it("closes every runner's toolsets and the loader on close", async () => {
    let closed = 0;
    const toolset: Toolset = { getTools: async () => [], close: async () => void closed++ };
    const { registry, loader } = await registryOver({ one: agent("a1", [toolset]), two: agent("a2") });
    await registry.runner("one");
    await registry.runner("two");
    await registry.close();
    expect(closed).toBe(1);
    expect(loader.closed).toBe(1);
  });
});

describe("openServices", () => {
  it("opens in-memory services for memory:// and puts memory in memory beside them", async () => {
    const services = await openServices({ sessionServiceUri: "memory://", artifactServiceUri: "memory://" });
    expect(services.sessionService).toBeInstanceOf(InMemorySessionService);
    expect(services.artifactService).toBeInstanceOf(InMemoryArtifactService);
    expect(services.memoryService).toBeInstanceOf(InMemoryMemoryService);
    expect(services.storageNotice).toBeUndefined();
    await services.close();
  });

  it("puts memory in the sessions' SQLite file unless told otherwise, and closes both", async () => {
    const file = join(dir, "beside.db");
    const services = await openServices({ sessionServiceUri: `sqlite://${file}`, artifactServiceUri: `file://${join(dir, "artifacts")}` });
    expect(services.sessionService).toBeInstanceOf(SqliteSessionService);
    expect(services.memoryService).toBeInstanceOf(SqliteMemoryService);
    expect(services.artifactService).toBeInstanceOf(FileArtifactService);
    const session = await services.sessionService.createSession({ appName: "a", userId: "u" });
    await services.sessionService.appendEvent({ session, event: createEvent({ invocationId: "i", author: "user", content: userMessage("remember the lighthouse") }) });
    await services.memoryService.addSessionToMemory((await services.sessionService.getSession({ appName: "a", userId: "u", sessionId: session.id }))!);
    await services.close();

    const reopened = await openServices({ sessionServiceUri: `sqlite://${file}`, artifactServiceUri: "memory://" });
    const found = await reopened.memoryService.searchMemory({ appName: "a", userId: "u", query: "lighthouse" });
    expect(found.memories).toHaveLength(1);
    await reopened.close();
  });

  it("takes an explicit memory URI over the sessions' database", async () => {
    const services = await openServices({ sessionServiceUri: `sqlite://${join(dir, "explicit.db")}`, artifactServiceUri: "memory://", memoryServiceUri: "memory://" });
    expect(services.memoryService).toBeInstanceOf(InMemoryMemoryService);
    await services.close();
  });

  it("refuses a URI no service takes, naming the service and the schemes it takes", async () => {
    await expect(openServices({ sessionServiceUri: "redis://localhost", artifactServiceUri: "memory://" })).rejects.toMatchObject({
      code: "UNKNOWN_SERVICE_URI",
      message: expect.stringContaining('"redis://localhost" does not name a session service. Use one of: memory://, sqlite://, postgres://, postgresql://'),
    });
    await expect(openServices({ sessionServiceUri: "memory://", artifactServiceUri: "sqlite://x.db" })).rejects.toThrow('"sqlite://x.db" does not name an artifact service. Use one of: memory://, file://, postgres://, postgresql://, s3:// (for example file://.toolsmith/artifacts).');
    await expect(openServices({ sessionServiceUri: "memory://", artifactServiceUri: "memory://", memoryServiceUri: "file://x" })).rejects.toThrow(/does not name a memory service/);
  });

  it("defaults to .toolsmith/ of the working directory", () => {
    expect(DEFAULT_SERVICE_URIS).toEqual({ sessionServiceUri: "sqlite://.toolsmith/toolsmith.db", artifactServiceUri: "file://.toolsmith/artifacts", memoryServiceUri: "sqlite://.toolsmith/toolsmith.db" });
  });
});

describe("TraceStore", () => {
  const finished = (init: Partial<FinishedSpan> & { name: string; attributes: Record<string, unknown> }): FinishedSpan => ({ traceId: "t".repeat(32), spanId: Math.random().toString(16).slice(2, 18), startTime: 1_000, endTime: 1_500, ...init });

  it("keeps each span under its session in the order spans started, with times in nanoseconds", () => {
    const store = new TraceStore();
    store.record(finished({ name: "execute_tool a", startTime: 1_200, endTime: 1_300, parentSpanId: "p", attributes: { "gen_ai.conversation.id": "s", "gcp.vertex.agent.event_id": "e2" } }));
    store.record(finished({ name: "invocation", startTime: 1_000, endTime: 1_400, attributes: { "gen_ai.conversation.id": "s" } }));
    const spans = store.forSession("s");
    expect(spans.map((span) => span.name)).toEqual(["invocation", "execute_tool a"]);
    expect(spans[1]).toMatchObject({ start_time: 1_200_000_000, end_time: 1_300_000_000, parent_span_id: "p", trace_id: "t".repeat(32) });
    expect(spans[0]!.parent_span_id).toBeNull();
    expect(store.forEvent("e2")).toBe(spans[1]);
  });

  it("ignores spans of no session", () => {
    const store = new TraceStore();
    store.record(finished({ name: "elsewhere", attributes: {} }));
    expect(store.forEvent("anything")).toBeUndefined();
  });

  it("forgets the oldest session, with its events, past its bound", () => {
    const store = new TraceStore({ maxSessions: 2 });
    for (const sessionId of ["s1", "s2", "s3"]) store.record(finished({ name: "chat m", attributes: { "gen_ai.conversation.id": sessionId, "gcp.vertex.agent.event_id": `e-${sessionId}` } }));
    expect(store.forSession("s1")).toEqual([]);
    expect(store.forEvent("e-s1")).toBeUndefined();
    expect(store.forSession("s2")).toHaveLength(1);
    expect(store.forEvent("e-s3")?.attributes["gen_ai.conversation.id"]).toBe("s3");
  });
});

describe("a runner of the registry", () => {
  it("runs an app's agent on the registry's session service", async () => {
    const { registry } = await registryOver({ plain: agent("plain") });
    const runner = await registry.runner("plain");
    const session = await registry.services.sessionService.createSession({ appName: "plain", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
    const stored = await registry.services.sessionService.getSession({ appName: "plain", userId: "u", sessionId: session.id });
    expect(events.map((emitted) => emitted.content?.parts?.[0]?.text)).toEqual(["ok"]);
    expect(stored!.events.map((kept) => kept.author)).toEqual(["user", "plain"]);
    expect(stored!.events[1]!.id).toBe(events[0]!.id);
  });
});
