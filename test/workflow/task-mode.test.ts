import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FinishTaskTool, InMemoryRunner, LlmAgent, node, requestInputTool, Runner, Workflow, type Content, type Event, type LlmRequest } from "toolsmith";
import { SqliteSessionService } from "toolsmith/sqlite";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "toolsmith/testing";
import { tempDir } from "../support/temp-dir.js";

/**
 * Task mode beyond what ADK shows side by side (task-mode-side-by-side.test.ts): a task agent that stops to ask the
 * person and is resumed, the schema's defaults in its output, `outputKey` with `outputSchema`, what its requests
 * leave out, and a task over two processes sharing one SQLite file, its isolation scope kept.
 */

const said = (event: Event) => (event.content?.parts ?? []).map((part) => part.text ?? (part.functionCall ? `call ${part.functionCall.name}` : part.functionResponse ? `response ${part.functionResponse.name}` : "?")).join(" ");

async function turn(runner: Runner, sessionId: string, message: Content): Promise<Event[]> {
  return collect(runner.runAsync({ userId: "u", sessionId, newMessage: message }));
}

describe("an LLM agent in task mode, as a workflow node", () => {
  it("stops to ask the person (adk_request_input), is run again on the answer, and finishes with finish_task", async () => {
    const model = new ScriptedModel([
      functionCallsResponse({ name: "adk_request_input", args: { message: "Which city?" } }),
      (request: LlmRequest) => functionCallsResponse({ name: "finish_task", args: { result: `trip to ${JSON.stringify(request.contents.at(-1)!.parts![0]!.functionResponse!.response)}` } }),
    ]);
    const planner = new LlmAgent({ name: "planner", model, mode: "task", tools: [requestInputTool] });
    const runner = new InMemoryRunner({ agent: new Workflow({ name: "wf", edges: [["START", planner, node((_ctx, input: { result: string }) => `booked ${input.result}`, { name: "book" })]] }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const first = await turn(runner, session.id, userMessage("Book a trip"));
    const callId = first.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === "adk_request_input")!.functionCall!.id!;
    const second = await turn(runner, session.id, { role: "user", parts: [{ functionResponse: { id: callId, name: "adk_request_input", response: { result: "Paris" } } }] });
    expect(second.map((event) => [event.author, said(event), event.output])).toEqual([
      ["planner", "call finish_task", undefined],
      ["planner", "response finish_task", { result: 'trip to {"result":"Paris"}' }],
      ["book", 'booked trip to {"result":"Paris"}', 'booked trip to {"result":"Paris"}'],
    ]);
    expect(model.remainingSteps).toBe(0);
  });

  it("gives the output with the schema's defaults filled in, and stores it under outputKey", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "finish_task", args: { city: "Paris" } })]);
    const planner = new LlmAgent({ name: "planner", model, mode: "task", outputKey: "plan", outputSchema: z.object({ city: z.string(), days: z.number().default(2) }) });
    const runner = new InMemoryRunner({ agent: new Workflow({ name: "wf", edges: [["START", planner]] }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await turn(runner, session.id, userMessage("Plan"));
    expect(events.filter((event) => event.output !== undefined).map((event) => [event.author, event.output])).toEqual([["planner", { city: "Paris", days: 2 }]]);
    expect((await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!.state).toEqual({ plan: { city: "Paris", days: 2 } });
  });

  it("does not ask the model for JSON: a question to the user is no schema mismatch, and outputKey keeps its text (JSON parsed), as ADK", async () => {
    const model = new ScriptedModel([textResponse("Which city?"), textResponse('{"city":"Rome"}'), textResponse('{"town":"Rome"}')]);
    const planner = new LlmAgent({ name: "planner", model, mode: "task", outputKey: "plan", outputSchema: z.object({ city: z.string(), days: z.number().default(1) }) });
    const runner = new InMemoryRunner({ agent: new Workflow({ name: "wf", edges: [["START", planner]] }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const asked = await turn(runner, session.id, userMessage("Plan"));
    expect(asked.map((event) => [said(event), event.errorCode, event.actions.stateDelta])).toEqual([["Which city?", undefined, { plan: "Which city?" }]]);
    const answered = await turn(runner, session.id, userMessage("Rome"));
    // An answer that is JSON is stored parsed (and checked): still no output, since only finish_task gives one.
    expect(answered.map((event) => [event.output, event.actions.stateDelta])).toEqual([[undefined, { plan: { city: "Rome", days: 1 } }]]);
    // JSON that misses the schema is stored as parsed (ADK's reading), still with no error: the agent may be asking.
    const missing = await turn(runner, session.id, userMessage("Again"));
    expect(missing.map((event) => [event.errorCode, event.actions.stateDelta])).toEqual([[undefined, { plan: { town: "Rome" } }]]);
    expect(model.requests.map((request) => [request.config.responseMimeType, request.config.responseJsonSchema])).toEqual([[undefined, undefined], [undefined, undefined], [undefined, undefined]]);
    expect(model.requests[0]!.functionDeclarations.map((declaration) => declaration.name)).toEqual(["finish_task"]);
  });

  it("waits only by default: with waitForOutput false the next node runs with no input", async () => {
    const model = new ScriptedModel([textResponse("Which city?")]);
    const planner = new LlmAgent({ name: "planner", model, mode: "task", waitForOutput: false });
    let ran: unknown = "not run";
    const runner = new InMemoryRunner({ agent: new Workflow({ name: "wf", edges: [["START", planner, node((_ctx, input) => ((ran = input), "after"), { name: "after" })]] }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    await turn(runner, session.id, userMessage("Plan"));
    expect(ran).toBeUndefined();
    // node() may say otherwise for the node it makes.
    expect(node(planner, { waitForOutput: true }).waitForOutput).toBe(true);
    expect(node(new LlmAgent({ name: "p", model, mode: "task" })).waitForOutput).toBe(true);
  });

  it("takes up a task over two processes sharing a SQLite file, its isolation scope stored with each event", async () => {
    const file = join(tempDir("toolsmith-task-mode-"), "sessions.db");
    const build = (model: ScriptedModel) => {
      const planner = new LlmAgent({ name: "planner", model, mode: "task", isolationScope: true });
      const other = new LlmAgent({ name: "other", model, includeContents: "default" });
      return new Workflow({ name: "wf", edges: [["START", planner, other]] });
    };
    const firstModel = new ScriptedModel([textResponse("Which city?")]);
    const firstStore = new SqliteSessionService({ path: file });
    const session = await firstStore.createSession({ appName: "app", userId: "u" });
    await turn(new Runner({ appName: "app", agent: build(firstModel), sessionService: firstStore }), session.id, userMessage("Book a trip"));
    await firstStore.close?.();
    // Another process: a new store on the same file, a new agent tree.
    const secondModel = new ScriptedModel([functionCallsResponse({ name: "finish_task", args: { result: "Lisbon" } }), textResponse("Enjoy Lisbon.")]);
    const secondStore = new SqliteSessionService({ path: file });
    const events = await turn(new Runner({ appName: "app", agent: build(secondModel), sessionService: secondStore }), session.id, userMessage("Lisbon"));
    expect(events.map((event) => [event.author, said(event), event.isolationScope])).toEqual([
      ["planner", "call finish_task", "wf.planner@1"],
      ["planner", "response finish_task", "wf.planner@1"],
      ["user", '{"result":"Lisbon"}', undefined],
      ["other", "Enjoy Lisbon.", undefined],
    ].filter(([author]) => author !== "user"));
    // The planner's run has the same scope in every invocation: it sees the question it asked before.
    expect(secondModel.requests[0]!.contents.map((content) => content.parts![0]!.text)).toEqual(["Book a trip", "Which city?", "Lisbon"]);
    // The agent outside the scope sees the user's messages and its input, not the planner's turns.
    expect(secondModel.requests[1]!.contents.map((content) => content.parts![0]!.text)).toEqual(["Book a trip", "Lisbon", '{"result":"Lisbon"}']);
    const stored = (await secondStore.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
    expect(stored.events.map((event) => [event.author, event.isolationScope])).toEqual([
      ["user", undefined],
      ["planner", "wf.planner@1"],
      ["user", undefined],
      ["planner", "wf.planner@1"],
      ["planner", "wf.planner@1"],
      ["user", undefined],
      ["other", undefined],
    ]);
  });
});

describe("FinishTaskTool", () => {
  it("answers Task completed. for arguments that match, and an error naming each problem otherwise, without throwing", async () => {
    const tool = new FinishTaskTool(z.object({ city: z.string(), days: z.number().int().min(1) }));
    const run = (args: Record<string, unknown>) => tool.runAsync({ args, toolContext: undefined as never });
    expect(await run({ city: "Paris", days: 3 })).toBe("Task completed.");
    // The loop checks the arguments before `run` (checkArguments); `run` accepts them without a second check.
    expect(tool.checkArguments({ city: "Paris", days: 3 })).toEqual({ ok: true, value: { city: "Paris", days: 3 } });
    expect(await tool.run({ city: "Paris", days: 3 }, undefined as never)).toBe("Task completed.");
    const missing = (await run({ city: "Paris" })) as { status: string; error: string };
    expect(missing.status).toBe("error");
    expect(missing.error).toBe('Invalid arguments for tool "finish_task": days: is required but missing. Call the tool again with arguments that match its schema.');
    for (const hostile of [{ city: 7, days: 3 }, { city: "Paris", days: 0 }, { city: "Paris", days: 2.5 }, { city: "Paris", days: "3" }, { __proto__: { city: "x" }, days: 1 }]) {
      expect(await run(hostile as Record<string, unknown>)).toMatchObject({ status: "error" });
    }
  });

  it("takes zod, JSON Schema or a genai Schema, wraps a schema that is not an object as result, and adds ADK's instruction to a request", () => {
    expect(new FinishTaskTool({ type: "OBJECT", properties: { n: { type: "INTEGER" } }, required: ["n"] } as never).declaration().parameters).toEqual({ type: "object", properties: { n: { type: "integer" } }, required: ["n"] });
    const list = new FinishTaskTool({ type: "array", items: { type: "string" } });
    expect(list.wrapperKey).toBe("result");
    expect(list.checkArguments({ result: ["a"] })).toEqual({ ok: true, value: { result: ["a"] } });
    expect(list.checkArguments({ result: "a" }).ok).toBe(false);
    expect(list.extractOutput({ result: ["a"] })).toEqual(["a"]);
    const request = { contents: [], systemInstruction: "Work." } as unknown as LlmRequest;
    new FinishTaskTool().processLlmRequest({ llmRequest: request, toolContext: undefined as never });
    expect(request.systemInstruction).toMatch(/^Work\.\n\nDo NOT call `finish_task` prematurely\./);
  });
});
