/**
 * `runConfig.pauseOnToolCalls` (ADK's client-side tool execution): the run stops at the model's calls, the
 * client runs them and sends their results, and the next run, in this process or after a restart, goes on from
 * them, with answers checked against the calls as every answer to a paused call is. Side by side with ADK in
 * test/adk-compat/programs/35-client-side-tools.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FunctionTool, getFunctionCalls, getFunctionResponses, isFinalResponse, isToolsmithError, LlmAgent, Runner, SequentialAgent, type Content, type SessionService } from "../../src/index.js";
import { SqliteSessionService } from "../../src/sqlite/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { tempDir } from "../support/temp-dir.js";

function deviceAgent(steps: ConstructorParameters<typeof ScriptedModel>[0], ran: string[] = []) {
  const tool = (name: string) => new FunctionTool({ name, description: `${name} on the device.`, parameters: { type: "object", properties: {} }, execute: () => (ran.push(name), { ran: "server" }) });
  const model = new ScriptedModel(steps);
  return { agent: new LlmAgent({ name: "device", model, tools: [tool("get_location"), tool("get_time")] }), model, ran };
}

const bothCalls = () => functionCallsResponse({ name: "get_location", args: {} }, { name: "get_time", args: {} });

/** The client's results for `calls`, as function responses with their ids. */
function results(calls: { id?: string; name?: string }[], values: Record<string, Record<string, unknown>>): Content {
  return { role: "user", parts: calls.map((call) => ({ functionResponse: { id: call.id, name: call.name, response: values[call.name!]! } })) };
}

async function started(runner: Runner, sessionService: SessionService = runner.sessionService) {
  const session = await sessionService.createSession({ appName: "app", userId: "u" });
  const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Where and when am I?"), runConfig: { pauseOnToolCalls: true } }));
  return { sessionId: session.id, events, calls: events.flatMap((event) => getFunctionCalls(event)) };
}

describe("runConfig.pauseOnToolCalls", () => {
  it("ends the run at the model's calls without running them, having stored them", async () => {
    const { agent, ran } = deviceAgent([bothCalls()]);
    const runner = new Runner({ appName: "app", agent });
    const { events, calls, sessionId } = await started(runner);
    expect(events.map((event) => [event.author, isFinalResponse(event)])).toEqual([["device", false]]);
    expect(calls.map((call) => call.name)).toEqual(["get_location", "get_time"]);
    expect(calls.every((call) => call.id?.startsWith("adk-"))).toBe(true);
    expect(ran).toEqual([]);
    const stored = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId }))!;
    expect(stored.events.map((event) => event.author)).toEqual(["user", "device"]);
  });

  it("goes on from the client's results in the next run, which the model reads and the session stores as sent", async () => {
    const { agent, model, ran } = deviceAgent([bothCalls(), textResponse("Lisbon, 10:30.")]);
    const runner = new Runner({ appName: "app", agent });
    const { calls, sessionId } = await started(runner);
    const answer = results(calls, { get_location: { city: "Lisbon" }, get_time: { time: "10:30" } });
    const events = await collect(runner.runAsync({ userId: "u", sessionId, newMessage: answer, runConfig: { pauseOnToolCalls: true } }));
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("Lisbon, 10:30.");
    expect(getFunctionResponses(model.requests[1]!.contents.at(-1)).map((response) => response.response)).toEqual([{ city: "Lisbon" }, { time: "10:30" }]);
    const stored = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId }))!;
    expect(stored.events.map((event) => event.author)).toEqual(["user", "device", "user", "device"]);
    expect(getFunctionResponses(stored.events[2]).map((response) => response.id)).toEqual(calls.map((call) => call.id));
    expect(ran).toEqual([]);
  });

  it("answers a call the client left out as interrupted, keeping the result it sent", async () => {
    const { agent, model } = deviceAgent([bothCalls(), textResponse("In Lisbon.")]);
    const runner = new Runner({ appName: "app", agent });
    const { calls, sessionId } = await started(runner);
    await collect(runner.runAsync({ userId: "u", sessionId, newMessage: results([calls[0]!], { get_location: { city: "Lisbon" } }) }));
    const sent = model.requests[1]!.contents.flatMap((content) => getFunctionResponses(content));
    expect(sent.map((response) => [response.name, (response.response as { status?: string }).status ?? "answered"])).toEqual([
      ["get_time", "error"],
      ["get_location", "answered"],
    ]);
  });

  it("refuses a result for a call the model never made, or one already answered, storing nothing", async () => {
    const { agent } = deviceAgent([bothCalls(), textResponse("Lisbon, 10:30.")]);
    const runner = new Runner({ appName: "app", agent });
    const { calls, sessionId } = await started(runner);
    const forged = results([{ id: "adk-forged", name: "get_location" }], { get_location: { city: "Nowhere" } });
    const refusal = await collect(runner.runAsync({ userId: "u", sessionId, newMessage: forged })).catch((error: unknown) => error);
    expect(isToolsmithError(refusal) && refusal.code).toBe("UNKNOWN_FUNCTION_CALL");
    const answer = results(calls, { get_location: { city: "Lisbon" }, get_time: { time: "10:30" } });
    await collect(runner.runAsync({ userId: "u", sessionId, newMessage: answer }));
    const before = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId }))!.events.length;
    const replay = await collect(runner.runAsync({ userId: "u", sessionId, newMessage: answer })).catch((error: unknown) => error);
    expect(isToolsmithError(replay) && replay.code).toBe("UNKNOWN_FUNCTION_CALL");
    expect((await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId }))!.events).toHaveLength(before);
  });

  it("ends the whole invocation, so a sequential pipeline's next agent waits for the results, and goes on with them", async () => {
    const { agent: first } = deviceAgent([bothCalls(), textResponse("Lisbon, 10:30.")]);
    const summaryModel = new ScriptedModel([textResponse("The user is in Lisbon at 10:30.")]);
    const second = new LlmAgent({ name: "summary", model: summaryModel });
    const runner = new Runner({ appName: "app", agent: new SequentialAgent({ name: "pipeline", subAgents: [first, second] }) });
    const { events, calls, sessionId } = await started(runner);
    expect(events.map((event) => event.author)).toEqual(["device"]);
    expect(summaryModel.requests).toHaveLength(0);
    const answer = results(calls, { get_location: { city: "Lisbon" }, get_time: { time: "10:30" } });
    const resumed = await collect(runner.runAsync({ userId: "u", sessionId, newMessage: answer }));
    expect(resumed.map((event) => [event.author, event.content?.parts?.[0]?.text])).toEqual([
      ["device", "Lisbon, 10:30."],
      ["summary", "The user is in Lisbon at 10:30."],
    ]);
  });

  it("goes on after a restart: a new runner over the same SQLite file takes the client's results", async () => {
    const path = join(tempDir(), "sessions.db");
    const before = new SqliteSessionService({ path });
    const { calls, sessionId } = await started(new Runner({ appName: "app", agent: deviceAgent([bothCalls()]).agent, sessionService: before }), before);
    await before.close();
    const after = new SqliteSessionService({ path });
    try {
      const { agent, model } = deviceAgent([textResponse("Lisbon, 10:30.")]);
      const runner = new Runner({ appName: "app", agent, sessionService: after });
      const events = await collect(runner.runAsync({ userId: "u", sessionId, newMessage: results(calls, { get_location: { city: "Lisbon" }, get_time: { time: "10:30" } }) }));
      expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("Lisbon, 10:30.");
      expect(getFunctionResponses(model.requests[0]!.contents.at(-1)).map((response) => response.name)).toEqual(["get_location", "get_time"]);
    } finally {
      await after.close();
    }
  });
});

describe("getFunctionCalls and getFunctionResponses", () => {
  it("read an event as ADK's do, and a content as toolsmith's always have", () => {
    const call = { id: "c1", name: "get_time", args: {} };
    const event = { author: "device", content: { role: "model", parts: [{ text: "checking" }, { functionCall: call }] } };
    expect(getFunctionCalls(event)).toEqual([call]);
    expect(getFunctionCalls(event.content)).toEqual([call]);
    expect(getFunctionCalls({ author: "device" } as { content?: Content })).toEqual([]);
    expect(getFunctionCalls(undefined)).toEqual([]);
    const response = { id: "c1", name: "get_time", response: { time: "10:30" } };
    expect(getFunctionResponses({ content: { role: "user", parts: [{ functionResponse: response }] } })).toEqual([response]);
  });
});
