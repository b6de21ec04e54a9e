import {
  createModelContent,
  createPartFromFunctionCall,
  createPartFromText,
  createUserContent,
  Language as GenaiLanguage,
  Outcome as GenaiOutcome,
  type Blob as GenaiBlob,
  type CodeExecutionResult as GenaiCodeExecutionResult,
  type Content as GenaiContent,
  type ExecutableCode as GenaiExecutableCode,
  type FileData as GenaiFileData,
  type FunctionCall as GenaiFunctionCall,
  type FunctionResponse as GenaiFunctionResponse,
  type GroundingMetadata as GenaiGroundingMetadata,
  type Part as GenaiPart,
} from "@google/genai";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  FunctionTool,
  InMemoryRunner,
  Language,
  LlmAgent,
  Outcome,
  getText,
  type Blob,
  type GenaiCodeExecutionResult as CodeExecutionResult,
  type Content,
  type Event,
  type ExecutableCode,
  type FileData,
  type FunctionCall,
  type FunctionResponse,
  type GroundingMetadata,
  type LlmResponse,
  type Part,
  type RunAsyncRequest,
  type BeforeModelCallback,
  type AfterModelCallback,
} from "../../src/index.js";
import { collect, ScriptedModel, textResponse } from "../../src/testing/index.js";
import { z } from "zod";

async function runOnce(agent: LlmAgent, newMessage: Content | GenaiContent) {
  const runner = new InMemoryRunner({ appName: "genai", agent });
  const session = await runner.sessionService.createSession({ appName: "genai", userId: "u1" });
  const events = await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage }));
  const stored = (await runner.sessionService.getSession({ appName: "genai", userId: "u1", sessionId: session.id }))!;
  return { events, stored, runner, session };
}

describe("toolsmith's content types and @google/genai's", () => {
  it("accept genai's values wherever toolsmith takes content", () => {
    expectTypeOf<GenaiContent>().toExtend<Content>();
    expectTypeOf<GenaiPart>().toExtend<Part>();
    expectTypeOf<GenaiFunctionCall>().toExtend<FunctionCall>();
    expectTypeOf<GenaiFunctionResponse>().toExtend<FunctionResponse>();
    expectTypeOf<GenaiBlob>().toExtend<Blob>();
    expectTypeOf<GenaiFileData>().toExtend<FileData>();
    expectTypeOf<GenaiExecutableCode>().toExtend<ExecutableCode>();
    expectTypeOf<GenaiCodeExecutionResult>().toExtend<CodeExecutionResult>();
    expectTypeOf<GenaiGroundingMetadata>().toExtend<GroundingMetadata>();
    expectTypeOf<{ content: GenaiContent; groundingMetadata: GenaiGroundingMetadata }>().toExtend<LlmResponse>();
    expectTypeOf<GenaiContent>().toExtend<NonNullable<RunAsyncRequest["newMessage"]>>();
    expectTypeOf<() => { content: GenaiContent }>().toExtend<BeforeModelCallback>();
    expectTypeOf<() => { content: GenaiContent }>().toExtend<AfterModelCallback>();
  });

  it("give events whose contents genai's functions accept", () => {
    expectTypeOf<Content>().toExtend<GenaiContent>();
    expectTypeOf<Part>().toExtend<GenaiPart>();
    expectTypeOf<FunctionCall>().toExtend<GenaiFunctionCall>();
    expectTypeOf<FunctionResponse>().toExtend<GenaiFunctionResponse>();
    expectTypeOf<ExecutableCode>().toExtend<GenaiExecutableCode>();
    expectTypeOf<CodeExecutionResult>().toExtend<GenaiCodeExecutionResult>();
    expectTypeOf<GroundingMetadata>().toExtend<GenaiGroundingMetadata>();
    expectTypeOf<NonNullable<Event["content"]>>().toExtend<GenaiContent>();
  });

  it("has the enums of code execution with genai's members and values", () => {
    expect(Object.entries(Language)).toEqual(Object.entries(GenaiLanguage));
    expect(Object.entries(Outcome)).toEqual(Object.entries(GenaiOutcome));
    const fromGenai: Language = GenaiLanguage.PYTHON;
    const toGenai: GenaiOutcome = Outcome.OUTCOME_OK;
    expect([fromGenai, toGenai]).toEqual(["PYTHON", "OUTCOME_OK"]);
  });
});

describe("genai messages through a Runner", () => {
  it("runs a createUserContent message and sends it to the model as the user's", async () => {
    const model = new ScriptedModel([textResponse("Bonjour.")]);
    const { events, stored } = await runOnce(new LlmAgent({ name: "greeter", model }), createUserContent(["Say hello", createPartFromText("in French.")]));

    expect(getText(events.at(-1)!.content)).toBe("Bonjour.");
    expect(model.requests[0]!.contents).toEqual([{ role: "user", parts: [{ text: "Say hello" }, { text: "in French." }] }]);
    expect(stored.events[0]!.content).toEqual(createUserContent(["Say hello", createPartFromText("in French.")]));
  });

  it("sends a new message without a role as the user's, as ADK's runner does", async () => {
    const model = new ScriptedModel([textResponse("ok"), textResponse("ok again")]);
    const agent = new LlmAgent({ name: "plain", model });
    const runner = new InMemoryRunner({ appName: "genai", agent });
    const session = await runner.sessionService.createSession({ appName: "genai", userId: "u1" });
    await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: { parts: [{ text: "no role" }] } }));
    await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: { parts: [{ text: "still none" }] } }));

    expect(model.requests[1]!.contents.map((content) => [content.role, getText(content)])).toEqual([
      ["user", "no role"],
      ["model", "ok"],
      ["user", "still none"],
    ]);
  });

  it("keeps an agent's role-less content in the history as the model's turn", async () => {
    const model = new ScriptedModel([{ content: { parts: [{ text: "said without a role" }] } }, textResponse("second")]);
    const agent = new LlmAgent({ name: "plain", model });
    const runner = new InMemoryRunner({ appName: "genai", agent });
    const session = await runner.sessionService.createSession({ appName: "genai", userId: "u1" });
    await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: createUserContent("one") }));
    await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: createUserContent("two") }));

    expect(model.requests[1]!.contents[1]).toEqual({ role: "model", parts: [{ text: "said without a role" }] });
  });

  it("accepts genai content from a model callback and runs genai-built function calls", async () => {
    const lookups: string[] = [];
    const lookup = new FunctionTool({
      name: "lookup",
      description: "Looks a word up.",
      parameters: z.object({ word: z.string() }),
      execute: async ({ word }) => {
        lookups.push(word);
        return { meaning: `${word} means hello` };
      },
    });
    const model = new ScriptedModel([textResponse("The word means hello.")]);
    let calls = 0;
    const agent = new LlmAgent({
      name: "dictionary",
      model,
      tools: [lookup],
      beforeModelCallback: () => (calls++ === 0 ? { content: createModelContent([createPartFromFunctionCall("lookup", { word: "bonjour" })]) } : undefined),
    });
    const { events } = await runOnce(agent, createUserContent("What does bonjour mean?"));

    expect(lookups).toEqual(["bonjour"]);
    expect(events[1]!.content!.parts![0]!.functionResponse).toMatchObject({ name: "lookup", response: { meaning: "bonjour means hello" } });
    expect(getText(events.at(-1)!.content)).toBe("The word means hello.");
  });

  it("answers a function call without a name with an error result naming the tools", async () => {
    const tool = new FunctionTool({ name: "ping", description: "Answers pong.", parameters: z.object({}), execute: async () => ({ answer: "pong" }) });
    const model = new ScriptedModel([{ content: { role: "model", parts: [{ functionCall: { args: {} } }] } }, textResponse("Sorry.")]);
    const { events } = await runOnce(new LlmAgent({ name: "pinger", model, tools: [tool] }), createUserContent("ping"));

    const response = events[1]!.content!.parts![0]!.functionResponse!;
    expect(response.response).toEqual({ status: "error", error: expect.stringContaining("The function call names no tool. Available tools: ping.") });
    expect(model.requests[1]!.contents.at(-1)!.parts![0]!.functionResponse!.response).toEqual(response.response);
  });
});
