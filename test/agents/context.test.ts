import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import { CallbackContext, Context, FunctionTool, getText, InMemoryRunner, LlmAgent, ReadonlyContext, ToolContext, type LlmRequest } from "../../src/index.js";
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

  it("is what the after and error callbacks receive too", async () => {
    const seen: string[] = [];
    const record = (where: string, context: Context) => void seen.push(`${where}:${context instanceof Context}:${context.functionCallId}`);
    const failing = new FunctionTool({
      name: "fail",
      description: "Fails.",
      execute: (_args, context: Context) => {
        record("tool", context);
        throw new Error("broken");
      },
    });
    const agent = new LlmAgent({
      name: "a",
      model: new ScriptedModel([functionCallsResponse({ id: "c1", name: "fail", args: {} }), textResponse("Recovered.")]),
      tools: [failing],
      afterAgentCallback: (context: Context) => record("afterAgent", context),
      afterModelCallback: ({ context }: { context: Context }) => record("afterModel", context),
      onToolErrorCallback: ({ context }: { context: Context }) => {
        record("onToolError", context);
        return { recovered: true };
      },
      afterToolCallback: ({ context }: { context: Context }) => record("afterTool", context),
    });
    const runner = new InMemoryRunner({ agent, appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
    expect(seen).toEqual(["afterModel:true:", "tool:true:c1", "onToolError:true:c1", "afterTool:true:c1", "afterModel:true:", "afterAgent:true:"]);
  });

  it("keeps ADK 1's names: ToolContext is Context, and a Context is a CallbackContext", async () => {
    expect(ToolContext).toBe(Context);
    const context = new Context({ invocationContext: await createInvocation() });
    expect(context).toBeInstanceOf(CallbackContext);
    expect(context.functionCallId).toBe("");
    context.state.set("k", 1);
    expect(context.actions.stateDelta).toEqual({ k: 1 });
  });

  it("has every member ADK 2.0's Context has, read from a live ADK Context", async () => {
    const membersOf = (value: object) => {
      const names = new Set<string>();
      for (let level = value; level && level !== Object.prototype; level = Object.getPrototypeOf(level)) for (const name of Object.getOwnPropertyNames(level)) names.add(name);
      return names;
    };
    const adkContext = new adk.Context({ invocationContext: { session: { state: {} } } as never });
    const toolsmithMembers = membersOf(new Context({ invocationContext: await createInvocation(), functionCallId: "c1" }));
    // _state is ADK's private field; toolsmith keeps the state in a #private one.
    const missing = [...membersOf(adkContext)].filter((name) => name !== "_state" && !toolsmithMembers.has(name));
    expect(missing).toEqual([]);
  });

  it("gives ADK's eventActions and invocationContext: the same actions object and the invocation it reads", async () => {
    const invocation = await createInvocation();
    const context = new Context({ invocationContext: invocation });
    expect(context.eventActions).toBe(context.actions);
    expect(context.invocationContext).toBe(invocation);
    expect(new ReadonlyContext(invocation).invocationContext).toBe(invocation);
  });
});
