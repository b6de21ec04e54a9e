import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runOnBoth, text, type Framework } from "./side-by-side.js";

/**
 * `runConfig.pauseOnToolCalls` in a sequential pipeline, on `@google/adk` 2.0 and on toolsmith: a deliberate
 * difference (docs/adk-compat.md, Runs). ADK ends only the paused agent's own copy of the context, so the next
 * agent runs at once, before the client has run the calls; toolsmith ends the invocation, and the pipeline goes on
 * when the results come.
 */
describe("pauseOnToolCalls in a sequential pipeline, side by side with @google/adk 2.0", () => {
  it("ADK runs the next agent on the unanswered calls; toolsmith waits for the client's results", async () => {
    const call = { content: { role: "model", parts: [{ functionCall: { name: "get_location", args: {} } }] } };
    const { adk, toolsmith } = await runOnBoth([call, text("Summary of a call nobody answered.")], async (f: Framework, model) => {
      const tool = new f.FunctionTool({ name: "get_location", description: "Location.", parameters: z.object({}), execute: () => ({ city: "server" }) });
      const device = new f.LlmAgent({ name: "device", model, tools: [tool] });
      const summary = new f.LlmAgent({ name: "summary", model });
      const runner = new f.InMemoryRunner({ agent: new f.SequentialAgent({ name: "pipeline", subAgents: [device, summary] }), appName: "app" });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      const events: unknown[] = [];
      for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Where am I?" }] }, runConfig: { pauseOnToolCalls: true } })) events.push(event);
      return { runner, events };
    });
    expect(adk.events.map((event) => event.author)).toEqual(["device", "summary"]);
    expect(JSON.stringify(adk.requests[1]?.contents)).toContain("called tool `get_location`");
    expect(toolsmith.events.map((event) => event.author)).toEqual(["device"]);
    expect(toolsmith.requests).toHaveLength(1);
  });
});
