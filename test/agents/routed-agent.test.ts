import { describe, expect, it } from "vitest";
import { BaseAgent, InMemoryRunner, LlmAgent, RoutedAgent, type Event, type InvocationContext } from "../../src/index.js";
import { refusal } from "../support/refusal.js";
import { ScriptedModel, textResponse } from "../../src/testing/index.js";

/** `RoutedAgent` on its own: what it refuses, and that an agent which has produced anything is never replaced. */

async function run(agent: BaseAgent) {
  const runner = new InMemoryRunner({ agent, appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "hi" }] } })) events.push(event);
  const stored = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!.events;
  return { events, stored };
}

const answering = (name: string, answer: string) => new LlmAgent({ name, model: new ScriptedModel([textResponse(answer)]), instruction: "Answer." });

describe("RoutedAgent", () => {
  it("refuses to be made without agents, without a router, with subAgents instead of agents, or with an option it does not have", () => {
    expect(refusal(() => new RoutedAgent({ name: "r", agents: [], router: () => "x" }))).toEqual({ code: "INVALID_ROUTING", message: 'RoutedAgent "r" needs at least one agent to route to.' });
    expect(refusal(() => new RoutedAgent({ name: "r", agents: [answering("a", "x")], router: undefined as never }))).toEqual({ code: "INVALID_ROUTING", message: 'RoutedAgent "r" needs a router: a function that returns the key of the agent to run.' });
    expect(refusal(() => new RoutedAgent({ name: "r", agents: [], subAgents: [answering("b", "x")], router: () => "b" } as never))).toEqual({ code: "UNSUPPORTED_OPTION", message: 'RoutedAgent "r": give the agents to route to as `agents`; they become its sub-agents.' });
    expect(refusal(() => new RoutedAgent({ name: "r", agents: [answering("c", "x")], router: () => "c", fallback: "d" } as never))).toEqual({
      code: "UNSUPPORTED_OPTION",
      message: 'RoutedAgent "r" has no option "fallback": it takes name, description, subAgents, beforeAgentCallback, afterAgentCallback, parentAgent, agents, router. Check its spelling.',
    });
  });

  it("routes by the keys of a record, not the agents' names", async () => {
    const routed = new RoutedAgent({ name: "r", agents: { cheap: answering("small_agent", "small"), smart: answering("large_agent", "large") }, router: () => "smart" });
    expect((await run(routed)).events.map((event) => event.content?.parts?.[0]?.text)).toEqual(["large"]);
  });

  it("never replaces an agent that has produced an event: a later failure stands as that agent's", async () => {
    let spareRuns = 0;
    class SaysThenFails extends BaseAgent {
      protected async *runAsyncImpl(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
        yield { ...(await import("../../src/events/event.js")).createEvent({ author: this.name, invocationId: context.invocationId, content: { role: "model", parts: [{ text: "Working on it." }] } }) };
        throw new Error("crashed half-way");
      }
    }
    class Spare extends BaseAgent {
      protected async *runAsyncImpl(): AsyncGenerator<Event, void, undefined> {
        spareRuns++;
      }
    }
    const routed = new RoutedAgent({ name: "r", agents: [new SaysThenFails({ name: "worker" }), new Spare({ name: "spare" })], router: (_agents, _context, failure) => (failure ? "spare" : "worker") });
    const { events, stored } = await run(routed);
    expect(events.map((event) => event.errorCode ?? event.content?.parts?.[0]?.text)).toEqual(["Working on it.", "RUN_FAILED"]);
    expect(stored.map((event) => event.author)).toEqual(["user", "worker", "r"]);
    expect(spareRuns).toBe(0);
  });

  it("ends the run with an INVALID_ROUTING error event naming the agents when the router picks none of them", async () => {
    const routed = new RoutedAgent({ name: "r", agents: [answering("a", "x")], router: () => "b" });
    const { events } = await run(routed);
    expect(events.map((event) => event.errorCode)).toEqual(["INVALID_ROUTING"]);
    expect(events[0]!.errorMessage).toContain('RoutedAgent "r": the router picked "b", which is none of its agents (a).');
  });
});
