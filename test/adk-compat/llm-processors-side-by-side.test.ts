import { describe, expect, it } from "vitest";
import { z } from "zod";
import { call, runOnBoth, runTurn, text, type Framework } from "./side-by-side.js";

/**
 * ADK's `requestProcessors` and `responseProcessors` of an `LlmAgent`, as an ADK program adds its own: pushed onto
 * the agent's lists after it is made, run by `@google/adk` 2.0 and by toolsmith. A request processor changes the
 * request after the agent's own steps made it (history, instruction) and before the tools declare themselves;
 * a response processor changes each response after the model callbacks and before it becomes an event; the events
 * either yields are stored and reach the caller where they were yielded.
 */
describe("LlmAgent request and response processors, side by side with @google/adk 2.0", () => {
  /** A request processor that notes the call in the request and in an event of its own, and what it saw. */
  function notingRequestProcessor(f: Framework, seen: string[]) {
    return new (class extends f.BaseLlmRequestProcessor {
      async *runAsync(invocationContext: { invocationId: string; agent: { name: string } }, llmRequest: { contents: Array<{ role: string; parts: Array<{ text?: string }> }> }) {
        seen.push(llmRequest.contents.map((content) => content.parts.map((part) => part.text ?? "·").join("")).join(" | "));
        llmRequest.contents.push({ role: "user", parts: [{ text: "(answer briefly)" }] });
        yield f.createEvent({ invocationId: invocationContext.invocationId, author: invocationContext.agent.name, content: { role: "model", parts: [{ text: "request noted" }] } });
      }
    })();
  }

  /** A response processor that shouts the model's text and says so in an event before the answer. */
  function shoutingResponseProcessor(f: Framework) {
    return new (class extends f.BaseLlmResponseProcessor {
      async *runAsync(invocationContext: { invocationId: string; agent: { name: string } }, llmResponse: { content?: { parts?: Array<{ text?: string }> } }) {
        const part = llmResponse.content?.parts?.[0];
        if (part?.text === undefined) return;
        part.text = part.text.toUpperCase();
        yield f.createEvent({ invocationId: invocationContext.invocationId, author: invocationContext.agent.name, actions: f.createEventActions({ stateDelta: { shouted: true } }) });
      }
    })();
  }

  it("a request processor pushed onto the agent's list changes every request and its events are stored on both", async () => {
    const { adk, toolsmith } = await runOnBoth([call("lookup", { q: "x" }), text("done")], async (f, model) => {
      const seen: string[] = [];
      const lookup = new f.FunctionTool({ name: "lookup", description: "Looks up.", parameters: z.object({ q: z.string() }), execute: ({ q }: { q: string }) => ({ found: q }) });
      const agent = new f.LlmAgent({ name: "helper", model, instruction: "Help.", tools: [lookup] });
      agent.requestProcessors.push(notingRequestProcessor(f, seen));
      const { runner, events, session } = await runTurn(f, agent, "find x");
      return { runner, events, output: { seen, stored: session.events.length } };
    });
    expect(toolsmith.events).toEqual(adk.events);
    expect(toolsmith.requests).toEqual(adk.requests);
    expect(toolsmith.output).toEqual(adk.output);
    expect(toolsmith.events.map((event) => event.author)).toEqual(["helper", "helper", "helper", "helper", "helper"]);
    // The processor saw the history (the agent's own step ran before it), and the tools were declared after it.
    expect(toolsmith.requests[0]).toMatchObject({ contents: [{ parts: [{ text: "find x" }] }, { parts: [{ text: "(answer briefly)" }] }], tools: ["lookup"] });
  });

  it("a response processor changes the answer before it becomes an event, after the model callback, on both", async () => {
    const { adk, toolsmith } = await runOnBoth([text("quiet answer")], async (f, model) => {
      const order: string[] = [];
      const agent = new f.LlmAgent({
        name: "helper",
        model,
        afterModelCallback: ({ response, llmResponse }: { response?: { content?: { parts?: Array<{ text?: string }> } }; llmResponse?: { content?: { parts?: Array<{ text?: string }> } } }) => {
          order.push(`after model: ${(response ?? llmResponse)?.content?.parts?.[0]?.text}`);
          return undefined;
        },
      });
      agent.responseProcessors.push(shoutingResponseProcessor(f));
      const { runner, events } = await runTurn(f, agent, "hi");
      return { runner, events, output: order };
    });
    expect(toolsmith.events).toEqual(adk.events);
    expect(toolsmith.output).toEqual(adk.output);
    expect(toolsmith.events).toEqual([
      { author: "helper", stateDelta: { shouted: true } },
      { author: "helper", content: { role: "model", parts: [{ text: "QUIET ANSWER" }] } },
    ]);
  });

  it("processors given to the constructor run after the agent's own steps on toolsmith, where ADK's list replaces them", async () => {
    const { adk, toolsmith } = await runOnBoth([text("done")], async (f, model) => {
      const seen: string[] = [];
      const agent = new f.LlmAgent({ name: "helper", model, instruction: "Help.", requestProcessors: [notingRequestProcessor(f, seen)] });
      const { runner, events } = await runTurn(f, agent, "hi");
      return { runner, events, output: seen };
    });
    // ADK's list replaces its own steps: the history and the instruction never reach the model.
    expect(adk.output).toEqual([""]);
    expect(adk.requests[0]!.systemInstruction).toBe("");
    // toolsmith keeps them (docs/adk-compat.md): a given list adds to what the agent does.
    expect(toolsmith.output).toEqual(["hi"]);
    expect(toolsmith.requests[0]!.systemInstruction).toContain("Help.");
    expect(toolsmith.events).toEqual(adk.events);
  });
});
