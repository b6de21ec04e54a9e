import { describe, expect, it } from "vitest";
import { z } from "zod";
import { call, runOnBoth, runTurn, text, type Framework } from "./side-by-side.js";

/**
 * `InvocationContext.endInvocation`, written by ADK programs as a boolean (`context.endInvocation = true`), on
 * `@google/adk` 2.0 and on toolsmith. Where one agent runs, both end the same way. In a pipeline they differ on
 * purpose (docs/adk-compat.md, Runs): ADK keeps the flag on the agent's own copy of the context, so the next agent
 * runs; in toolsmith it ends the invocation it names.
 */
describe("endInvocation, side by side with @google/adk 2.0", () => {
  /** A custom agent that says one thing and then ends the invocation, as an ADK program writes it. */
  function endingAgent(f: Framework, name: string, afterAgentCallback?: () => unknown) {
    const Base: new (config: Record<string, unknown>) => object = f.BaseAgent;
    class Ending extends Base {
      async *runAsyncImpl(context: { endInvocation: boolean; invocationId: string }) {
        yield f.createEvent({ invocationId: context.invocationId, author: name, content: { role: "model", parts: [{ text: `ended: ${typeof context.endInvocation} ${context.endInvocation}` }] } });
        context.endInvocation = true;
      }
      async *runLiveImpl() {}
    }
    return new Ending({ name, ...(afterAgentCallback ? { afterAgentCallback } : {}) });
  }

  it("a custom agent that sets it as a boolean skips its after-callback on both", async () => {
    const { adk, toolsmith } = await runOnBoth([], async (f) => {
      const agent = endingAgent(f, "ender", () => ({ role: "model", parts: [{ text: "after" }] }));
      const { runner, events, session } = await runTurn(f, agent, "go");
      return { runner, events, output: session.events.length };
    });
    expect(toolsmith.events).toEqual(adk.events);
    expect(toolsmith.events.map((event) => event.content)).toEqual([{ role: "model", parts: [{ text: "ended: boolean false" }] }]);
    expect(toolsmith.output).toEqual(adk.output);
  });

  it("a tool that sets it through its context stops the model loop after the tool's response on both", async () => {
    const { adk, toolsmith } = await runOnBoth([call("stop"), text("never asked")], async (f, model) => {
      const stop = new f.FunctionTool({
        name: "stop",
        description: "Stops the run.",
        parameters: z.object({}),
        execute: (_args: unknown, context: { invocationContext: { endInvocation: boolean } }) => {
          context.invocationContext.endInvocation = true;
          return { stopped: true };
        },
      });
      return runTurn(f, new f.LlmAgent({ name: "worker", model, tools: [stop] }), "go");
    });
    expect(toolsmith.events).toEqual(adk.events);
    expect(toolsmith.requests).toHaveLength(1);
    expect(adk.requests).toHaveLength(1);
  });

  it("in a SequentialAgent, ADK runs the next agent; toolsmith ends the invocation", async () => {
    const { adk, toolsmith } = await runOnBoth([text("next agent's answer")], async (f, model) => {
      const pipeline = new f.SequentialAgent({ name: "pipeline", subAgents: [endingAgent(f, "ender"), new f.LlmAgent({ name: "next", model })] });
      return runTurn(f, pipeline, "go");
    });
    expect(adk.events.map((event) => event.author)).toEqual(["ender", "next"]);
    expect(toolsmith.events.map((event) => event.author)).toEqual(["ender"]);
    expect(toolsmith.requests).toHaveLength(0);
  });
});
