/**
 * `isFinalResponse` against @google/adk 2.0's, run on the same events: every shape of event a run or a program
 * makes (text, calls, responses, partial text, a pause for a person or a credential, skipped summaries, code
 * Gemini ran). toolsmith's two additions (an error event ends the turn; a compaction record is not an answer) are
 * in docs/adk-compat.md and checked last.
 */
import { createEvent as adkCreateEvent, isFinalResponse as adkIsFinalResponse } from "@google/adk";
import { describe, expect, it } from "vitest";
import { createEvent, isFinalResponse, LlmAgent, Runner, type Content, type EventActions } from "../../src/index.js";
import { collect, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

const model = (...parts: Content["parts"] & object): Content => ({ role: "model", parts });
const call = { functionCall: { id: "c1", name: "lookup", args: {} } };
const response = { functionResponse: { id: "c1", name: "lookup", response: { ok: true } } };

const shapes: { name: string; content?: Content; partial?: boolean; longRunningToolIds?: string[]; actions?: Partial<EventActions> }[] = [
  { name: "text", content: model({ text: "Done." }) },
  { name: "no content" },
  { name: "a call", content: model({ text: "Let me look." }, call) },
  { name: "a response", content: { role: "user", parts: [response] } },
  { name: "partial text", content: model({ text: "Do" }), partial: true },
  { name: "a long-running call", content: model(call), longRunningToolIds: ["c1"] },
  { name: "a response asking for a credential", content: { role: "user", parts: [response] }, actions: { requestedAuthConfigs: { c1: { authScheme: { type: "apiKey" } } as never } } },
  { name: "a response whose summary is skipped", content: { role: "user", parts: [response] }, actions: { skipSummarization: true } },
  { name: "code run, its result last", content: model({ executableCode: { code: "print(1)", language: "PYTHON" } as never }, { codeExecutionResult: { outcome: "OUTCOME_OK", output: "1" } as never }) },
  { name: "code run, then the answer", content: model({ codeExecutionResult: { outcome: "OUTCOME_OK", output: "1" } as never }, { text: "It printed 1." }) },
];

describe("isFinalResponse side by side with ADK's", () => {
  it("answers as ADK's does for every shape of event", () => {
    const answers = shapes.map((shape) => {
      const init = { invocationId: "inv", author: "agent", content: shape.content, partial: shape.partial, longRunningToolIds: shape.longRunningToolIds, actions: shape.actions };
      return { name: shape.name, adk: adkIsFinalResponse(adkCreateEvent({ ...init, actions: { ...adkCreateEvent().actions, ...shape.actions } } as never)), toolsmith: isFinalResponse(createEvent(init)) };
    });
    console.log(`isFinalResponse: ${answers.length} shapes, ${answers.filter((answer) => answer.adk).length} final on ADK`);
    expect(answers.map(({ name, toolsmith }) => ({ name, final: toolsmith }))).toEqual(answers.map(({ name, adk }) => ({ name, final: adk })));
  });

  it("also ends the turn at an error event, and never at a compaction record (toolsmith's additions)", () => {
    expect(isFinalResponse(createEvent({ invocationId: "inv", author: "agent", errorCode: "MODEL_UNAVAILABLE", errorMessage: "down" }))).toBe(true);
    expect(isFinalResponse({ ...createEvent({ invocationId: "inv", author: "agent", content: model({ text: "summary" }) }), isCompacted: true } as never)).toBe(false);
  });
});

describe("a model answer that ends with the result of code Gemini ran", () => {
  it("is followed by another model call for the answer, as ADK's loop does", async () => {
    const scripted = new ScriptedModel([
      { content: model({ executableCode: { code: "print(6 * 7)", language: "PYTHON" } as never }, { codeExecutionResult: { outcome: "OUTCOME_OK", output: "42" } as never }) },
      textResponse("The answer is 42."),
    ]);
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "calc", model: scripted }) });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("6 * 7?") }));
    expect(scripted.requests).toHaveLength(2);
    expect(events.map((event) => isFinalResponse(event))).toEqual([false, true]);
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("The answer is 42.");
  });
});
