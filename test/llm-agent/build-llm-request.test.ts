/** buildLlmRequest on its own: what one model call is sent, and the runnable tools behind its declarations. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ReadonlyContext } from "../../src/agents/readonly-context.js";
import { SequentialAgent } from "../../src/agents/sequential-agent.js";
import { buildLlmRequest } from "../../src/llm-agent/build-llm-request.js";
import { LlmAgent } from "../../src/llm-agent/llm-agent.js";
import { TRANSFER_TOOL_NAME } from "../../src/llm-agent/transfer-to-agent-tool.js";
import type { LlmRequest } from "../../src/models/llm-request.js";
import { FunctionTool } from "../../src/tools/function-tool.js";
import type { Tool, Toolset } from "../../src/tools/tool.js";
import type { ToolContext } from "../../src/tools/tool-context.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { invocationFor, say, tool } from "./fixtures.js";

const model = new ScriptedModel([], { name: "model-x" });

describe("buildLlmRequest", () => {
  it("sends the history, the model's name, a copy of the agent's config, and the instruction with state filled in", async () => {
    const agent = new LlmAgent({
      name: "helper",
      model,
      instruction: "Help {user_name}. Plan: {plan}. Tone: {tone?}. Leave {not a key} and {{literal}} alone.",
      generateContentConfig: { temperature: 0.2, maxOutputTokens: 100 },
    });
    const context = await invocationFor(agent, { events: [say("user", "hi"), say("helper", "hello")], state: { user_name: "Ada", plan: { steps: 2 } } });
    const { request } = await buildLlmRequest(agent, context, model);
    expect(request.model).toBe("model-x");
    expect(request.contents).toEqual([
      { role: "user", parts: [{ text: "hi" }] },
      { role: "model", parts: [{ text: "hello" }] },
    ]);
    expect(request.systemInstruction).toBe('Help Ada. Plan: {"steps":2}. Tone: . Leave {not a key} and {{literal}} alone.');
    expect(request.config).toEqual({ temperature: 0.2, maxOutputTokens: 100 });
    request.config.temperature = 1;
    expect(agent.generateContentConfig.temperature).toBe(0.2);
  });

  it("refuses an instruction whose required {key} is not in state, naming the key and the optional form", async () => {
    const agent = new LlmAgent({ name: "helper", model, instruction: "Help {user_name}." });
    const context = await invocationFor(agent);
    await expect(buildLlmRequest(agent, context, model)).rejects.toMatchObject({
      code: "MISSING_STATE_KEY",
      message: expect.stringContaining("{user_name?}"),
    });
  });

  it("reads app:, user: and temp: keys for the instruction as the state holds them", async () => {
    const agent = new LlmAgent({ name: "helper", model, instruction: "{app:brand} for {user:tier}, step {temp:step}" });
    const context = await invocationFor(agent, { state: { "app:brand": "Acme", "user:tier": "gold" } });
    context.session.state["temp:step"] = 3;
    const { request } = await buildLlmRequest(agent, context, model);
    expect(request.systemInstruction).toBe("Acme for gold, step 3");
  });

  it("uses an instruction provider's text as it is, without filling braces, and gives it a read-only view of the invocation", async () => {
    const seen: unknown[] = [];
    const agent = new LlmAgent({
      name: "helper",
      model,
      instruction: async (context) => {
        seen.push(context instanceof ReadonlyContext, context.agentName, context.state.get("city"));
        return "Answer for {city} as JSON like {\"temp\": 1}.";
      },
    });
    const context = await invocationFor(agent, { state: { city: "Paris" } });
    const { request } = await buildLlmRequest(agent, context, model);
    expect(request.systemInstruction).toBe('Answer for {city} as JSON like {"temp": 1}.');
    expect(seen).toEqual([true, "helper", "Paris"]);
  });

  it("declares the tools in the order given and maps each name to the runnable tool behind it", async () => {
    const lookup = new FunctionTool({ name: "lookup", description: "Looks up.", parameters: z.object({ q: z.string() }), execute: () => ({}) });
    const save = tool("save", () => ({}));
    const agent = new LlmAgent({ name: "helper", model, tools: [lookup, save] });
    const { request, toolsByName } = await buildLlmRequest(agent, await invocationFor(agent), model);
    expect(request.functionDeclarations.map((declaration) => declaration.name)).toEqual(["lookup", "save"]);
    expect(request.functionDeclarations[0]).toMatchObject({ description: "Looks up.", parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } });
    expect([...toolsByName.keys()]).toEqual(["lookup", "save"]);
    expect(toolsByName.get("lookup")).toBe(lookup);
    expect(toolsByName.get("save")).toBe(save);
  });

  it("keeps a tool without a declaration runnable but hidden from the model, and lets every tool change the request last", async () => {
    const contexts: ToolContext[] = [];
    const hidden: Tool = {
      name: "policy",
      description: "Adds the house rules.",
      declaration: () => undefined,
      run: async () => ({}),
      processLlmRequest: (request, context) => {
        contexts.push(context);
        request.systemInstruction += "\n\nNever promise refunds.";
        request.config.temperature = 0;
      },
    };
    const agent = new LlmAgent({ name: "helper", model, instruction: "Be kind.", tools: [hidden, tool("visible", () => ({}))] });
    const context = await invocationFor(agent);
    const { request, toolsByName } = await buildLlmRequest(agent, context, model);
    expect(request.functionDeclarations.map((declaration) => declaration.name)).toEqual(["visible"]);
    expect(toolsByName.has("policy")).toBe(true);
    expect(request.systemInstruction).toBe("Be kind.\n\nNever promise refunds.");
    expect(request.config.temperature).toBe(0);
    expect(contexts[0]!.invocationId).toBe(context.invocationId);
  });

  it("asks toolsets for their tools again on every request, from the state as it is then", async () => {
    const asked: unknown[] = [];
    const toolset: Toolset = {
      getTools: async (context) => {
        asked.push(context.state.get("mode"));
        return context.state.get("mode") === "admin" ? [tool("delete_all", () => ({})), tool("read", () => ({}))] : [tool("read", () => ({}))];
      },
      close: async () => {},
    };
    const agent = new LlmAgent({ name: "helper", model, tools: [toolset] });
    const context = await invocationFor(agent, { state: { mode: "guest" } });
    const first = await buildLlmRequest(agent, context, model);
    context.session.state.mode = "admin";
    const second = await buildLlmRequest(agent, context, model);
    expect(asked).toEqual(["guest", "admin"]);
    expect([...first.toolsByName.keys()]).toEqual(["read"]);
    expect([...second.toolsByName.keys()]).toEqual(["delete_all", "read"]);
  });

  it("refuses two tools of one name that toolsets bring together", async () => {
    const toolset: Toolset = { getTools: async () => [tool("read", () => ({}))], close: async () => {} };
    const agent = new LlmAgent({ name: "helper", model, tools: [tool("read", () => ({})), toolset] });
    await expect(buildLlmRequest(agent, await invocationFor(agent), model)).rejects.toMatchObject({ code: "DUPLICATE_TOOL_NAME" });
  });

  it("adds transfer_to_agent with its targets as an enum, and the instruction listing them, after the agent's own", async () => {
    const billing = new LlmAgent({ name: "billing", description: "Handles invoices.", model });
    const support = new LlmAgent({ name: "support", model });
    const root = new LlmAgent({ name: "root", model, instruction: "Route requests.", tools: [tool("faq", () => ({}))], subAgents: [billing, support] });
    const { request, toolsByName } = await buildLlmRequest(root, await invocationFor(root), model);
    expect(request.functionDeclarations.map((declaration) => declaration.name)).toEqual(["faq", TRANSFER_TOOL_NAME]);
    expect(request.functionDeclarations[1]!.parameters).toMatchObject({ properties: { agent_name: { enum: ["billing", "support"] } }, required: ["agent_name"] });
    expect(toolsByName.has(TRANSFER_TOOL_NAME)).toBe(true);
    const [own, transfer] = request.systemInstruction.split("\n\n");
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
    expect(request.systemInstruction).toBe("");
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
    expect(second.systemInstruction).toBe("Base.");
    expect(second.functionDeclarations).toHaveLength(1);
  });
});
