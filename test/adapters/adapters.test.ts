import { DynamicStructuredTool, tool as langChainTool } from "@langchain/core/tools";
import { jsonSchema, tool as aiTool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getFunctionResponses, isToolsmithError, LlmAgent, Runner, type ToolUnion } from "../../src/index.js";
import { aiSdkToolset, fromAiSdkTool, fromAiSdkTools, fromLangChainTools } from "../../src/adapters/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { createToolContext } from "../support/tool-context.js";

async function runAgent(tools: ToolUnion[], calls: Parameters<typeof functionCallsResponse>) {
  const model = new ScriptedModel([functionCallsResponse(...calls), textResponse("done")]);
  const runner = new Runner({ appName: "adapters", agent: new LlmAgent({ name: "assistant", model, tools }) });
  const session = await runner.sessionService.createSession({ appName: "adapters", userId: "u1" });
  const events = await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage("go") }));
  return { model, responses: getFunctionResponses(events[1]!.content).map((response) => response.response) };
}

describe("Vercel AI SDK tools", () => {
  const weather = aiTool({
    description: "Weather in a city.",
    inputSchema: z.object({ city: z.string().describe("The city"), unit: z.enum(["C", "F"]).default("C") }),
    execute: async ({ city, unit }, options) => ({ city, unit, sky: "clear", callId: options.toolCallId, hasSignal: options.abortSignal instanceof AbortSignal }),
  });

  it("declares the zod input schema as JSON Schema and runs execute with the call id and abort signal", async () => {
    const { model, responses } = await runAgent(await fromAiSdkTools({ weather }), [{ id: "call-7", name: "weather", args: { city: "Oslo" } }]);
    expect(model.requests[0]!.functionDeclarations[0]).toMatchObject({
      name: "weather",
      description: "Weather in a city.",
      parameters: { type: "object", properties: { city: { type: "string", description: "The city" }, unit: { enum: ["C", "F"] } }, required: ["city"] },
    });
    expect(responses[0]).toEqual({ city: "Oslo", unit: "C", sky: "clear", callId: "call-7", hasSignal: true });
  });

  it("rejects arguments that break the schema before execute runs", async () => {
    let ran = false;
    const strict = aiTool({ description: "Adds.", inputSchema: jsonSchema<{ a: number }>({ type: "object", properties: { a: { type: "number" } }, required: ["a"] }), execute: async ({ a }) => ((ran = true), a) });
    const { responses } = await runAgent([aiSdkToolset({ strict })], [{ name: "strict", args: { a: "x" } }]);
    expect(responses[0]).toMatchObject({ status: "error", error: expect.stringContaining('Invalid arguments for tool "strict"') });
    expect(ran).toBe(false);
  });

  it("answers with the last value of a streaming execute", async () => {
    const counter = aiTool({
      description: "Counts to three.",
      inputSchema: z.object({}),
      async *execute() {
        yield { step: 1 };
        yield { step: 2 };
        yield { step: 3, done: true };
      },
    });
    const adapted = await fromAiSdkTool("counter", counter);
    expect(await adapted.run({}, await createToolContext())).toEqual({ step: 3, done: true });
  });

  it("maps needsApproval to the confirmation rule", async () => {
    const transfer = aiTool({ description: "Moves money.", inputSchema: z.object({ amount: z.number() }), needsApproval: async ({ amount }) => amount > 100, execute: async () => "ok" });
    const adapted = await fromAiSdkTool("transfer", transfer);
    const context = await createToolContext();
    expect(await adapted.requiresConfirmation!({ amount: 500 }, context)).toBe(true);
    expect(await adapted.requiresConfirmation!({ amount: 5 }, context)).toBe(false);
  });

  it("refuses a tool without execute, saying what to do", async () => {
    const clientSide = aiTool({ description: "Runs in the browser.", inputSchema: z.object({}) });
    await expect(fromAiSdkTool("client_side", clientSide)).rejects.toSatisfy(
      (error: Error) => isToolsmithError(error) && error.code === "AI_SDK_TOOL_WITHOUT_EXECUTE" && error.message.includes("client_side"),
    );
  });
});

describe("LangChain.js tools", () => {
  it("declares the schema of tool() and DynamicStructuredTool and runs them through an agent", async () => {
    const add = langChainTool(({ a, b }: { a: number; b: number }) => String(a + b), {
      name: "add",
      description: "Adds two numbers.",
      schema: z.object({ a: z.number(), b: z.number() }),
    });
    let seenSignal: AbortSignal | undefined;
    const lookup = new DynamicStructuredTool({
      name: "lookup",
      description: "Looks a word up.",
      schema: { type: "object" as const, properties: { word: { type: "string" as const } }, required: ["word"] },
      func: async (input: { word: string }, _runManager, config) => {
        seenSignal = config?.signal;
        return JSON.stringify({ word: input.word, meaning: "a test" });
      },
    });
    const tools = await fromLangChainTools([add, lookup]);
    const { model, responses } = await runAgent(tools, [
      { name: "add", args: { a: 2, b: 40 } },
      { name: "lookup", args: { word: "tool" } },
    ]);
    expect(model.requests[0]!.functionDeclarations).toEqual([
      expect.objectContaining({ name: "add", parameters: expect.objectContaining({ type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] }) }),
      expect.objectContaining({ name: "lookup", parameters: { type: "object", properties: { word: { type: "string" } }, required: ["word"] } }),
    ]);
    expect(responses).toEqual([{ result: "42" }, { result: JSON.stringify({ word: "tool", meaning: "a test" }) }]);
    expect(seenSignal).toBeInstanceOf(AbortSignal);
  });

  it("ends the turn with the result of a returnDirect tool", async () => {
    const lookup = new DynamicStructuredTool({
      name: "final_answer",
      description: "Answers the user directly.",
      schema: z.object({ answer: z.string() }),
      returnDirect: true,
      func: async ({ answer }) => answer,
    });
    const model = new ScriptedModel([functionCallsResponse({ name: "final_answer", args: { answer: "42" } })]);
    const runner = new Runner({ appName: "adapters", agent: new LlmAgent({ name: "assistant", model, tools: await fromLangChainTools([lookup]) }) });
    const session = await runner.sessionService.createSession({ appName: "adapters", userId: "u1" });
    const events = await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage("go") }));
    expect(events).toHaveLength(2);
    expect(events[1]!.actions.skipSummarization).toBe(true);
    expect(getFunctionResponses(events[1]!.content)[0]!.response).toEqual({ result: "42" });
    model.assertComplete();
  });

  it("turns a LangChain tool error into an error result the model reads", async () => {
    const failing = langChainTool(() => { throw new Error("the index is offline"); }, { name: "search", description: "Searches.", schema: z.object({ query: z.string() }) });
    const { responses } = await runAgent(await fromLangChainTools([failing]), [{ name: "search", args: { query: "x" } }]);
    expect(responses[0]).toEqual({ status: "error", error: expect.stringContaining("the index is offline") });
  });
});
