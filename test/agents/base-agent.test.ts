import { describe, expect, it } from "vitest";
import { BaseAgent, FunctionTool, getText, InMemoryRunner, isBaseAgent, LlmAgent, SequentialAgent, type Event, type InvocationContext } from "../../src/index.js";
import { isPause } from "../../src/agents/base-agent.js";
import { createEvent } from "../../src/events/event.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

/** A custom agent as ADK's guide writes one: it runs its first sub-agent twice. */
class TwiceAgent extends BaseAgent {
  protected async *runAsyncImpl(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    for (let pass = 1; pass <= 2; pass++) {
      yield createEvent({ invocationId: context.invocationId, author: this.name, content: { role: "model", parts: [{ text: `pass ${pass}` }] } });
      yield* this.subAgents[0]!.runAsync(context);
    }
  }
}

async function run(agent: BaseAgent) {
  const runner = new InMemoryRunner({ agent, appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
  return { events, session: (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))! };
}

describe("BaseAgent", () => {
  it("runs a custom agent's runAsyncImpl in a Runner, its sub-agents run with the context it passes", async () => {
    const echo = new LlmAgent({ name: "echo", model: new ScriptedModel([textResponse("one"), textResponse("two")]) });
    const { events } = await run(new TwiceAgent({ name: "twice", subAgents: [echo] }));
    expect(events.map((event) => `${event.author}: ${getText(event.content)}`)).toEqual(["twice: pass 1", "echo: one", "twice: pass 2", "echo: two"]);
  });

  it("ends the run with INVALID_EVENT, saying how to make one, when a custom agent or a processor yields what is not an event, keeping what was stored", async () => {
    class Careless extends BaseAgent {
      protected async *runAsyncImpl(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
        yield createEvent({ invocationId: context.invocationId, author: this.name, content: { role: "model", parts: [{ text: "first" }] } });
        // What a program moved from elsewhere might yield: a response, not an event.
        yield { author: this.name, content: { role: "model", parts: [{ text: "second" }] } } as unknown as Event;
      }
    }
    const runner = new InMemoryRunner({ agent: new Careless({ name: "careless" }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
    expect(events.map((event) => getText(event.content) || event.errorCode)).toEqual(["first", "INVALID_EVENT"]);
    expect(events.at(-1)!.errorMessage).toBe('An agent yielded an object without actions (author "careless"), which is not an event. Make each event with createEvent({ invocationId: context.invocationId, author: this.name, content }), which fills in its id, time and actions.');
    const stored = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
    expect(stored.events.map((event) => getText(event.content) || event.errorCode)).toEqual(["go", "first", "INVALID_EVENT"]);

    // A bare `yield;` reads as nothing (it read "a undefined").
    class Silent extends BaseAgent {
      protected async *runAsyncImpl(): AsyncGenerator<Event, void, undefined> {
        yield undefined as unknown as Event;
      }
    }
    const silent = new InMemoryRunner({ agent: new Silent({ name: "silent" }), appName: "app" });
    const quiet = await silent.sessionService.createSession({ appName: "app", userId: "u" });
    const ended = await collect(silent.runAsync({ userId: "u", sessionId: quiet.id, newMessage: userMessage("go") }));
    expect(ended.at(-1)!.errorMessage).toBe("An agent yielded nothing, which is not an event. Make each event with createEvent({ invocationId: context.invocationId, author: this.name, content }), which fills in its id, time and actions.");
  });

  it("finds agents in its tree and knows its root, as ADK's BaseAgent does", () => {
    const leaf = new LlmAgent({ name: "leaf", model: new ScriptedModel([]) });
    const middle = new SequentialAgent({ name: "middle", subAgents: [leaf] });
    const root = new TwiceAgent({ name: "root", subAgents: [middle] });
    expect(root.findAgent("root")).toBe(root);
    expect(root.findSubAgent("root")).toBeUndefined();
    expect(root.findSubAgent("leaf")).toBe(leaf);
    expect(leaf.rootAgent).toBe(root);
    expect([root, middle, leaf, { name: "plain" }].map(isBaseAgent)).toEqual([true, true, true, false]);
  });

  it("a custom agent that does not implement runLiveImpl refuses a live run, naming itself and what to do", async () => {
    class Live extends TwiceAgent {
      tryLive(context: InvocationContext) {
        return this.runLiveImpl(context);
      }
    }
    await expect(new Live({ name: "live" }).tryLive({} as InvocationContext).next()).rejects.toThrow(expect.objectContaining({ code: "LIVE_UNSUPPORTED", message: 'Agent "live" (Live) cannot run live: it does not implement runLiveImpl. Implement it, or run the agent with runAsync.' }));
  });

  it("does not run after-agent callbacks while the agent waits for a person's confirmation", async () => {
    const refund = new FunctionTool({ name: "refund", description: "Refunds.", requireConfirmation: true, execute: () => ({ refunded: true }) });
    const afterCalls: string[] = [];
    const agent = new LlmAgent({
      name: "shop",
      model: new ScriptedModel([functionCallsResponse({ name: "refund", args: {} })]),
      tools: [refund],
      afterAgentCallback: () => {
        afterCalls.push("after");
        return undefined;
      },
    });
    const { events } = await run(agent);
    expect(isPause(events.at(-1)!)).toBe(true);
    expect(afterCalls).toEqual([]);
  });

  it("tells a pause (a request to the client) from a model's long-running call, after which the run goes on", () => {
    const modelCall = createEvent({ invocationId: "i", author: "a", content: { role: "model", parts: [{ functionCall: { id: "c", name: "job" } }] }, longRunningToolIds: ["c"] });
    const request = createEvent({ invocationId: "i", author: "a", content: { role: "user", parts: [{ functionCall: { id: "r", name: "adk_request_confirmation" } }] }, longRunningToolIds: ["r"] });
    expect([modelCall, request].map(isPause)).toEqual([false, true]);
  });

  it("runs a SequentialAgent's next child after a long-running call, since the run did not pause", async () => {
    const job = new FunctionTool({ name: "job", description: "Starts a job.", isLongRunning: true, execute: () => ({ status: "pending" }) });
    const starter = new LlmAgent({ name: "starter", model: new ScriptedModel([functionCallsResponse({ name: "job", args: {} }), textResponse("Started.")]), tools: [job] });
    const reporter = new LlmAgent({ name: "reporter", model: new ScriptedModel([textResponse("Reported.")]) });
    const { events } = await run(new SequentialAgent({ name: "steps", subAgents: [starter, reporter] }));
    expect(events.at(-1)!.author).toBe("reporter");
  });
});
