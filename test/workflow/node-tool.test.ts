import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FunctionNode, getPendingUserInputRequests, InMemoryRunner, isNodeTool, LlmAgent, node, NodeTool, RequestInput, Workflow, type Event, type LlmRequest } from "../../src/index.js";
import { ScriptedModel, functionCallsResponse, textResponse } from "../../src/testing/index.js";

/** `NodeTool` beyond what ADK shows side by side: streaming its events, checked arguments, nesting. (A node that asks: node-tool-pause.test.ts.) */

async function run(tool: NodeTool, args: Record<string, unknown>, runConfig = {}) {
  const model = new ScriptedModel([functionCallsResponse({ name: tool.name, args }), textResponse("Done.")]);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "clerk", model, instruction: "Help.", tools: [tool] }), appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "go" }] }, runConfig })) events.push(event);
  const response = events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionResponse)?.functionResponse?.response;
  return { events, response, model };
}

describe("NodeTool", () => {
  it("streams the node's events to the caller with streamAgentToolEvents, on the tool's branch", async () => {
    const tool = new NodeTool(new FunctionNode("double", (_ctx, input: { n: number }) => input.n * 2, { inputSchema: z.object({ n: z.number() }) }));
    const { events, response } = await run(tool, { n: 21 }, { streamAgentToolEvents: true });
    expect(response).toEqual({ result: 42 });
    const nodeEvent = events.find((event) => event.author === "double")!;
    expect(nodeEvent.output).toBe(42);
    expect(nodeEvent.branch).toMatch(/^double@adk-[0-9a-f-]+$/);
    expect(isNodeTool(tool)).toBe(true);
  });

  it("checks the model's arguments against the node's input schema before the node runs", async () => {
    let ran = 0;
    const tool = new NodeTool(new FunctionNode("double", (_ctx, input: { n: number }) => (ran++, input.n * 2), { inputSchema: z.object({ n: z.number() }) }));
    const { response } = await run(tool, { n: "many" });
    expect(ran).toBe(0);
    expect(JSON.stringify(response)).toMatch(/n/);
    expect((response as { status?: string }).status).toBe("error");
  });
});

describe("NodeTool nesting", () => {
  it("refuses a call nested in 8 others (a node offering itself as a tool) as the call's result, and every level then answers", async () => {
    let calls = 0;
    const step = (request: LlmRequest) => {
      const last = request.contents.at(-1)?.parts?.[0];
      if (last?.functionResponse) return textResponse(`level answered: ${JSON.stringify(last.functionResponse.response).slice(0, 60)}`);
      calls++;
      return functionCallsResponse({ name: "recurse", args: { request: "again" } });
    };
    const model = new ScriptedModel(Array.from({ length: 40 }, () => step));
    let tool: NodeTool | undefined;
    const agent = new LlmAgent({ name: "inner", model, tools: [{ getTools: async () => [tool!], close: async () => undefined }] });
    tool = new NodeTool(new Workflow({ name: "recurse", edges: [["START", agent]], inputSchema: z.object({ request: z.string() }) }));
    const root = new LlmAgent({ name: "outer", model, tools: [tool] });
    const runner = new InMemoryRunner({ agent: root, appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events: Event[] = [];
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "go" }] } })) events.push(event);
    const stored = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
    const refusals = stored.events.flatMap((event) => event.content?.parts ?? []).filter((part) => JSON.stringify(part.functionResponse?.response ?? {}).includes("past the most (8)"));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.functionResponse!.response).toMatchObject({ status: "error", error: expect.stringContaining('NodeTool "recurse" runs inside 8 other NodeTool calls, past the most (8): a node is likely offering itself as a tool. Answer without calling it.') });
    // Every other level's call got its level's answer: a node run as a tool whose agent's call finished does not wait.
    const results = stored.events.flatMap((event) => event.content?.parts ?? []).filter((part) => part.functionResponse?.name === "recurse").map((part) => part.functionResponse!.response);
    expect(results).toHaveLength(9);
    expect(results.filter((result) => result?.status === "error")).toHaveLength(1);
    expect(results.filter((result) => typeof result?.result === "string" && result.result.startsWith("level answered: "))).toHaveLength(8);
    // The root and the eight nested levels each called the tool once.
    expect(calls).toBe(9);
    expect(events.at(-1)!.author).toBe("outer");
    expect(events.at(-1)!.content?.parts?.[0]?.text).toMatch(/^level answered: /);
  });
});
