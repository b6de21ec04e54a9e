/** buildLlmRequest on its own, beside request-and-model-call.test.ts: history and branches, state prefixes, hidden tools, duplicate names, the transfer tool's place, fresh requests. */
import { describe, expect, it } from "vitest";
import { SequentialAgent } from "../../src/agents/sequential-agent.js";
import { buildLlmRequest, currentTurn } from "../../src/llm-agent/build-llm-request.js";
import { createEvent } from "../../src/events/event.js";
import { LlmAgent } from "../../src/llm-agent/llm-agent.js";
import { TRANSFER_TOOL_NAME } from "../../src/llm-agent/transfer-to-agent-tool.js";
import type { LlmRequest } from "../../src/models/llm-request.js";
import type { Tool, Toolset, ToolUnion } from "../../src/tools/tool.js";
import type { ToolContext } from "../../src/tools/tool-context.js";
import { BaseTool, type ToolProcessLlmRequest } from "../../src/tools/base-tool.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { invocationFor, say, sleep, tool } from "./fixtures.js";
import { withoutIdentity } from "../support/identity.js";

const model = new ScriptedModel([], { name: "model-x" });

/** A tool the model is not shown (no declaration) that only changes the requests it is part of. */
function requestChanger(name: string, processLlmRequest: NonNullable<Tool["processLlmRequest"]>): Tool {
  return { name, description: `The ${name} tool.`, declaration: () => undefined, run: async () => ({}), processLlmRequest };
}

describe("buildLlmRequest", () => {
  it("sends the stored history as the contents, under the model's own name", async () => {
    const agent = new LlmAgent({ name: "helper", model });
    const context = await invocationFor(agent, { events: [say("user", "hi"), say("helper", "hello"), say("user", "chunk", { partial: true })] });
    const { request } = await buildLlmRequest(agent, context, model);
    expect(request.model).toBe("model-x");
    expect(request.contents).toEqual([
      { role: "user", parts: [{ text: "hi" }] },
      { role: "model", parts: [{ text: "hello" }] },
    ]);
  });

  it("opens the system instruction with ADK's identity lines: the agent's name, then its description", async () => {
    const agent = new LlmAgent({ name: "helper", description: "Answers questions.", model, instruction: "Be brief." });
    const { request } = await buildLlmRequest(agent, await invocationFor(agent), model);
    expect(request.systemInstruction).toBe('You are an agent. Your internal name is "helper".\n\nThe description about you is "Answers questions."\n\nBe brief.');
    const plain = new LlmAgent({ name: "plain", model });
    expect((await buildLlmRequest(plain, await invocationFor(plain), model)).request.systemInstruction).toBe('You are an agent. Your internal name is "plain".');
  });

  it("leaves the identity lines out for an agent that can transfer nowhere, as ADK does", async () => {
    const agent = new LlmAgent({ name: "solo", model, instruction: "Be brief.", disallowTransferToParent: true, disallowTransferToPeers: true });
    const { request } = await buildLlmRequest(agent, await invocationFor(agent), model);
    expect(request.systemInstruction).toBe("Be brief.");
  });

  it("writes state objects into the instruction as JSON, fills doubled braces as ADK does, and leaves JSON braces alone", async () => {
    const agent = new LlmAgent({ name: "helper", model, instruction: "Plan: {plan}. Count: {count}. Also {{count}}, keep {\"json\": 1}." });
    const context = await invocationFor(agent, { state: { plan: { steps: ["a", "b"] }, count: 3 } });
    expect(withoutIdentity((await buildLlmRequest(agent, context, model)).request.systemInstruction)).toBe('Plan: {"steps":["a","b"]}. Count: 3. Also 3, keep {"json": 1}.');
  });

  it("reads app:, user: and temp: keys for the instruction as the state holds them", async () => {
    const agent = new LlmAgent({ name: "helper", model, instruction: "{app:brand} for {user:tier}, step {temp:step}" });
    const context = await invocationFor(agent, { state: { "app:brand": "Acme", "user:tier": "gold" } });
    context.session.state["temp:step"] = 3;
    const { request } = await buildLlmRequest(agent, context, model);
    expect(withoutIdentity(request.systemInstruction)).toBe("Acme for gold, step 3");
  });

  it("keeps a tool without a declaration runnable but hidden from the model, and lets every tool change the request last", async () => {
    const contexts: ToolContext[] = [];
    const hidden = requestChanger("policy", ({ llmRequest: request, toolContext: context }) => {
      contexts.push(context);
      request.systemInstruction += "\n\nNever promise refunds.";
      request.config.temperature = 0;
    });
    const agent = new LlmAgent({ name: "helper", model, instruction: "Be kind.", tools: [hidden, tool("visible", () => ({}))] });
    const context = await invocationFor(agent);
    const { request, toolsByName } = await buildLlmRequest(agent, context, model);
    expect(request.functionDeclarations.map((declaration) => declaration.name)).toEqual(["visible"]);
    expect(toolsByName.has("policy")).toBe(true);
    expect(withoutIdentity(request.systemInstruction)).toBe("Be kind.\n\nNever promise refunds.");
    expect(request.config.temperature).toBe(0);
    expect(contexts[0]!.invocationId).toBe(context.invocationId);
  });

  it("refuses two tools of one name that toolsets bring together", async () => {
    const toolset: Toolset = { getTools: async () => [tool("read", () => ({}))], close: async () => {} };
    const agent = new LlmAgent({ name: "helper", model, tools: [tool("read", () => ({})), toolset] });
    await expect(buildLlmRequest(agent, await invocationFor(agent), model)).rejects.toMatchObject({ code: "DUPLICATE_TOOL_NAME" });
  });

  it("refuses a tool of the agent's own named transfer_to_agent when it can transfer, where the model was offered two of that name and every call went to the built-in one", async () => {
    const own = new LlmAgent({ name: "root", model, tools: [tool(TRANSFER_TOOL_NAME, () => ({}))], subAgents: [new LlmAgent({ name: "billing", model })] });
    await expect(buildLlmRequest(own, await invocationFor(own), model)).rejects.toMatchObject({
      code: "DUPLICATE_TOOL_NAME",
      message: 'Agent "root" has a tool named "transfer_to_agent", the name of the tool toolsmith gives it (as ADK does) for transferring to its sub-agents, parent and peers. Rename that tool, or give its toolset a prefix with prefixToolset(toolset, prefix).',
    });
    // From a toolset (an MCP server's tool, say), the same.
    const toolset: Toolset = { getTools: async () => [tool(TRANSFER_TOOL_NAME, () => ({}))], close: async () => {} };
    const served = new LlmAgent({ name: "root", model, tools: [toolset], subAgents: [new LlmAgent({ name: "billing", model })] });
    await expect(buildLlmRequest(served, await invocationFor(served), model)).rejects.toMatchObject({ code: "DUPLICATE_TOOL_NAME" });
    // With nowhere to transfer, there is no built-in tool, and the name is the agent's own.
    const alone = new LlmAgent({ name: "alone", model, tools: [tool(TRANSFER_TOOL_NAME, () => ({}))] });
    expect((await buildLlmRequest(alone, await invocationFor(alone), model)).request.functionDeclarations.map((declaration) => declaration.name)).toEqual([TRANSFER_TOOL_NAME]);
  });

  it("adds transfer_to_agent with its targets as an enum, and the instruction listing them, after the agent's own", async () => {
    const billing = new LlmAgent({ name: "billing", description: "Handles invoices.", model });
    const support = new LlmAgent({ name: "support", model });
    const root = new LlmAgent({ name: "root", model, instruction: "Route requests.", tools: [tool("faq", () => ({}))], subAgents: [billing, support] });
    const { request, toolsByName } = await buildLlmRequest(root, await invocationFor(root), model);
    expect(request.functionDeclarations.map((declaration) => declaration.name)).toEqual(["faq", TRANSFER_TOOL_NAME]);
    expect(request.functionDeclarations[1]!.parameters).toMatchObject({ properties: { agent_name: { enum: ["billing", "support"] } }, required: ["agent_name"] });
    expect(toolsByName.has(TRANSFER_TOOL_NAME)).toBe(true);
    const [identity, own, transfer] = request.systemInstruction.split("\n\n");
    expect(identity).toBe('You are an agent. Your internal name is "root".');
    expect(own).toBe("Route requests.");
    expect(transfer).toContain("- billing: Handles invoices.");
    expect(transfer).toContain("- support: (no description)");
  });

  it("offers no transfer to an agent that has no one to hand over to", async () => {
    const leaf = new LlmAgent({ name: "leaf", model });
    new SequentialAgent({ name: "pipeline", subAgents: [leaf, new LlmAgent({ name: "next_step", model })] });
    const { request, toolsByName } = await buildLlmRequest(leaf, await invocationFor(leaf), model);
    expect(request.functionDeclarations).toEqual([]);
    expect(toolsByName.size).toBe(0);
    expect(withoutIdentity(request.systemInstruction)).toBe("");
  });

  it("shows the model only its own branch of the history", async () => {
    const agent = new LlmAgent({ name: "worker", model });
    const events = [say("user", "go"), say("worker", "left side", { branch: "par.left" }), say("worker", "right side", { branch: "par.right" })];
    const { request } = await buildLlmRequest(agent, await invocationFor(agent, { events, branch: "par.left" }), model);
    expect(request.contents.map((content) => content.parts![0]!.text)).toEqual(["go", "left side"]);
  });

  it("builds a new request each time, so a change made to one does not reach the next", async () => {
    const agent = new LlmAgent({ name: "helper", model, instruction: "Base.", tools: [tool("a", () => ({}))] });
    const context = await invocationFor(agent);
    const first: LlmRequest = (await buildLlmRequest(agent, context, model)).request;
    first.systemInstruction += " Changed.";
    first.functionDeclarations.pop();
    const second = (await buildLlmRequest(agent, context, model)).request;
    expect(withoutIdentity(second.systemInstruction)).toBe("Base.");
    expect(second.functionDeclarations).toHaveLength(1);
  });

  it("offers a tool added to the agent's tools after a model call at the next one, and stops offering one taken away", async () => {
    const agent = new LlmAgent({ name: "helper", model, tools: [tool("a", () => ({}))] });
    const context = await invocationFor(agent);
    const names = async () => [...(await buildLlmRequest(agent, context, model)).toolsByName.keys()];
    expect(await names()).toEqual(["a"]);
    // A program may change the list between runs (ADK's is a plain array).
    const tools = agent.tools as ToolUnion[];
    tools.push(tool("b", () => ({})));
    expect(await names()).toEqual(["a", "b"]);
    tools.splice(0, 1, tool("c", () => ({})));
    expect(await names()).toEqual(["c", "b"]);
  });

  it("runs a tool class's own processLlmRequest and a plain tool's synchronous one, and skips BaseTool's empty one", async () => {
    class Quiet extends BaseTool {
      constructor(name = "quiet") {
        super({ name, description: "Keeps BaseTool's processLlmRequest, which changes nothing." });
      }
      override async runAsync() {
        return {};
      }
    }
    class Noting extends Quiet {
      constructor() {
        super("noting");
      }
      override async processLlmRequest({ llmRequest }: ToolProcessLlmRequest) {
        llmRequest.systemInstruction += "\n\nNoted.";
      }
    }
    const marking = requestChanger("marking", ({ llmRequest }) => {
      llmRequest.config.temperature = 0.5;
    });
    const agent = new LlmAgent({ name: "helper", model, instruction: "Base.", tools: [new Noting(), new Quiet(), marking] });
    const context = await invocationFor(agent);
    const first = await buildLlmRequest(agent, context, model);
    expect(withoutIdentity(first.request.systemInstruction)).toBe("Base.\n\nNoted.");
    expect(first.request.config.temperature).toBe(0.5);
    const quietOnly = new LlmAgent({ name: "quiet_agent", model, tools: [new Quiet()] });
    const prepared = [await buildLlmRequest(quietOnly, await invocationFor(quietOnly), model), await buildLlmRequest(quietOnly, await invocationFor(quietOnly), model)];
    expect(prepared[0]!.actions).toEqual({ stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} });
    expect(prepared[0]!.actions).not.toBe(prepared[1]!.actions);
  });

  it("applies request changes in the tools' order, waiting for those that return a promise, and gives the request at once when none waits", async () => {
    const applied: string[] = [];
    const now = (name: string) => requestChanger(name, () => void applied.push(name));
    const later = (name: string) =>
      requestChanger(name, async () => {
        await sleep(2);
        applied.push(name);
      });
    const waiting = new LlmAgent({ name: "waiting", model, instruction: "Base.", tools: [now("first"), later("second"), now("third"), later("fourth")] });
    const context = await invocationFor(waiting);
    await buildLlmRequest(waiting, context, model); // the first call resolves the tool list
    applied.length = 0;
    const pending = buildLlmRequest(waiting, context, model);
    expect(pending).toBeInstanceOf(Promise);
    await pending;
    expect(applied).toEqual(["first", "second", "third", "fourth"]);

    const immediate = new LlmAgent({ name: "immediate", model, instruction: "Base.", tools: [now("only")] });
    const immediateContext = await invocationFor(immediate);
    await buildLlmRequest(immediate, immediateContext, model);
    const given = buildLlmRequest(immediate, immediateContext, model);
    expect(given).not.toBeInstanceOf(Promise);
    const templated = new LlmAgent({ name: "templated", model, instruction: "Plan {plan?}." });
    expect(buildLlmRequest(templated, await invocationFor(templated), model)).toBeInstanceOf(Promise);
  });
});

describe("currentTurn (includeContents: 'none'), as ADK takes the turn", () => {
  const call = (author: string, id: string) => createEvent({ invocationId: "i", author, content: { role: "model", parts: [{ functionCall: { id, name: "lookup", args: {} } }] } });
  const result = (author: string, id: string) => createEvent({ invocationId: "i", author, content: { role: "user", parts: [{ functionResponse: { id, name: "lookup", response: { ok: true } } }] } });

  it("starts at the user's latest message", () => {
    const events = [say("user", "one"), say("critic", "first"), say("user", "two")];
    expect(currentTurn(events, "critic", {}).map((event) => event.content?.parts?.[0]?.text)).toEqual(["two"]);
  });

  it("starts at another agent's answer when that came after the user, as in a workflow", () => {
    const events = [say("user", "write"), say("writer", "draft"), say("critic", "fix it"), say("refiner", "better draft")];
    expect(currentTurn(events, "critic", {}).map((event) => event.content?.parts?.[0]?.text)).toEqual(["better draft"]);
  });

  it("keeps the agent's own calls and their results in the turn", () => {
    const events = [say("user", "go"), call("critic", "c1"), result("critic", "c1")];
    expect(currentTurn(events, "critic", {})).toEqual(events);
  });

  it("moves back to the call a later result answers, so no result reaches the model without its call", () => {
    const events = [say("user", "old"), call("critic", "c1"), say("user", "approved"), result("user", "c1")];
    expect(currentTurn(events, "critic", {})).toEqual(events.slice(1));
  });

  it("does not start the turn at an event of a branch the agent cannot see (buildContents leaves it out)", () => {
    const hidden = createEvent({ invocationId: "i", author: "other", branch: "root.b", content: { role: "model", parts: [{ text: "elsewhere" }] } });
    const events = [say("user", "ask"), hidden];
    expect(currentTurn(events, "critic", { branch: "root.a" })[0]).toBe(events[0]);
  });

  it("is empty when nothing but the agent's own events exists", () => {
    expect(currentTurn([say("critic", "alone")], "critic", {})).toEqual([]);
  });
});

describe("state written while the request is prepared", () => {
  it("is stored with the model call's event, never dropped, and a later processLlmRequest reads it", async () => {
    const { Runner } = await import("../../src/runner/runner.js");
    const { collect, textResponse, userMessage } = await import("../../src/testing/index.js");
    const seen: unknown[] = [];
    const counter = requestChanger("counter", ({ toolContext }) => {
      toolContext.state.set("prepared_requests", (toolContext.state.get<number>("prepared_requests") ?? 0) + 1);
    });
    const reader = requestChanger("reader", ({ toolContext }) => void seen.push(toolContext.state.get("prepared_requests")));
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "helper", model: new ScriptedModel([textResponse("one"), textResponse("two")]), tools: [counter, reader] }) });
    const created = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const first = await collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: userMessage("hi") }));
    await collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: userMessage("again") }));
    expect(first.at(-1)!.actions.stateDelta).toEqual({ prepared_requests: 1 });
    expect(seen).toEqual([1, 2]);
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: created.id });
    expect(stored!.state.prepared_requests).toBe(2);
  });
});
