import { describe, expect, it } from "vitest";
import { call, drain, runOnBoth, runTurn, text } from "./side-by-side.js";

/**
 * Programs written once against ADK's names, run on `@google/adk` 2.0 and on
 * toolsmith with the same scripted model: the events, the requests the model
 * saw and the programs' output must be the same.
 */


describe("agent callbacks and custom agents, side by side with @google/adk 2.0", () => {
  it("skip an agent whose before-callback returns content, add an after-callback's content, and record callback state", async () => {
    const script = [text("Second speaks."), call("job"), text("Job pending.")];
    const { adk, toolsmith } = await runOnBoth(script, async (f, model) => {
      const job = new f.LongRunningFunctionTool({ name: "job", description: "Starts a job.", execute: async () => ({ status: "pending" }) });
      const first = new f.LlmAgent({
        name: "first",
        model,
        beforeAgentCallback: (context: { state: { set(key: string, value: unknown): void } }) => {
          context.state.set("skipped", true);
          return { role: "model", parts: [{ text: "Skipped by callback." }] };
        },
      });
      const second = new f.LlmAgent({
        name: "second",
        model,
        beforeAgentCallback: (context: { state: { set(key: string, value: unknown): void } }) => {
          context.state.set("seen", 1);
          return undefined;
        },
        afterAgentCallback: [() => undefined, (context: { state: { get(key: string): unknown } }) => ({ role: "model", parts: [{ text: `After second, seen=${String(context.state.get("seen"))}` }] })],
      });
      const third = new f.LlmAgent({ name: "third", model, tools: [job], afterAgentCallback: () => ({ parts: [{ text: "after third" }] }) });
      const Base: new (config: { name: string; subAgents: unknown[] }) => { subAgents: Array<{ runAsync(context: unknown): AsyncGenerator<unknown> }> } = f.BaseAgent;
      class Custom extends Base {
        async *runAsyncImpl(context: unknown) {
          for (const agent of this.subAgents) yield* agent.runAsync(context);
        }
        async *runLiveImpl() {}
      }
      const root = new Custom({ name: "custom", subAgents: [new f.SequentialAgent({ name: "seq", subAgents: [first, second, third] })] });
      const { runner, events, session } = await runTurn(f, root, "go");
      return { runner, events, output: session.state };
    });
    expect(toolsmith.events).toEqual(adk.events);
    expect(toolsmith.output).toEqual(adk.output);
    expect(toolsmith.output).toEqual({ skipped: true, seen: 1 });
    expect(toolsmith.events.map((event) => event.author)).toEqual(["first", "second", "second", "second", "third", "third", "third", "third"]);
  });

  it("send the model the same system instruction, identity lines first, and the same history after a long-running call", async () => {
    const script = [call("ask_for_approval", { amount: 500 }), text("Your request is pending approval.")];
    const { adk, toolsmith } = await runOnBoth(script, async (f, model) => {
      const approval = new f.LongRunningFunctionTool({ name: "ask_for_approval", description: "Asks for approval.", execute: async ({ amount }: { amount: number }) => ({ status: "pending", amount }) });
      const agent = new f.LlmAgent({ name: "reimbursement_agent", description: "Reimburses.", model, instruction: "Help with reimbursements.", tools: [approval] });
      return runTurn(f, agent, "Reimburse 500");
    });
    expect(toolsmith.events).toEqual(adk.events);
    expect(toolsmith.requests.map((request) => request.systemInstruction)).toEqual(adk.requests.map((request) => request.systemInstruction));
    expect(toolsmith.requests.map((request) => request.contents)).toEqual(adk.requests.map((request) => request.contents));
    expect(toolsmith.requests[0]!.systemInstruction).toBe('You are an agent. Your internal name is "reimbursement_agent".\n\nThe description about you is "Reimburses."\n\nHelp with reimbursements.');
  });
});

describe("LlmAgent options, side by side with @google/adk 2.0", () => {
  it("with includeContents 'none', send only the current turn, as ADK does", async () => {
    const script = [text("First answer."), { content: { role: "model", parts: [{ functionCall: { name: "echo", args: { text: "x" } } }] } }, text("Second answer.")];
    const { adk, toolsmith } = await runOnBoth(script, async (f, model) => {
      const echo = new f.FunctionTool({ name: "echo", description: "Echoes.", execute: async ({ text: value }: { text: string }) => ({ echoed: value }) });
      const agent = new f.LlmAgent({ name: "forgetful", model, includeContents: "none", tools: [echo] });
      const runner = new f.InMemoryRunner({ agent, appName: "app" });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      const events = [
        ...(await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "One" }] } }))),
        ...(await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Two" }] } }))),
      ];
      return { runner, events };
    });
    expect(toolsmith.requests.map((request) => request.contents)).toEqual(adk.requests.map((request) => request.contents));
    expect(toolsmith.requests[2]!.contents).toHaveLength(3);
    expect(toolsmith.events).toEqual(adk.events);
  });
});

describe("outputSchema, side by side with @google/adk 2.0", () => {
  it("stores the parsed answer under outputKey and asks the model for JSON, as ADK does", async () => {
    const { z } = await import("zod");
    const script = [text('{"capital": "Paris", "population_millions": 2.1}')];
    const { adk, toolsmith } = await runOnBoth(script, async (f, model) => {
      const agent = new f.LlmAgent({
        name: "capital_agent",
        model,
        instruction: "Answer with the capital as JSON.",
        outputSchema: z.object({ capital: z.string().describe("The capital."), population_millions: z.number() }),
        outputKey: "found_capital",
      });
      const { runner, events, session } = await runTurn(f, agent, "France?");
      return { runner, events, output: session.state };
    });
    expect(toolsmith.output).toEqual(adk.output);
    expect(toolsmith.output).toEqual({ found_capital: { capital: "Paris", population_millions: 2.1 } });
    expect(toolsmith.events.map(({ stateDelta: _, ...event }) => event)).toEqual(adk.events.map(({ stateDelta: _, ...event }) => event));
  });
});

describe("an agent made without a name, side by side with @google/adk 2.0", () => {
  it("is refused by both where it is made (toolsmith took it and named the agent undefined)", async () => {
    const adk = await import("@google/adk");
    const toolsmith = await import("../../src/index.js");
    const refusalOf = (make: () => unknown): string => {
      try {
        make();
      } catch (error) {
        return (error as Error).message;
      }
      return "accepted";
    };
    const adkMessage = refusalOf(() => new adk.LlmAgent({} as never));
    const toolsmithMessage = refusalOf(() => new toolsmith.LlmAgent({} as never));
    console.log(`ADK: ${adkMessage}\ntoolsmith: ${toolsmithMessage}`);
    expect(adkMessage).toBe("Node name must be a non-empty string.");
    expect(toolsmithMessage).toBe('An agent needs a name: an identifier (letters, digits and "_", not starting with a digit) other than "user", as in { name: "helper" }.');
  });
});
