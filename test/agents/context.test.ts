import { describe, expect, it } from "vitest";
import { CallbackContext, Context, FunctionTool, getText, InMemoryRunner, LlmAgent, ToolContext, type LlmRequest } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { createInvocation } from "../support/tool-context.js";

describe("Context, ADK 2's one context for tools and callbacks", () => {
  it("is what tools and every kind of callback receive, so one type annotates them all", async () => {
    const seen: string[] = [];
    const record = (where: string, context: Context) => void seen.push(`${where}:${context instanceof Context}:${context.functionCallId}`);
    const tool = new FunctionTool({
      name: "note",
      description: "Notes.",
      execute: (_args, context: Context) => {
        record("tool", context);
        context.state.set("noted", true);
        return { ok: true };
      },
    });
    const agent = new LlmAgent({
      name: "a",
      model: new ScriptedModel([functionCallsResponse({ id: "c1", name: "note", args: {} }), textResponse("Noted.")]),
      tools: [tool],
      beforeAgentCallback: (context: Context) => record("beforeAgent", context),
      beforeModelCallback: ({ context }: { context: Context; request: LlmRequest }) => record("beforeModel", context),
      beforeToolCallback: ({ context }: { context: Context }) => record("beforeTool", context),
    });
    const runner = new InMemoryRunner({ agent, appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("note") }));
    expect(getText(events.at(-1)!.content)).toBe("Noted.");
    expect(seen).toEqual(["beforeAgent:true:", "beforeModel:true:", "beforeTool:true:c1", "tool:true:c1", "beforeModel:true:"]);
  });

  it("keeps ADK 1's names: ToolContext is Context, and a Context is a CallbackContext", async () => {
    expect(ToolContext).toBe(Context);
    const context = new Context({ invocationContext: await createInvocation() });
    expect(context).toBeInstanceOf(CallbackContext);
    expect(context.functionCallId).toBe("");
    context.state.set("k", 1);
    expect(context.actions.stateDelta).toEqual({ k: 1 });
  });
});
