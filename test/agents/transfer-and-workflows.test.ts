import { describe, expect, it } from "vitest";
import {
  ConfigurationError,
  FunctionTool,
  LlmAgent,
  LoopAgent,
  ParallelAgent,
  Runner,
  SequentialAgent,
  exitLoop,
} from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { summarize } from "./event-summary.js";
import { checkAndTransfer } from "../../examples/customer-support/check-and-transfer.js";
import { withoutIdentity } from "../support/identity.js";

async function session(runner: Runner) {
  const created = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  return (text: string) => collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: userMessage(text) }));
}

describe("sub-agents and transfer", () => {
  it("hands the conversation to a sub-agent through transfer_to_agent, and sends the next message to it", async () => {
    const rootModel = new ScriptedModel([functionCallsResponse({ name: "transfer_to_agent", args: { agent_name: "billing" } })]);
    const billingModel = new ScriptedModel([textResponse("Your invoice is €12."), textResponse("Paid on the 3rd.")]);
    const billing = new LlmAgent({ name: "billing", description: "Invoices and payments.", model: billingModel });
    const support = new LlmAgent({ name: "support", description: "Technical help.", model: new ScriptedModel([]) });
    const root = new LlmAgent({ name: "root", model: rootModel, subAgents: [billing, support] });
    const say = await session(new Runner({ appName: "app", agent: root }));

    expect(summarize(await say("How much do I owe?"))).toEqual([
      'root | call transfer_to_agent {"agent_name":"billing"}',
      'root | response transfer_to_agent {"status":"success","transferred_to":"billing"}',
      'billing | text "Your invoice is €12."',
    ]);
    expect(rootModel.requests[0]!.systemInstruction).toContain("- billing: Invoices and payments.");
    expect(rootModel.requests[0]!.functionDeclarations[0]!.parameters).toMatchObject({ properties: { agent_name: { enum: ["billing", "support"] } } });
    // Billing saw the earlier turns retold as context, not as its own.
    expect(billingModel.requests[0]!.contents.map((content) => [content.role, content.parts!.map((part) => part.text).join(" ")])).toEqual([
      ["user", "How much do I owe?"],
      ["user", "For context: [root] called tool `transfer_to_agent` with parameters: {\"agent_name\":\"billing\"}"],
      ["user", "For context: [root] tool `transfer_to_agent` returned result: {\"status\":\"success\",\"transferred_to\":\"billing\"}"],
    ]);

    expect(summarize(await say("When did I pay?"))).toEqual(['billing | text "Paid on the 3rd."']);
    rootModel.assertComplete();
    billingModel.assertComplete();
  });

  it("answers a transfer to an unknown agent with an error naming the allowed ones", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "transfer_to_agent", args: { agent_name: "sales" } }), textResponse("I will help myself.")]);
    const root = new LlmAgent({ name: "root", model, subAgents: [new LlmAgent({ name: "billing", model: new ScriptedModel([]) })] });
    const events = await (await session(new Runner({ appName: "app", agent: root })))("hi");
    expect(events[1]!.content!.parts![0]!.functionResponse!.response!.error).toContain('agent_name: must be one of ["billing"]');
    expect(events.at(-1)!.content!.parts![0]!.text).toBe("I will help myself.");
  });

  it("hands over when any tool sets actions.transferToAgent", async () => {
    const support = new LlmAgent({ name: "support_agent", model: new ScriptedModel([textResponse("Support here, on it.")]) });
    const main = new LlmAgent({
      name: "main_agent",
      model: new ScriptedModel([functionCallsResponse({ name: "check_and_transfer", args: { query: "this is urgent, I can't log in" } })]),
      tools: [checkAndTransfer],
      subAgents: [support],
    });
    const events = await (await session(new Runner({ appName: "app", agent: main })))("this is urgent, I can't log in");
    expect(summarize(events)).toEqual([
      'main_agent | call check_and_transfer {"query":"this is urgent, I can\'t log in"}',
      'main_agent | response check_and_transfer {"result":"Transferring to the support agent..."}',
      'support_agent | text "Support here, on it."',
    ]);
  });

  it("offers the parent and peers as targets unless switched off", async () => {
    const model = new ScriptedModel([textResponse("ok")]);
    const child = new LlmAgent({ name: "child", model, disallowTransferToPeers: true });
    const peer = new LlmAgent({ name: "peer", model: new ScriptedModel([]), disallowTransferToParent: true });
    new LlmAgent({ name: "root", model: new ScriptedModel([]), subAgents: [child, peer] });
    const runner = new Runner({ appName: "app", agent: child.parentAgent! });
    const created = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    // Reach the child directly: a session whose last answer came from it.
    await runner.sessionService.appendEvent({ session: created, event: { ...userEvent("x"), author: "child" } });
    await collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: userMessage("hi") }));
    expect(model.requests[0]!.functionDeclarations[0]!.parameters).toMatchObject({ properties: { agent_name: { enum: ["root"] } } });
  });

  it("rejects duplicate agent names and an agent placed under two parents", () => {
    const shared = new LlmAgent({ name: "shared", model: new ScriptedModel([]) });
    new LlmAgent({ name: "first", model: new ScriptedModel([]), subAgents: [shared] });
    expect(() => new LlmAgent({ name: "second", model: new ScriptedModel([]), subAgents: [shared] })).toThrow(/already a sub-agent of "first"/);
    const twin = new LlmAgent({ name: "root", model: new ScriptedModel([]) });
    const root = new LlmAgent({ name: "root", model: new ScriptedModel([]), subAgents: [twin] });
    expect(() => new Runner({ appName: "app", agent: root })).toThrow(ConfigurationError);
    expect(() => new Runner({ appName: "app", agent: root })).toThrow(/Two agents in the tree under "root" are named "root"/);
  });
});

function userEvent(text: string) {
  return { id: "seed", invocationId: "seed", author: "user", timestamp: Date.now(), content: userMessage(text), actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} } };
}

const setState = new FunctionTool({
  name: "set_state",
  description: "Sets a state key.",
  parameters: { type: "object", properties: { key: { type: "string" }, value: { type: "string" }, delayMs: { type: "number" } }, required: ["key", "value"] },
  execute: async ({ key, value, delayMs }, context) => {
    await new Promise((resolve) => setTimeout(resolve, (delayMs as number | undefined) ?? 0));
    context.state.set(key as string, value);
    return { ok: true };
  },
});

describe("workflow agents", () => {
  it("SequentialAgent runs its sub-agents in order over one conversation", async () => {
    const writerModel = new ScriptedModel([textResponse("Draft: roses are red.")]);
    const reviewerModel = new ScriptedModel([textResponse("Looks good.")]);
    const pipeline = new SequentialAgent({
      name: "pipeline",
      subAgents: [new LlmAgent({ name: "writer", model: writerModel, outputKey: "draft" }), new LlmAgent({ name: "reviewer", model: reviewerModel, instruction: "Review: {draft}" })],
    });
    const events = await (await session(new Runner({ appName: "app", agent: pipeline })))("Write a poem");
    expect(summarize(events)).toEqual(['writer | text "Draft: roses are red."', 'reviewer | text "Looks good."']);
    expect(withoutIdentity(reviewerModel.requests[0]!.systemInstruction)).toBe("Review: Draft: roses are red.");
  });

  it("ParallelAgent runs branches concurrently, isolates their histories and keeps every state change", async () => {
    const leftModel = new ScriptedModel([functionCallsResponse({ name: "set_state", args: { key: "left", value: "L", delayMs: 30 } }), textResponse("left done")]);
    const rightModel = new ScriptedModel([functionCallsResponse({ name: "set_state", args: { key: "right", value: "R", delayMs: 5 } }), textResponse("right done")]);
    const fanOut = new ParallelAgent({
      name: "fan_out",
      subAgents: [new LlmAgent({ name: "left", model: leftModel, tools: [setState] }), new LlmAgent({ name: "right", model: rightModel, tools: [setState] })],
    });
    const runner = new Runner({ appName: "app", agent: fanOut });
    const created = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: userMessage("go") }));
    expect(events.map((event) => event.branch)).toEqual(expect.arrayContaining(["fan_out.left", "fan_out.right"]));
    expect(events.filter((event) => event.branch === "fan_out.left").length).toBe(3);
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: created.id });
    expect(stored!.state).toEqual({ left: "L", right: "R" });
    // The left branch's second request has the user's message and its own call, nothing of the right branch.
    const leftTexts = JSON.stringify(leftModel.requests[1]!.contents);
    expect(leftTexts).toContain('"left"');
    expect(leftTexts).not.toContain("right");
  });

  it("LoopAgent repeats until exit_loop escalates", async () => {
    const model = new ScriptedModel([textResponse("try 1"), textResponse("try 2"), functionCallsResponse({ name: "exit_loop" })]);
    const loop = new LoopAgent({ name: "loop", maxIterations: 10, subAgents: [new LlmAgent({ name: "worker", model, tools: [exitLoop] })] });
    const events = await (await session(new Runner({ appName: "app", agent: loop })))("go");
    expect(summarize(events)).toEqual(['worker | text "try 1"', 'worker | text "try 2"', "worker | call exit_loop {}", 'worker | response exit_loop {"result":""}']);
    model.assertComplete();
  });

  it("LoopAgent stops after maxIterations", async () => {
    const model = new ScriptedModel([textResponse("1"), textResponse("2")]);
    const loop = new LoopAgent({ name: "loop", maxIterations: 2, subAgents: [new LlmAgent({ name: "worker", model })] });
    const events = await (await session(new Runner({ appName: "app", agent: loop })))("go");
    expect(events).toHaveLength(2);
    model.assertComplete();
  });
});
