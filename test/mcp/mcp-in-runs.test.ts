import { afterAll, describe, expect, it } from "vitest";
import { LlmAgent, REQUEST_CONFIRMATION, Runner, getFunctionResponses, type Event } from "../../src/index.js";
import { MCPToolset, type MCPToolsetOptions } from "../../src/mcp/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { referenceServer } from "./server-paths.js";

const everything = referenceServer("everything");
const toolsets: MCPToolset[] = [];
afterAll(() => Promise.all(toolsets.map((toolset) => toolset.close())));

function everythingToolset(options: Omit<MCPToolsetOptions, "connection"> = {}) {
  // The server announces itself on stderr; that line is not the test's output.
  const toolset = new MCPToolset({ connection: { command: process.execPath, args: [everything], stderr: "ignore" }, ...options });
  toolsets.push(toolset);
  return toolset;
}

describe("MCP tools in a run", () => {
  it("stream the server's progress notifications as partial events while the call runs", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "trigger-long-running-operation", args: { duration: 0.3, steps: 3 } }), textResponse("Done.")]);
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "agent", model, tools: [everythingToolset()] }) });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go"), runConfig: { streamingMode: "sse" } }));
    const callId = events[0]!.content!.parts![0]!.functionCall!.id;
    const progress = events.filter((event) => event.partial && event.customMetadata?.toolProgress).map((event) => event.customMetadata!.toolProgress);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]).toMatchObject({ functionCallId: callId, progress: 1, total: 3 });
    // Progress arrives before the call's response, and is never stored.
    const responseIndex = events.findIndex((event) => getFunctionResponses(event.content).length > 0);
    expect(events.findIndex((event) => event.customMetadata?.toolProgress)).toBeLessThan(responseIndex);
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    expect(stored!.events.some((event) => event.customMetadata?.toolProgress)).toBe(false);
  });

  it("need the user's confirmation when requireConfirmation says so, and reach the server only after it", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "get-sum", args: { a: 1000, b: 1 } }), textResponse("1001.")]);
    const toolset = everythingToolset({ requireConfirmation: (name, args) => name === "get-sum" && Number(args.a) > 100 });
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "agent", model, tools: [toolset] }) });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const first = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("add") }));
    expect(getFunctionResponses(first[1]!.content)[0]!.response).toMatchObject({ status: "paused", waitingFor: "confirmation" });
    const request = requestOf(first);
    const second = await collect(
      runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ functionResponse: { id: request.id, name: REQUEST_CONFIRMATION, response: { confirmed: true } } }] } }),
    );
    expect(JSON.stringify(getFunctionResponses(second[0]!.content)[0]!.response)).toContain("1001");
    expect(second.at(-1)!.content!.parts![0]!.text).toBe("1001.");
  });
});

function requestOf(events: readonly Event[]) {
  return events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === REQUEST_CONFIRMATION)!.functionCall!;
}
