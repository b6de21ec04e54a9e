import { createPartFromFunctionResponse, createUserContent, type Content as GenaiContent, type FunctionCall as GenaiFunctionCall, type FunctionResponse as GenaiFunctionResponse, type Part as GenaiPart } from "@google/genai";
import { describe, expect, expectTypeOf, it } from "vitest";
import { getText, InMemoryRunner, LlmAgent, type Content, type Event, type FunctionCall, type FunctionResponse, type Part } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse } from "../../src/testing/index.js";

describe("toolsmith's content types and @google/genai's", () => {
  it("accept genai's values where toolsmith takes content, and give values genai's types accept", () => {
    // Both directions, checked by the compiler (npm run typecheck covers the tests): genai's values go where
    // toolsmith takes content, and toolsmith's go where genai's types are expected.
    const toToolsmith = (content: GenaiContent, part: GenaiPart, call: GenaiFunctionCall, response: GenaiFunctionResponse): [Content, Part, FunctionCall, FunctionResponse] => [content, part, call, response];
    const toGenai = (content: Content, part: Part, call: FunctionCall, response: FunctionResponse): [GenaiContent, GenaiPart, GenaiFunctionCall, GenaiFunctionResponse] => [content, part, call, response];
    expectTypeOf(toToolsmith).returns.toEqualTypeOf<[Content, Part, FunctionCall, FunctionResponse]>();
    expectTypeOf(toGenai).returns.toEqualTypeOf<[GenaiContent, GenaiPart, GenaiFunctionCall, GenaiFunctionResponse]>();
    const fromEvent = (event: Event): GenaiContent | undefined => event.content;
    expect(fromEvent({ content: { role: "model", parts: [{ text: "x" }] } } as Event)).toEqual({ role: "model", parts: [{ text: "x" }] });
  });

  it("runs a message made with createUserContent, and a genai function response built by genai's helper", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "lookup", args: {} }), textResponse("Found it.")]);
    const agent = new LlmAgent({ name: "helper", model, tools: [{ name: "lookup", description: "Looks up.", declaration: () => ({ name: "lookup", description: "Looks up.", parameters: { type: "object", properties: {} } }), run: async () => ({ found: true }) }] });
    const runner = new InMemoryRunner({ agent, appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: createUserContent("Find the thing.") }));
    expect(getText(events.at(-1)!.content)).toBe("Found it.");
    expect(model.requests[0]!.contents[0]).toEqual({ role: "user", parts: [{ text: "Find the thing." }] });
    const part: Part = createPartFromFunctionResponse("id-1", "lookup", { found: true });
    expect(part.functionResponse).toEqual({ id: "id-1", name: "lookup", response: { found: true } });
  });

  it("answers a model's function call that names no tool with an error the model can fix", async () => {
    const model = new ScriptedModel([{ content: { role: "model", parts: [{ functionCall: { args: {} } }] } }, textResponse("Sorry.")]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "helper", model }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: createUserContent("Go.") }));
    expect(events[1]!.content!.parts![0]!.functionResponse!.response!.error).toBe("The function call names no tool. This agent has no tools; answer without calling one.");
    expect(getText(events.at(-1)!.content)).toBe("Sorry.");
  });
});
