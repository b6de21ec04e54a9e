import { describe, expect, it } from "vitest";
import { AgentTool, FunctionTool, InMemorySessionService, LlmAgent, LongRunningFunctionTool, Runner, ClientResponseError, type LlmRequest } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { summarize } from "./event-summary.js";

describe("AgentTool", () => {
  it("runs the agent in its own branch, streams its events when asked, and returns its answer as the tool result", async () => {
    const rememberTier = new FunctionTool({
      name: "remember_tier",
      description: "Stores the user's tier.",
      execute: (_args, context) => {
        context.state.set("user:tier", "gold");
        return { ok: true };
      },
    });
    const childModel = new ScriptedModel([functionCallsResponse({ name: "remember_tier" }), textResponse("The user is gold tier.")]);
    const child = new LlmAgent({ name: "profiler", description: "Finds the user's tier.", model: childModel, tools: [rememberTier] });
    const parentModel = new ScriptedModel([
      functionCallsResponse({ name: "profiler", args: { request: "What tier is the user?" } }),
      (request) => textResponse(`Done: ${JSON.stringify(request.contents.at(-1)!.parts![0]!.functionResponse!.response)}`),
    ]);
    const parent = new LlmAgent({ name: "concierge", model: parentModel, tools: [new AgentTool({ agent: child })] });
    const runner = new Runner({ appName: "app", agent: parent });
    const created = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: userMessage("hello"), runConfig: { streamAgentToolEvents: true } }));

    expect(summarize(events)).toEqual([
      'concierge | call profiler {"request":"What tier is the user?"}',
      'user@concierge.profiler@… | text "What tier is the user?"',
      "profiler@concierge.profiler@… | call remember_tier {}",
      'profiler@concierge.profiler@… | response remember_tier {"ok":true}',
      'profiler@concierge.profiler@… | text "The user is gold tier."',
      'concierge | response profiler {"result":"The user is gold tier."}',
      'concierge | text "Done: {\\"result\\":\\"The user is gold tier.\\"}"',
    ]);
    // The child saw only the request, not the caller's conversation.
    expect(childModel.requests[0]!.contents).toEqual([{ role: "user", parts: [{ text: "What tier is the user?" }] }]);
    // Its state change reached the caller's event and the store, visible to the caller afterwards.
    expect(events[5]!.actions.stateDelta).toEqual({ "user:tier": "gold" });
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: created.id });
    expect(stored!.state["user:tier"]).toBe("gold");
    // The caller's model never saw the child's turns.
    expect(JSON.stringify(parentModel.requests[1]!.contents)).not.toContain("remember_tier");
  });

  it("by default, as in ADK, yields only the tool's call and result, while the session stores the inner agent's events too", async () => {
    const child = new LlmAgent({ name: "profiler", model: new ScriptedModel([textResponse("Gold.")]) });
    const parentModel = new ScriptedModel([functionCallsResponse({ name: "profiler", args: { request: "Tier?" } }), textResponse("The user is gold.")]);
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "concierge", model: parentModel, tools: [new AgentTool({ agent: child })] }) });
    const created = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: userMessage("hello") }));

    expect(summarize(events)).toEqual([
      'concierge | call profiler {"request":"Tier?"}',
      'concierge | response profiler {"result":"Gold."}',
      'concierge | text "The user is gold."',
    ]);
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: created.id });
    expect(summarize(stored!.events.filter((event) => event.author !== "user" || event.branch))).toEqual([
      'concierge | call profiler {"request":"Tier?"}',
      'user@concierge.profiler@… | text "Tier?"',
      'profiler@concierge.profiler@… | text "Gold."',
      'concierge | response profiler {"result":"Gold."}',
      'concierge | text "The user is gold."',
    ]);
  });

  it("validates its input schema before the agent runs", async () => {
    const childModel = new ScriptedModel([]);
    const child = new LlmAgent({ name: "child", model: childModel });
    const parentModel = new ScriptedModel([functionCallsResponse({ name: "child", args: { question: "?" } }), textResponse("fixed")]);
    const parent = new LlmAgent({ name: "parent", model: parentModel, tools: [new AgentTool({ agent: child })] });
    const runner = new Runner({ appName: "app", agent: parent });
    const created = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: userMessage("hi") }));
    expect(String(events[1]!.content!.parts![0]!.functionResponse!.response!.error)).toContain("request: is required but missing");
    expect(childModel.requests).toHaveLength(0);
  });

  it("checks arguments against the agent's inputSchema (zod, refinements kept) before it runs, and sends them as JSON", async () => {
    const { z } = await import("zod");
    const childModel = new ScriptedModel([textResponse("Booked.")]);
    const child = new LlmAgent({ name: "booker", model: childModel, inputSchema: z.object({ nights: z.number().int().min(1) }) });
    const parentModel = new ScriptedModel([
      functionCallsResponse({ name: "booker", args: { nights: 0 } }),
      functionCallsResponse({ name: "booker", args: { nights: 2 } }),
      textResponse("done"),
    ]);
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "parent", model: parentModel, tools: [new AgentTool({ agent: child })] }) });
    const created = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: userMessage("book") }));
    const responses = events.flatMap((event) => event.content?.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse.response] : []));
    expect(String(responses[0]!.error)).toContain("nights");
    expect(responses[1]).toEqual({ result: "Booked." });
    expect(childModel.requests).toHaveLength(1);
    expect(childModel.requests[0]!.contents).toEqual([{ role: "user", parts: [{ text: '{"nights":2}' }] }]);
  });

  it("with skipSummarization makes the agent's answer the caller's final response, and a skip inside the agent does not end the caller's turn", async () => {
    const lookup = new FunctionTool({ name: "lookup", description: "x", execute: (_args, context) => { context.actions.skipSummarization = true; return { raw: 1 }; } });
    const inner = new LlmAgent({ name: "inner", model: new ScriptedModel([functionCallsResponse({ name: "lookup" })]), tools: [lookup] });
    const innerTool = new AgentTool({ agent: inner });
    const outerModel = new ScriptedModel([functionCallsResponse({ name: "inner", args: { request: "look" } }), textResponse("summarised")]);
    const outer = new LlmAgent({ name: "outer", model: outerModel, tools: [innerTool] });
    const runner = new Runner({ appName: "app", agent: outer });
    const created = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: userMessage("go") }));
    expect(events.at(-1)!.content!.parts![0]!.text).toBe("summarised");
    outerModel.assertComplete();

    const direct = new LlmAgent({ name: "direct", model: new ScriptedModel([textResponse("the answer")]) });
    const callerModel = new ScriptedModel([functionCallsResponse({ name: "direct", args: { request: "q" } })]);
    const caller = new LlmAgent({ name: "caller", model: callerModel, tools: [new AgentTool({ agent: direct, skipSummarization: true })] });
    const runner2 = new Runner({ appName: "app", agent: caller });
    const session2 = await runner2.sessionService.createSession({ appName: "app", userId: "u" });
    const events2 = await collect(runner2.runAsync({ userId: "u", sessionId: session2.id, newMessage: userMessage("go") }));
    expect(summarize(events2).at(-1)).toBe('caller | response direct {"result":"the answer"}');
    callerModel.assertComplete();
  });
});

describe("long-running tools", () => {
  it("answer with a pending result and go on when the client sends the result, in a new Runner", async () => {
    const sessionService = new InMemorySessionService();
    const reimburse = new LongRunningFunctionTool({
      name: "ask_for_approval",
      description: "Asks the manager to approve a reimbursement.",
      parameters: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
      execute: ({ amount }) => ({ status: "pending", amount, ticketId: "reimbursement-ticket-001" }),
    });
    const makeAgent = (model: ScriptedModel) => new LlmAgent({ name: "reimbursement_agent", model, tools: [reimburse] });
    const firstModel = new ScriptedModel([functionCallsResponse({ name: "ask_for_approval", args: { amount: 500 } }), textResponse("Your request is waiting for approval.")]);
    const first = new Runner({ appName: "app", agent: makeAgent(firstModel), sessionService });
    const created = await sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(first.runAsync({ userId: "u", sessionId: created.id, newMessage: userMessage("Reimburse $500") }));
    // As in ADK: the call is marked long-running, and the model is called again with the pending result.
    expect(summarize(events)).toEqual([
      'reimbursement_agent | call ask_for_approval {"amount":500} | waiting',
      'reimbursement_agent | response ask_for_approval {"status":"pending","amount":500,"ticketId":"reimbursement-ticket-001"}',
      'reimbursement_agent | text "Your request is waiting for approval."',
    ]);
    expect(firstModel.requests[0]!.functionDeclarations[0]!.description).toContain("Do not call this tool again");
    const callId = events[0]!.longRunningToolIds![0]!;

    // Later, another process: a new runner over the same store gets the manager's answer.
    const secondModel = new ScriptedModel([(request) => textResponse(`Approved: ${JSON.stringify(request.contents.at(-1))}`)]);
    const second = new Runner({ appName: "app", agent: makeAgent(secondModel), sessionService });
    const resumed = await collect(
      second.runAsync({
        userId: "u",
        sessionId: created.id,
        newMessage: { role: "user", parts: [{ functionResponse: { id: callId, name: "ask_for_approval", response: { status: "approved", ticketId: "reimbursement-ticket-001" } } }] },
      }),
    );
    expect(resumed).toHaveLength(1);
    // The model sees the call followed by its final result, in place of the pending one and its own reply to it (ADK's rearrangement).
    const sent = secondModel.requests[0]!.contents;
    expect(sent.map((content) => content.parts![0]!.functionResponse?.response ?? content.parts![0]!.functionCall?.name ?? content.parts![0]!.text)).toEqual([
      "Reimburse $500",
      "ask_for_approval",
      { status: "approved", ticketId: "reimbursement-ticket-001" },
    ]);
  });

  it("accepts intermediate updates before the final result, each reaching the model once", async () => {
    const track = new LongRunningFunctionTool({ name: "ship_order", description: "Ships.", execute: () => ({ status: "pending" }) });
    const latestResult = (request: LlmRequest) => textResponse(`now: ${JSON.stringify(request.contents.at(-1)!.parts![0]!.functionResponse!.response)}`);
    const model = new ScriptedModel([functionCallsResponse({ name: "ship_order" }), latestResult, latestResult, latestResult]);
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "shop", model, tools: [track] }) });
    const created = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const first = await collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: userMessage("ship it") }));
    const id = first[0]!.longRunningToolIds![0]!;
    const update = (response: Record<string, unknown>) =>
      collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: { role: "user", parts: [{ functionResponse: { id, name: "ship_order", response } }] } }));
    expect(summarize(first).at(-1)).toBe('shop | text "now: {\\"status\\":\\"pending\\"}"');
    expect(summarize(await update({ status: "packed" }))).toEqual(['shop | text "now: {\\"status\\":\\"packed\\"}"']);
    // Each update arrives last, so the model sees it right after the call, in place of the earlier ones.
    expect(summarize(await update({ status: "delivered" }))).toEqual(['shop | text "now: {\\"status\\":\\"delivered\\"}"']);
    expect(model.requests.at(-1)!.contents).toHaveLength(3);
    model.assertComplete();
  });

  it("that return nothing end the run waiting for the client's result, as in ADK, and go on when it arrives", async () => {
    const started: number[] = [];
    const approve = new LongRunningFunctionTool({ name: "ask_for_approval", description: "Asks a manager.", parameters: { type: "object", properties: { amount: { type: "number" } } }, execute: ({ amount }) => void started.push(amount as number) });
    const model = new ScriptedModel([
      functionCallsResponse({ name: "ask_for_approval", args: { amount: 200 } }),
      (request) => textResponse(`Result: ${JSON.stringify(request.contents.at(-1)!.parts![0]!.functionResponse!.response)}`),
    ]);
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "finance", model, tools: [approve] }) });
    const created = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const first = await collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: userMessage("Reimburse $200") }));
    // The tool ran, but the model was not called again: there is no result to tell it yet.
    expect(started).toEqual([200]);
    expect(model.requests).toHaveLength(1);
    expect(summarize(first)).toEqual([
      'finance | call ask_for_approval {"amount":200} | waiting',
      expect.stringMatching(/^finance \| response ask_for_approval \{"status":"paused","waitingFor":"client".* \| waiting$/),
    ]);
    const id = first[0]!.longRunningToolIds![0]!;
    const resumed = await collect(
      runner.runAsync({ userId: "u", sessionId: created.id, newMessage: { role: "user", parts: [{ functionResponse: { id, name: "ask_for_approval", response: { status: "approved" } } }] } }),
    );
    expect(summarize(resumed)).toEqual(['finance | text "Result: {\\"status\\":\\"approved\\"}"']);
    // The model sees the call followed by its result, in place of the placeholder it never read.
    expect(model.requests[1]!.contents.map((content) => content.parts![0]!.functionResponse?.response ?? content.parts![0]!.functionCall?.name ?? content.parts![0]!.text)).toEqual([
      "Reimburse $200",
      "ask_for_approval",
      { status: "approved" },
    ]);
    expect(started).toEqual([200]);
    model.assertComplete();
  });

  it("are not run again when the client answers something else (a confirmation of another call in the same batch)", async () => {
    let started = 0;
    const ticket = new LongRunningFunctionTool({ name: "open_ticket", description: "Opens a ticket.", parameters: { type: "object", properties: {} }, execute: () => void started++ });
    const pay = new FunctionTool({ name: "pay", description: "Pays.", parameters: { type: "object", properties: {} }, requireConfirmation: true, execute: () => ({ paid: true }) });
    const model = new ScriptedModel([functionCallsResponse({ name: "open_ticket" }, { name: "pay" }), textResponse("Paid; the ticket is open.")]);
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "clerk", model, tools: [ticket, pay] }) });
    const created = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const first = await collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: userMessage("Pay and open a ticket") }));
    const confirmation = first.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === "adk_request_confirmation")!.functionCall!;
    const resumed = await collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: { role: "user", parts: [{ functionResponse: { id: confirmation.id, name: "adk_request_confirmation", response: { confirmed: true } } }] } }));
    // The ticket opened once: its call still waits for the client's result, and only the confirmed call ran.
    expect(started).toBe(1);
    expect(resumed[0]!.content!.parts!.map((part) => [part.functionResponse!.name, part.functionResponse!.response])).toEqual([["pay", { paid: true }]]);
  });

  it("refuses a result for a call id the session does not have, storing nothing", async () => {
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "a", model: new ScriptedModel([]) }) });
    const created = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    await expect(
      collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: { role: "user", parts: [{ functionResponse: { id: "nope", name: "x", response: {} } }] } })),
    ).rejects.toBeInstanceOf(ClientResponseError);
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: created.id });
    expect(stored!.events).toHaveLength(0);
  });
});
