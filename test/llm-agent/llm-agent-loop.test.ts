/** runLlmAgent (an LlmAgent's runAsync) on its own, with its events stored as the runner stores them. */
import { describe, expect, it } from "vitest";
import { SequentialAgent } from "../../src/agents/sequential-agent.js";
import { getFunctionCalls, getText } from "../../src/content/content.js";
import { ConfigurationError } from "../../src/errors/toolsmith-error.js";
import { isFinalResponse, type Event } from "../../src/events/event.js";
import { runLlmAgent } from "../../src/llm-agent/llm-agent-loop.js";
import { LlmAgent } from "../../src/llm-agent/llm-agent.js";
import { TRANSFER_TOOL_NAME } from "../../src/llm-agent/transfer-to-agent-tool.js";
import { REQUEST_CONFIRMATION } from "../../src/pause/client-requests.js";
import { pausedResponse } from "../../src/pause/paused-call.js";
import { exitLoop } from "../../src/tools/exit-loop-tool.js";
import { LongRunningFunctionTool } from "../../src/tools/function-tool.js";
import { FunctionModel, functionCallsResponse, lastFunctionResponse, ScriptedModel, textResponse } from "../../src/testing/index.js";
import { callEvent, drive, invocationFor, responseEvent, say, textOf, tool } from "./fixtures.js";

/** What an event is, in a few words, for comparing runs. */
function summary(event: Event): string {
  if (event.errorCode) return `${event.author} error ${event.errorCode}`;
  const parts = event.content?.parts ?? [];
  const calls = parts.filter((part) => part.functionCall).map((part) => part.functionCall!.name);
  if (calls.length) return `${event.author} calls ${calls.join(", ")}`;
  const responses = parts.filter((part) => part.functionResponse).map((part) => part.functionResponse!.name);
  if (responses.length) return `${event.author} answers ${responses.join(", ")}`;
  return `${event.author}${event.partial ? " (partial)" : ""}: ${textOf(event)}`;
}

const weather = tool("get_weather", ({ city }) => ({ city, sky: "sunny" }));

describe("runLlmAgent", () => {
  it("calls the model, runs the tools it asks for, calls it again with their results, and stops at the answer", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "get_weather", args: { city: "Paris" } }), (request) => textResponse(`It is ${lastFunctionResponse(request)!.response!.sky}.`)]);
    const agent = new LlmAgent({ name: "weather", model, tools: [weather] });
    const context = await invocationFor(agent, { events: [say("user", "Weather in Paris?")] });
    const events = await drive(runLlmAgent(agent, context), context);
    expect(events.map(summary)).toEqual(["weather calls get_weather", "weather answers get_weather", "weather: It is sunny."]);
    expect(model.requests[1]!.contents.at(-1)!.parts![0]!.functionResponse).toMatchObject({ name: "get_weather", response: { city: "Paris", sky: "sunny" } });
    expect(events.every((event) => event.invocationId === context.invocationId)).toBe(true);
    expect(isFinalResponse(events.at(-1)!)).toBe(true);
    model.assertComplete();
  });

  it("is what LlmAgent.runAsync runs", async () => {
    const model = new ScriptedModel([textResponse("Hi.")]);
    const agent = new LlmAgent({ name: "greeter", model });
    const context = await invocationFor(agent, { events: [say("user", "hello")] });
    expect((await drive(agent.runAsync(context), context)).map(summary)).toEqual(["greeter: Hi."]);
  });

  it("gives calls without an id one, and answers each under that id", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "get_weather", args: { city: "Oslo" } }, { name: "get_weather", args: { city: "Rome" } }), textResponse("done")]);
    const agent = new LlmAgent({ name: "weather", model, tools: [weather] });
    const context = await invocationFor(agent);
    const [calls, responses] = await drive(runLlmAgent(agent, context), context);
    const ids = getFunctionCalls(calls!.content).map((call) => call.id!);
    expect(ids).toHaveLength(2);
    expect(ids.every((id) => id.startsWith("adk-"))).toBe(true);
    expect(new Set(ids).size).toBe(2);
    expect(responses!.content!.parts!.map((part) => part.functionResponse!.id)).toEqual(ids);
  });

  it("keeps the ids the model gave its calls", async () => {
    const model = new ScriptedModel([functionCallsResponse({ id: "model-id-1", name: "get_weather", args: { city: "Oslo" } }), textResponse("done")]);
    const agent = new LlmAgent({ name: "weather", model, tools: [weather] });
    const context = await invocationFor(agent);
    const [calls] = await drive(runLlmAgent(agent, context), context);
    expect(getFunctionCalls(calls!.content)[0]!.id).toBe("model-id-1");
  });

  it("stores the final answer's text under outputKey, but not a call's text or an error", async () => {
    const model = new ScriptedModel([
      { content: { role: "model", parts: [{ text: "Let me look." }, { functionCall: { name: "get_weather", args: { city: "Oslo" } } }] } },
      textResponse("Cold in Oslo."),
    ]);
    const agent = new LlmAgent({ name: "weather", model, tools: [weather], outputKey: "forecast" });
    const context = await invocationFor(agent);
    const events = await drive(runLlmAgent(agent, context), context);
    expect(events[0]!.actions.stateDelta).toEqual({});
    expect(events.at(-1)!.actions.stateDelta).toEqual({ forecast: "Cold in Oslo." });
    expect(context.session.state.forecast).toBe("Cold in Oslo.");

    const failing = new LlmAgent({ name: "failing", model: new ScriptedModel([new Error("down")]), outputKey: "forecast" });
    const failedContext = await invocationFor(failing);
    const [failed] = await drive(runLlmAgent(failing, failedContext), failedContext);
    expect(failed!.errorCode).toBe("MODEL_ERROR");
    expect(failed!.actions.stateDelta).toEqual({});
  });

  it("ends the turn at a model error event, running nothing more", async () => {
    const model = new ScriptedModel([new Error("quota exceeded"), textResponse("never")]);
    const agent = new LlmAgent({ name: "weather", model, tools: [weather] });
    const context = await invocationFor(agent);
    const events = await drive(runLlmAgent(agent, context), context);
    expect(events.map(summary)).toEqual(["weather error MODEL_ERROR"]);
    expect(events[0]!.errorMessage).toBe("quota exceeded");
    expect(model.remainingSteps).toBe(1);
  });

  it("lets the model correct itself after an unknown tool or bad arguments, within one turn", async () => {
    const model = new ScriptedModel([
      functionCallsResponse({ name: "get_wether", args: {} }),
      (request) => {
        expect(lastFunctionResponse(request)!.response!.error).toContain("Available tools: get_weather");
        return functionCallsResponse({ name: "get_weather", args: { city: "Lima" } });
      },
      textResponse("Sunny in Lima."),
    ]);
    const agent = new LlmAgent({ name: "weather", model, tools: [weather] });
    const context = await invocationFor(agent);
    const events = await drive(runLlmAgent(agent, context), context);
    expect(events.map(summary)).toEqual([
      "weather calls get_wether",
      "weather answers get_wether",
      "weather calls get_weather",
      "weather answers get_weather",
      "weather: Sunny in Lima.",
    ]);
  });

  it("ends the turn at a tool response marked skipSummarization, with no model call after it", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "render", args: {} })]);
    const render = tool("render", (_args, context) => {
      context.actions.skipSummarization = true;
      return { html: "<p>done</p>" };
    });
    const agent = new LlmAgent({ name: "renderer", model, tools: [render] });
    const context = await invocationFor(agent);
    const events = await drive(runLlmAgent(agent, context), context);
    expect(events.map(summary)).toEqual(["renderer calls render", "renderer answers render"]);
    expect(model.requests).toHaveLength(1);
  });

  it("does not end an LLM agent's turn on escalate alone (the loop agent above decides); exit_loop also skips summarization", async () => {
    const escalating = tool("escalate_only", (_args, context) => void (context.actions.escalate = true));
    const model = new ScriptedModel([functionCallsResponse({ name: "escalate_only", args: {} }), functionCallsResponse({ name: "exit_loop", args: {} })]);
    const agent = new LlmAgent({ name: "looper", model, tools: [escalating, exitLoop] });
    const context = await invocationFor(agent);
    const events = await drive(runLlmAgent(agent, context), context);
    expect(events.map(summary)).toEqual(["looper calls escalate_only", "looper answers escalate_only", "looper calls exit_loop", "looper answers exit_loop"]);
    expect(events[1]!.actions.escalate).toBe(true);
    expect(events[3]!.actions).toMatchObject({ escalate: true, skipSummarization: true });
    model.assertComplete();
  });

  it("marks calls to long-running tools on the model event and calls the model again with their pending results, as ADK does", async () => {
    const start = new LongRunningFunctionTool({ name: "start_export", description: "Starts an export.", execute: () => ({ status: "pending", ticket: 7 }) });
    const model = new ScriptedModel([functionCallsResponse({ name: "start_export", args: {} }, { name: "get_weather", args: { city: "Kyiv" } }), textResponse("Export 7 is under way.")]);
    const agent = new LlmAgent({ name: "exporter", model, tools: [start, weather] });
    const context = await invocationFor(agent);
    const events = await drive(runLlmAgent(agent, context), context);
    const [calls, responses, answer] = events;
    const exportId = getFunctionCalls(calls!.content)[0]!.id!;
    expect(calls!.longRunningToolIds).toEqual([exportId]);
    expect(responses!.longRunningToolIds).toBeUndefined();
    expect(responses!.content!.parts![0]!.functionResponse!.response).toEqual({ status: "pending", ticket: 7 });
    expect(getText(answer!.content)).toBe("Export 7 is under way.");
    expect(events).toHaveLength(3);
    expect(model.requests).toHaveLength(2);
  });

  it("stops at a call that waits for confirmation, after the event asking the client", async () => {
    const refund = tool("refund", () => ({ refunded: true }), { requireConfirmation: true });
    const model = new ScriptedModel([functionCallsResponse({ name: "refund", args: { order: 1 } })]);
    const agent = new LlmAgent({ name: "shop", model, tools: [refund] });
    const context = await invocationFor(agent);
    const events = await drive(runLlmAgent(agent, context), context);
    expect(events.map(summary)).toEqual(["shop calls refund", "shop answers refund", `shop calls ${REQUEST_CONFIRMATION}`]);
    expect(events[1]!.content!.parts![0]!.functionResponse!.response).toEqual(pausedResponse("confirmation"));
    expect(model.requests).toHaveLength(1);
  });

  it("resumes an answered paused call before calling the model, which then reads the call's real result", async () => {
    const refund = tool("refund", (_args, context) => ({ refunded: true, confirmedWith: context.toolConfirmation?.hint }), { requireConfirmation: true });
    const model = new ScriptedModel([(request) => textResponse(`Refund ${JSON.stringify(lastFunctionResponse(request)!.response)}`)]);
    const agent = new LlmAgent({ name: "shop", model, tools: [refund] });
    const history = [callEvent("shop", [{ id: "r1", name: "refund", args: {} }]), responseEvent("shop", "r1", "refund", pausedResponse("confirmation"))];
    const context = await invocationFor(agent, {
      events: history,
      resumeMessage: { role: "user", parts: [{ functionResponse: { id: "ask-1", name: REQUEST_CONFIRMATION, response: { confirmed: true } } }] },
      resumeAnswers: new Map([["r1", { confirmation: { confirmed: true, hint: "yes please" } }]]),
    });
    const events = await drive(runLlmAgent(agent, context), context);
    expect(events.map(summary)).toEqual(["shop answers refund", 'shop: Refund {"refunded":true,"confirmedWith":"yes please"}']);
    expect(model.requests[0]!.contents.map((content) => content.parts![0]!.functionResponse?.response ?? content.parts![0]!.functionCall?.name)).toEqual([
      "refund",
      { refunded: true, confirmedWith: "yes please" },
    ]);
  });

  it("ends the turn after a resumed call whose response is final, without calling the model", async () => {
    const publish = tool("publish", (_args, context) => {
      context.actions.skipSummarization = true;
      return { published: true };
    }, { requireConfirmation: true });
    const model = new ScriptedModel([]);
    const agent = new LlmAgent({ name: "editor", model, tools: [publish] });
    const context = await invocationFor(agent, {
      events: [callEvent("editor", [{ id: "p1", name: "publish", args: {} }]), responseEvent("editor", "p1", "publish", pausedResponse("confirmation"))],
      resumeMessage: { role: "user", parts: [] },
      resumeAnswers: new Map([["p1", { confirmation: { confirmed: true } }]]),
    });
    expect((await drive(runLlmAgent(agent, context), context)).map(summary)).toEqual(["editor answers publish"]);
    expect(model.requests).toHaveLength(0);
  });

  it("hands the turn to the agent named by transfer_to_agent, in the same invocation", async () => {
    const billing = new LlmAgent({ name: "billing", description: "Invoices.", model: new ScriptedModel([textResponse("Your invoice is paid.")]) });
    const rootModel = new ScriptedModel([functionCallsResponse({ name: TRANSFER_TOOL_NAME, args: { agent_name: "billing" } })]);
    const root = new LlmAgent({ name: "root", model: rootModel, subAgents: [billing] });
    const context = await invocationFor(root, { events: [say("user", "Is my invoice paid?")] });
    const events = await drive(runLlmAgent(root, context), context);
    expect(events.map(summary)).toEqual([`root calls ${TRANSFER_TOOL_NAME}`, `root answers ${TRANSFER_TOOL_NAME}`, "billing: Your invoice is paid."]);
    expect(events[1]!.actions.transferToAgent).toBe("billing");
    expect(events[2]!.invocationId).toBe(context.invocationId);
    expect(rootModel.requests).toHaveLength(1);
  });

  it("answers a transfer to an agent outside the allowed targets with an error the model can fix", async () => {
    const helper = new LlmAgent({ name: "helper", model: new ScriptedModel([textResponse("helping")]) });
    const model = new ScriptedModel([
      functionCallsResponse({ name: TRANSFER_TOOL_NAME, args: { agent_name: "nobody" } }),
      (request) => {
        expect(lastFunctionResponse(request)!.response!.status).toBe("error");
        return functionCallsResponse({ name: TRANSFER_TOOL_NAME, args: { agent_name: "helper" } });
      },
    ]);
    const root = new LlmAgent({ name: "root", model, subAgents: [helper] });
    const context = await invocationFor(root);
    const events = await drive(runLlmAgent(root, context), context);
    expect(events.at(-1)!.author).toBe("helper");
    model.assertComplete();
  });

  it("throws UNKNOWN_AGENT when a tool transfers to a name that is not in the agent tree", async () => {
    const rogue = tool("rogue", (_args, context) => void (context.actions.transferToAgent = "ghost"));
    const agent = new LlmAgent({ name: "root", model: new ScriptedModel([functionCallsResponse({ name: "rogue", args: {} })]), tools: [rogue] });
    const context = await invocationFor(agent);
    const error = await drive(runLlmAgent(agent, context), context).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ code: "UNKNOWN_AGENT", message: expect.stringContaining('"ghost"') });
  });

  it("stops after the current step when a tool ends the invocation", async () => {
    const finish = tool("finish", (_args, context) => {
      context.invocationContext.endInvocation = true;
      return { ok: true };
    });
    const model = new ScriptedModel([functionCallsResponse({ name: "finish", args: {} }), textResponse("never")]);
    const agent = new LlmAgent({ name: "worker", model, tools: [finish] });
    const context = await invocationFor(agent);
    expect((await drive(runLlmAgent(agent, context), context)).map(summary)).toEqual(["worker calls finish", "worker answers finish"]);
    expect(model.remainingSteps).toBe(1);
  });

  it("yields nothing when the run was cancelled before it started", async () => {
    const controller = new AbortController();
    controller.abort();
    const model = new ScriptedModel([textResponse("never")]);
    const agent = new LlmAgent({ name: "worker", model });
    const context = await invocationFor(agent, { abortSignal: controller.signal });
    expect(await drive(runLlmAgent(agent, context), context)).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });

  it("yields streamed chunks before the complete event and never stores them", async () => {
    const model = new FunctionModel(() => [textResponse("Good "), textResponse("morning.")]);
    const agent = new LlmAgent({ name: "streamer", model, outputKey: "greeting" });
    const context = await invocationFor(agent, { runConfig: { streamingMode: "sse" } });
    const events = await drive(runLlmAgent(agent, context), context);
    expect(events.map(summary)).toEqual(["streamer (partial): Good ", "streamer (partial): morning.", "streamer: Good morning."]);
    expect(events[0]!.actions.stateDelta).toEqual({});
    expect(context.session.events.map(summary)).toEqual(["streamer: Good morning."]);
    expect(context.session.state.greeting).toBe("Good morning.");
  });

  it("ends with an LLM_CALLS_LIMIT_EXCEEDED error event once the model was called maxLlmCalls times, never throwing", async () => {
    const model = new FunctionModel(() => functionCallsResponse({ name: "get_weather", args: { city: "Again" } }));
    const agent = new LlmAgent({ name: "loopy", model, tools: [weather], outputKey: "answer" });
    const context = await invocationFor(agent, { runConfig: { maxLlmCalls: 2 } });
    const events = await drive(runLlmAgent(agent, context), context);
    expect(events.map(summary)).toEqual([
      "loopy calls get_weather",
      "loopy answers get_weather",
      "loopy calls get_weather",
      "loopy answers get_weather",
      "loopy error LLM_CALLS_LIMIT_EXCEEDED",
    ]);
    expect(events.at(-1)!.errorMessage).toContain("more than 2 model calls");
    expect(events.at(-1)!.actions.stateDelta).toEqual({});
    expect(context.session.events.at(-1)!.errorCode).toBe("LLM_CALLS_LIMIT_EXCEEDED");
    expect(model.requests).toHaveLength(2);
  });

  it("counts model calls across a transfer, since agents of one invocation share the limit", async () => {
    const secondModel = new ScriptedModel([textResponse("never reached")]);
    const second = new LlmAgent({ name: "second", model: secondModel });
    const first = new LlmAgent({ name: "first", model: new ScriptedModel([functionCallsResponse({ name: TRANSFER_TOOL_NAME, args: { agent_name: "second" } })]), subAgents: [second] });
    const context = await invocationFor(first, { runConfig: { maxLlmCalls: 1 } });
    const events = await drive(runLlmAgent(first, context), context);
    expect(events.map(summary)).toEqual([`first calls ${TRANSFER_TOOL_NAME}`, `first answers ${TRANSFER_TOOL_NAME}`, "second error LLM_CALLS_LIMIT_EXCEEDED"]);
    expect(context.counters.llmCalls).toBe(2);
    expect(secondModel.requests).toHaveLength(0);
  });
});

describe("LlmAgent", () => {
  it("uses its nearest ancestor's model when it has none, and its own when it has one", async () => {
    const parentModel = new ScriptedModel([], { name: "parent-model" });
    const ownModel = new ScriptedModel([], { name: "own-model" });
    const inheriting = new LlmAgent({ name: "inheriting" });
    const owning = new LlmAgent({ name: "owning", model: ownModel });
    const middle = new SequentialAgent({ name: "middle", subAgents: [inheriting, owning] });
    new LlmAgent({ name: "top", model: parentModel, subAgents: [middle] });
    expect(await inheriting.canonicalModel()).toBe(parentModel);
    expect(await owning.canonicalModel()).toBe(ownModel);
    expect(inheriting.model).toBeUndefined();
  });

  it("fails its run with NO_MODEL when neither it nor an ancestor has a model", async () => {
    const orphan = new LlmAgent({ name: "orphan" });
    const context = await invocationFor(orphan);
    await expect(drive(orphan.runAsync(context), context)).rejects.toMatchObject({ code: "NO_MODEL", message: expect.stringContaining('"orphan"') });
  });

  it("fills defaults for what was not given", () => {
    const agent = new LlmAgent({ name: "plain" });
    expect(agent).toMatchObject({ description: "", tools: [], subAgents: [], disallowTransferToParent: false, disallowTransferToPeers: false, generateContentConfig: {} });
  });

  it("refuses a name that is not an identifier and two tools of one name", () => {
    expect(() => new LlmAgent({ name: "has space" })).toThrow(ConfigurationError);
    expect(() => new LlmAgent({ name: "twins", tools: [tool("same", () => 1), tool("same", () => 2)] })).toThrow(/more than one tool named "same"/);
  });

  it("becomes the parent of its sub-agents", () => {
    const child = new LlmAgent({ name: "child" });
    const parent = new LlmAgent({ name: "parent", subAgents: [child] });
    expect(child.parentAgent).toBe(parent);
  });
});
