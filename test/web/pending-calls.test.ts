import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InMemoryRunner, LlmAgent, LongRunningFunctionTool, node, NodeTool, RequestInput } from "../../src/index.js";
import { functionCallsResponse, ScriptedModel } from "../../src/testing/index.js";
import type { ServerEvent } from "../../ui/api.js";
import { pendingCalls } from "../../ui/pending-calls.js";

/** What the web UI offers to answer, read from a session's real events. */
describe("the web UI's pending calls", () => {
  async function eventsOf(agent: LlmAgent): Promise<ServerEvent[]> {
    const runner = new InMemoryRunner({ agent, appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    for await (const _ of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "go" }] } }));
    return (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!.events as unknown as ServerEvent[];
  }

  it("offers the question a node run as a tool asks, not the tool's call, which goes on with the answer", async () => {
    const ask = node(async function* ask() {
      yield new RequestInput({ interruptId: "sure", message: "Sure?" });
    }, { name: "ask", inputSchema: z.string() });
    const events = await eventsOf(new LlmAgent({ name: "clerk", model: new ScriptedModel([functionCallsResponse({ name: "ask", args: { request: "x" } })]), tools: [new NodeTool(ask)] }));
    expect(pendingCalls(events).map((call) => [call.id, call.name])).toEqual([["sure", "adk_request_input"]]);
  });

  it("still offers a long-running tool's call, whose result the person sends", async () => {
    const ticket = new LongRunningFunctionTool({ name: "open_ticket", description: "Opens a ticket.", parameters: { type: "object", properties: {} }, execute: () => null });
    const events = await eventsOf(new LlmAgent({ name: "clerk", model: new ScriptedModel([functionCallsResponse({ name: "open_ticket" })]), tools: [ticket] }));
    expect(pendingCalls(events).map((call) => call.name)).toEqual(["open_ticket"]);
  });
});
