import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FunctionNode, InMemoryRunner, isNodeTool, LlmAgent, node, NodeTool, RequestInput, type Event } from "../../src/index.js";
import { ScriptedModel, functionCallsResponse, textResponse } from "../../src/testing/index.js";

/** `NodeTool` beyond what ADK shows side by side: streaming its events, checked arguments, and a node that asks. */

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

  it("refuses, as the call's result, a node that asks the person inside the call (not yet supported), naming what to do", async () => {
    const asking = node(async function* ask(_ctx, _input: string) {
      yield new RequestInput({ interruptId: "ok", message: "Sure?" });
    }, { name: "ask", inputSchema: z.string() });
    const { response, events } = await run(new NodeTool(asking), { request: "x" });
    expect(JSON.stringify(response)).toContain('asked the person (ok) inside the tool call \\"ask\\", which toolsmith cannot pause on yet. Run the node in a Workflow to ask the person.');
    expect(events.at(-1)!.content?.parts?.[0]?.text).toBe("Done.");
  });
});
