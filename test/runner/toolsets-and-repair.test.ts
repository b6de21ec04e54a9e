import { describe, expect, it } from "vitest";
import {
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  Runner,
  createEvent,
  filterToolset,
  getFunctionResponses,
  isFinalResponse,
  prefixToolset,
} from "../../src/index.js";
import type { ReadonlyContext, Tool, Toolset } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

function countingToolset(names: string[]) {
  const seen: string[] = [];
  let closed = 0;
  const toolset: Toolset = {
    async getTools(context: ReadonlyContext) {
      seen.push(`${context.userId}:${String(context.state.get("mode") ?? "-")}`);
      return names.map((name) => new FunctionTool({ name, description: name, execute: (_args, tool) => ({ tool: name, agent: tool.agentName }) }));
    },
    async close() {
      closed++;
    },
  };
  return { toolset, seen, closedCount: () => closed };
}

async function start(agent: LlmAgent) {
  const runner = new Runner({ appName: "app", agent });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u", state: { mode: "fast" } });
  return { runner, session, run: () => collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") })) };
}

describe("toolsets", () => {
  it("are resolved from a read-only context on every model request", async () => {
    const { toolset, seen } = countingToolset(["a"]);
    const model = new ScriptedModel([functionCallsResponse({ name: "a" }), textResponse("done")]);
    const { run } = await start(new LlmAgent({ name: "agent", model, tools: [toolset] }));
    const events = await run();
    expect(seen).toEqual(["u:fast", "u:fast"]);
    expect(getFunctionResponses(events[1]!.content)[0]!.response).toEqual({ tool: "a", agent: "agent" });
  });

  it("can add a name prefix and keep only the tools a filter names", async () => {
    const { toolset } = countingToolset(["read", "write", "delete"]);
    const safe = prefixToolset(filterToolset(toolset, ["read", "write"]), "fs");
    const byPredicate = filterToolset(countingToolset(["x", "y"]).toolset, (tool) => tool.name === "y");
    const model = new ScriptedModel([functionCallsResponse({ name: "fs_read" }), textResponse("done")]);
    const { run } = await start(new LlmAgent({ name: "agent", model, tools: [safe, byPredicate] }));
    const events = await run();
    expect(model.requests[0]!.functionDeclarations.map((declaration) => declaration.name)).toEqual(["fs_read", "fs_write", "y"]);
    // The prefixed tool still runs as itself.
    expect(getFunctionResponses(events[1]!.content)[0]).toMatchObject({ name: "fs_read", response: { tool: "read" } });
  });

  it("reports duplicate names across toolsets as a configuration error naming the fix", async () => {
    const model = new ScriptedModel([textResponse("never")]);
    const agent = new LlmAgent({ name: "agent", model, tools: [countingToolset(["search"]).toolset, countingToolset(["search"]).toolset] });
    const { run } = await start(agent);
    // The run ends with the configuration error as its last event; runAsync does not throw.
    expect((await run()).at(-1)).toMatchObject({ errorCode: "DUPLICATE_TOOL_NAME", errorMessage: expect.stringContaining("prefixToolset") });
  });

  it("are closed once each by runner.close(), including those of sub-agents", async () => {
    const shared = countingToolset(["a"]);
    const other = countingToolset(["b"]);
    const child = new LlmAgent({ name: "child", model: new ScriptedModel([]), tools: [other.toolset, shared.toolset] });
    const root = new LlmAgent({ name: "root", model: new ScriptedModel([]), tools: [shared.toolset], subAgents: [child] });
    const runner = new Runner({ appName: "app", agent: root });
    await runner.close();
    expect([shared.closedCount(), other.closedCount()]).toEqual([1, 1]);
  });
});

describe("interrupted sessions", () => {
  it("answers function calls left without responses before the next model call", async () => {
    const sessionService = new InMemorySessionService();
    const session = await sessionService.createSession({ appName: "app", userId: "u" });
    // A run that died after the model asked for two tools: the calls are stored, their responses never were.
    await sessionService.appendEvent({ session, event: createEvent({ invocationId: "old", author: "user", content: userMessage("book it") }) });
    await sessionService.appendEvent({
      session,
      event: createEvent({
        invocationId: "old",
        author: "agent",
        content: { role: "model", parts: [{ functionCall: { id: "c1", name: "book", args: {} } }, { functionCall: { id: "c2", name: "pay", args: {} } }] },
      }),
    });
    const model = new ScriptedModel([textResponse("The booking was interrupted; shall I retry?")]);
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "agent", model }), sessionService });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("hello?") }));

    const repaired = getFunctionResponses(events[0]!.content);
    expect(repaired.map((response) => response.id)).toEqual(["c1", "c2"]);
    expect(repaired[0]!.response!.error).toContain("was interrupted");
    // Every call in the request the model receives has its response.
    const sent = model.requests[0]!.contents;
    const callIds = sent.flatMap((content) => content.parts ?? []).flatMap((part) => (part.functionCall ? [part.functionCall.id] : []));
    const responseIds = sent.flatMap((content) => content.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse.id] : []));
    expect(responseIds).toEqual(callIds);
    // The answers come right after the calls, before the new message, as providers require.
    expect(sent.map((content) => content.parts![0]!.text ?? (content.parts![0]!.functionCall ? "calls" : "responses"))).toEqual(["book it", "calls", "responses", "hello?"]);
    expect(isFinalResponse(events.at(-1)!)).toBe(true);
  });
});

describe("events", () => {
  it("carry id, invocationId, author, timestamp, content and actions, and serialise to plain JSON", async () => {
    const model = new ScriptedModel([{ ...textResponse("hi"), usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 } }]);
    const { run } = await start(new LlmAgent({ name: "agent", model }));
    const [event] = await run();
    const json = JSON.parse(JSON.stringify(event));
    expect(json).toEqual({
      id: expect.any(String),
      invocationId: expect.stringMatching(/^e-/),
      author: "agent",
      timestamp: expect.any(Number),
      content: { role: "model", parts: [{ text: "hi" }] },
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 },
      actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} },
    });
  });

  it("stream partial text events before the complete one when streaming is on, and store only the complete one", async () => {
    const model = new ScriptedModel([
      [{ content: { role: "model", parts: [{ text: "Hel" }] } }, { content: { role: "model", parts: [{ text: "lo" }] } }],
    ]);
    const agent = new LlmAgent({ name: "agent", model });
    const runner = new Runner({ appName: "app", agent });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("hi"), runConfig: { streamingMode: "sse" } }));
    expect(events.map((event) => [event.partial ?? false, event.content?.parts?.[0]?.text])).toEqual([
      [true, "Hel"],
      [true, "lo"],
      [false, "Hello"],
    ]);
    expect(events.map((event) => isFinalResponse(event))).toEqual([false, false, true]);
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    expect(stored!.events.map((event) => event.content?.parts?.[0]?.text)).toEqual(["hi", "Hello"]);
  });

  it("mark calls to long-running tools in longRunningToolIds and let the model answer their pending results", async () => {
    const approve: Tool = new FunctionTool({ name: "ask_manager", description: "Asks a manager.", isLongRunning: true, execute: () => ({ status: "pending", ticket: 7 }) });
    const model = new ScriptedModel([functionCallsResponse({ name: "ask_manager", args: {} }), textResponse("I asked the manager; ticket 7.")]);
    const { run } = await start(new LlmAgent({ name: "agent", model, tools: [approve] }));
    const events = await run();
    const callId = events[0]!.content!.parts![0]!.functionCall!.id!;
    expect(events[0]!.longRunningToolIds).toEqual([callId]);
    expect(isFinalResponse(events[0]!)).toBe(true);
    expect(getFunctionResponses(events[1]!.content)[0]!.response).toEqual({ status: "pending", ticket: 7 });
    expect(isFinalResponse(events[1]!)).toBe(false);
    expect(events).toHaveLength(3);
    expect(model.requests).toHaveLength(2);
  });
});
