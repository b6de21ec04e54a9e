import { describe, expect, it } from "vitest";
import { drain, runOnBoth } from "./side-by-side.js";

describe("content, side by side with @google/adk 2.0", () => {
  it("sends a user message given without a role as ADK does, and stores it the same way", async () => {
    const script = [{ content: { role: "model", parts: [{ text: "Hi." }] } }];
    const { adk, toolsmith } = await runOnBoth(script, async (f, model) => {
      const runner = new f.InMemoryRunner({ agent: new f.LlmAgent({ name: "greeter", model }), appName: "app" });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      const events = await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { parts: [{ text: "Hello" }] } }));
      const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
      return { runner, events, output: stored.events[0].content };
    });
    expect(toolsmith.requests.map((request) => request.contents)).toEqual(adk.requests.map((request) => request.contents));
    expect(toolsmith.output).toEqual(adk.output);
    expect(toolsmith.events).toEqual(adk.events);
  });

  it("gives the model ADK's response for a tool that returns nothing, and wraps a plain value as ADK does", async () => {
    const call = (name: string) => ({ content: { role: "model", parts: [{ functionCall: { name, args: {} } }] } });
    const script = [call("nothing"), call("number"), { content: { role: "model", parts: [{ text: "Done." }] } }];
    const { adk, toolsmith } = await runOnBoth(script, async (f, model) => {
      const nothing = new f.FunctionTool({ name: "nothing", description: "Returns nothing.", execute: async () => undefined });
      const number = new f.FunctionTool({ name: "number", description: "Returns a number.", execute: async () => 42 });
      const runner = new f.InMemoryRunner({ agent: new f.LlmAgent({ name: "tools", model, tools: [nothing, number] }), appName: "app" });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      return { runner, events: await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "go" }] } })) };
    });
    expect(toolsmith.events).toEqual(adk.events);
  });
});
