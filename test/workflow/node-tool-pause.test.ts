import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AgentTool,
  type AgentLike,
  FunctionTool,
  getPendingUserInputRequests,
  InMemoryRunner,
  LlmAgent,
  node,
  NodeTool,
  RequestInput,
  SequentialAgent,
  Workflow,
  type Content,
  type Event,
  type LlmRequest,
} from "../../src/index.js";
import { functionCallsResponse, ScriptedModel, textResponse } from "../../src/testing/index.js";
import { startWorker } from "../support/child-process.js";
import { tempDir } from "../support/temp-dir.js";

/**
 * A node run as a tool (`NodeTool`) that asks the person (`RequestInput`): the run pauses with the node's question,
 * and the person's answer (a function response to it) takes the call up where it stopped, in this process or
 * another; bad, replayed and early answers, parallel calls, and the same inside a workflow's agent node.
 */

const userText = (text: string): Content => ({ role: "user", parts: [{ text }] });
const answer = (id: string, response: Record<string, unknown>): Content => ({ role: "user", parts: [{ functionResponse: { id, name: "adk_request_input", response } }] });

/** An event as one line: who said, called or answered what; errors by code. */
function said(event: Event): string {
  if (event.errorCode) return `${event.author}: error ${event.errorCode}`;
  return (event.content?.parts ?? [])
    .map((part) => (part.text !== undefined ? `${event.author}: ${part.text}` : part.functionCall ? `${event.author} calls ${part.functionCall.name}${part.functionCall.name === "adk_request_input" ? ` ${part.functionCall.id} "${part.functionCall.args?.message}"` : ""}` : `${event.author} answers ${part.functionResponse?.name} ${JSON.stringify(part.functionResponse?.response)}`))
    .join(" | ");
}

const PAUSED = '{"status":"paused","waitingFor":"client","message":"This call is waiting for the user\'s answer to a request and has not finished yet."}';

/** A conversation with `agent` on one in-memory session: each turn's lines, or what the run threw. */
async function conversation(agent: AgentLike) {
  const runner = new InMemoryRunner({ agent, appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const stored = async () => (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
  return {
    stored,
    async turn(message: Content): Promise<string[]> {
      const lines: string[] = [];
      try {
        for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: message })) lines.push(said(event));
      } catch (error) {
        lines.push(`threw ${(error as Error).message}`);
      }
      return lines;
    },
  };
}

/** A model that calls `calls` first, then answers with the results it was given, as JSON. */
function callingModel(...calls: Array<{ name: string; args: Record<string, unknown> }>) {
  const requests: LlmRequest[] = [];
  const results = (request: LlmRequest) => {
    requests.push(request);
    const responses = request.contents.at(-1)!.parts!.map((part) => part.functionResponse?.response);
    return textResponse(`Result: ${JSON.stringify(responses.length === 1 ? responses[0] : responses)}`);
  };
  return { model: new ScriptedModel([functionCallsResponse(...calls), results, results]), requests };
}

describe("a NodeTool whose node asks the person", () => {
  it("pauses with the node's question, and on the answer gives the model the answer as the call's result", async () => {
    const ask = node(async function* ask(_ctx, order: string) {
      yield new RequestInput({ interruptId: "sure", message: `Cancel ${order}?` });
    }, { name: "ask", inputSchema: z.string() });
    const { model, requests } = callingModel({ name: "cancel", args: { request: "order 7" } });
    const chat = await conversation(new LlmAgent({ name: "clerk", model, tools: [new NodeTool(ask, "cancel", "Cancels an order once the person agrees.")] }));

    expect(await chat.turn(userText("Cancel order 7"))).toEqual(["clerk calls cancel", 'ask calls adk_request_input sure "Cancel order 7?"', `clerk answers cancel ${PAUSED}`]);
    expect(requests).toHaveLength(0);
    expect(getPendingUserInputRequests((await chat.stored()).events).map((request) => [request.interruptId, request.message])).toEqual([["sure", "Cancel order 7?"]]);

    expect(await chat.turn(answer("sure", { result: "yes" }))).toEqual(['clerk answers cancel {"result":"yes"}', 'clerk: Result: {"result":"yes"}']);
    expect(getPendingUserInputRequests((await chat.stored()).events)).toEqual([]);
    // The model sees its call and the call's result; the question and its answer were the node's, on its branch.
    expect(requests[0]!.contents.map((content) => content.parts!.map((part) => part.text ?? part.functionCall?.name ?? `${part.functionResponse?.name} ${JSON.stringify(part.functionResponse?.response)}`))).toEqual([
      ["Cancel order 7"],
      ["cancel"],
      ['cancel {"result":"yes"}'],
    ]);
  });

  it("takes a workflow up where it stopped over two questions: the nodes that ran do not run again, and their state stays", async () => {
    const ran: string[] = [];
    const draft = node((ctx, order: string) => (ran.push("draft"), ctx.state.set("drafted", order), `refund for ${order}`), { name: "draft" });
    const approve = node(async function* approve(_ctx, proposal: string) {
      ran.push("approve");
      yield new RequestInput({ interruptId: "approve", message: `Approve the ${proposal}?` });
    }, { name: "approve" });
    const amount = node(async function* amount(_ctx, decision: unknown) {
      ran.push("amount");
      yield new RequestInput({ interruptId: "amount", message: `How much (${JSON.stringify(decision)})?`, responseSchema: z.object({ cents: z.number() }) });
    }, { name: "amount" });
    const pay = node((ctx, money: { cents: number }) => (ran.push("pay"), ctx.state.set("paid", money.cents), `paid ${money.cents}`), { name: "pay" });
    const refund = new Workflow({ name: "refund", edges: [["START", draft, approve, amount, pay]], inputSchema: z.string() });
    const { model } = callingModel({ name: "refund", args: { request: "order 7" } });
    const chat = await conversation(new LlmAgent({ name: "clerk", model, tools: [new NodeTool(refund)] }));

    expect(await chat.turn(userText("Refund order 7"))).toEqual(["clerk calls refund", 'approve calls adk_request_input approve "Approve the refund for order 7?"', `clerk answers refund ${PAUSED}`]);
    expect(await chat.turn(answer("approve", { result: "yes" }))).toEqual(['amount calls adk_request_input amount "How much ("yes")?"', `clerk answers refund ${PAUSED}`]);
    expect(await chat.turn(answer("amount", { cents: 1250 }))).toEqual(['clerk answers refund {"result":"paid 1250"}', 'clerk: Result: {"result":"paid 1250"}']);
    expect(ran).toEqual(["draft", "approve", "amount", "pay"]);
    expect((await chat.stored()).state).toEqual({ drafted: "order 7", paid: 1250 });
  });

  it("runs a node with rerunOnResume again on the answer, which it reads from ctx.resumeInputs", async () => {
    const runs: unknown[] = [];
    const confirm = node(async function* confirm(ctx, item: string) {
      runs.push(ctx.resumeInputs.ok);
      if (ctx.resumeInputs.ok === undefined) yield new RequestInput({ interruptId: "ok", message: `Ship ${item}?` });
      else yield `shipped ${item} (${JSON.stringify(ctx.resumeInputs.ok)})`;
    }, { name: "confirm", inputSchema: z.string(), rerunOnResume: true });
    const { model } = callingModel({ name: "confirm", args: { request: "the lamp" } });
    const chat = await conversation(new LlmAgent({ name: "clerk", model, tools: [new NodeTool(confirm)] }));
    await chat.turn(userText("Ship the lamp"));
    expect(await chat.turn(answer("ok", { result: "sure" }))).toEqual(['clerk answers confirm {"result":"shipped the lamp (\\"sure\\")"}', 'clerk: Result: {"result":"shipped the lamp (\\"sure\\")"}']);
    expect(runs).toEqual([undefined, "sure"]);
  });

  it("refuses an answer that misses the question's responseSchema with an error event, keeps the question waiting, and takes a right one after", async () => {
    const ask = node(async function* ask() {
      yield new RequestInput({ interruptId: "size", message: "Which size?", responseSchema: z.object({ size: z.enum(["S", "M", "L"]) }) });
    }, { name: "ask", inputSchema: z.string() });
    const { model } = callingModel({ name: "ask", args: { request: "shirt" } });
    const chat = await conversation(new LlmAgent({ name: "clerk", model, tools: [new NodeTool(ask)] }));
    await chat.turn(userText("A shirt"));
    const before = (await chat.stored()).events.length;

    expect(await chat.turn(answer("size", { size: "XXL" }))).toEqual(["clerk: error INTERRUPT_ANSWER_MISMATCH", `clerk answers ask ${PAUSED}`]);
    const stored = (await chat.stored()).events;
    const refusal = stored.find((event) => event.errorCode === "INTERRUPT_ANSWER_MISMATCH")!;
    console.log(`The person sees: ${refusal.errorMessage}`);
    expect(refusal.errorMessage).toBe('The answer to "size" does not match the responseSchema its question gave: size: must be one of ["S","M","L"]. The question is still waiting: answer in that shape, or wrap a bare value as {"result": …}.');
    // What was stored before is as it was; the answer, the refusal and the call's renewed wait were added.
    expect(stored.length).toBe(before + 3);
    expect(getPendingUserInputRequests(stored).map((request) => request.interruptId)).toEqual(["size"]);

    expect(await chat.turn(answer("size", { size: "M" }))).toEqual(['clerk answers ask {"size":"M"}', 'clerk: Result: {"size":"M"}']);
  });

  it("refuses an answer sent again, and one to a question never asked, before storing anything", async () => {
    const ask = node(async function* ask() {
      yield new RequestInput({ interruptId: "sure", message: "Sure?" });
    }, { name: "ask", inputSchema: z.string() });
    const { model } = callingModel({ name: "ask", args: { request: "x" } });
    const chat = await conversation(new LlmAgent({ name: "clerk", model, tools: [new NodeTool(ask)] }));
    await chat.turn(userText("Go"));
    expect(await chat.turn(answer("other", { result: "yes" }))).toEqual(['threw No function call "adk_request_input" with id "other" is waiting for an answer in this session. Answer the id given in the request event.']);
    await chat.turn(answer("sure", { result: "yes" }));
    const events = (await chat.stored()).events.length;
    expect(await chat.turn(answer("sure", { result: "no" }))).toEqual(['threw Question "sure" was already answered; each question takes one answer. Nothing was changed. Answer a question that is still waiting (getPendingUserInputRequests lists them), or send a new message.']);
    expect((await chat.stored()).events.length).toBe(events);
  });

  it("lets the person talk to the agent while the question waits; the model reads the call as waiting, and the answer still takes it up", async () => {
    const ask = node(async function* ask() {
      yield new RequestInput({ interruptId: "sure", message: "Sure?" });
    }, { name: "ask", inputSchema: z.string() });
    const requests: LlmRequest[] = [];
    const model = new ScriptedModel([
      functionCallsResponse({ name: "ask", args: { request: "x" } }),
      (request) => (requests.push(request), textResponse("It is waiting for your answer.")),
      (request) => (requests.push(request), textResponse("Done.")),
    ]);
    const chat = await conversation(new LlmAgent({ name: "clerk", model, tools: [new NodeTool(ask)] }));
    await chat.turn(userText("Go"));
    expect(await chat.turn(userText("What is happening?"))).toEqual(["clerk: It is waiting for your answer."]);
    expect(JSON.stringify(requests[0]!.contents)).toContain("has not finished yet");
    expect(await chat.turn(answer("sure", { result: "yes" }))).toEqual(['clerk answers ask {"result":"yes"}', "clerk: Done."]);
    // No response to a call the model never made reaches it (a provider refuses one).
    expect(JSON.stringify(requests[1]!.contents)).not.toContain("adk_request_input");
  });

  it("takes up two calls in one response one at a time: the model is called once both have their results", async () => {
    const ask = node(async function* ask(_ctx, item: string) {
      yield new RequestInput({ message: `Keep ${item}?` });
    }, { name: "ask", inputSchema: z.string() });
    const { model, requests } = callingModel({ name: "ask", args: { request: "the lamp" } }, { name: "ask", args: { request: "the chair" } });
    const chat = await conversation(new LlmAgent({ name: "clerk", model, tools: [new NodeTool(ask)] }));
    await chat.turn(userText("Tidy up"));
    const questions = getPendingUserInputRequests((await chat.stored()).events);
    expect(questions.map((question) => question.message)).toEqual(["Keep the lamp?", "Keep the chair?"]);
    // Default interrupt ids are new UUIDs: two calls of one node never share a question.
    expect(new Set(questions.map((question) => question.interruptId)).size).toBe(2);

    expect(await chat.turn(answer(questions[1]!.interruptId, { result: "no" }))).toEqual([`clerk answers ask ${PAUSED} | clerk answers ask {"result":"no"}`]);
    expect(requests).toHaveLength(0);
    expect(await chat.turn(answer(questions[0]!.interruptId, { result: "yes" }))).toEqual(['clerk answers ask {"result":"yes"}', 'clerk: Result: [{"result":"yes"},{"result":"no"}]']);
  });

  it("pauses and resumes inside a workflow's agent node: the node waits on the question, and the workflow goes on after it", async () => {
    const ask = node(async function* ask() {
      yield new RequestInput({ interruptId: "sure", message: "Sure?" });
    }, { name: "ask", inputSchema: z.string() });
    const { model } = callingModel({ name: "ask", args: { request: "x" } });
    const after: unknown[] = [];
    const flow = new Workflow({ name: "flow", edges: [["START", new LlmAgent({ name: "clerk", model, tools: [new NodeTool(ask)] }), node((_ctx, input: unknown) => (after.push(input), "filed"), { name: "file" })]] });
    const chat = await conversation(flow);
    expect(await chat.turn(userText("Go"))).toEqual(["clerk calls ask", 'ask calls adk_request_input sure "Sure?"', `clerk answers ask ${PAUSED}`]);
    expect(after).toEqual([]);
    expect(await chat.turn(answer("sure", { result: "yes" }))).toEqual(['clerk answers ask {"result":"yes"}', 'clerk: Result: {"result":"yes"}', "file: filed"]);
    expect(after).toEqual(['Result: {"result":"yes"}']);
  });

  it("pauses a SequentialAgent at the agent whose call waits, and on the answer finishes that agent, then runs the next", async () => {
    const ask = node(async function* ask() {
      yield new RequestInput({ interruptId: "sure", message: "Sure?" });
    }, { name: "ask", inputSchema: z.string() });
    const { model } = callingModel({ name: "ask", args: { request: "x" } });
    const first = new LlmAgent({ name: "first", model, tools: [new NodeTool(ask)] });
    const second = new LlmAgent({ name: "second", model: new ScriptedModel([textResponse("Second step done.")]) });
    const chat = await conversation(new SequentialAgent({ name: "pipeline", subAgents: [first, second] }));
    expect(await chat.turn(userText("Go"))).toEqual(["first calls ask", 'ask calls adk_request_input sure "Sure?"', `first answers ask ${PAUSED}`]);
    expect(await chat.turn(answer("sure", { result: "yes" }))).toEqual(['first answers ask {"result":"yes"}', 'first: Result: {"result":"yes"}', "second: Second step done."]);
  });

  it("pauses and resumes a NodeTool nested in another: each level's node is taken up where it stopped", async () => {
    const ask = node(async function* ask() {
      yield new RequestInput({ interruptId: "inner", message: "Inner question?" });
    }, { name: "ask", inputSchema: z.string() });
    const inner = callingModel({ name: "ask", args: { request: "x" } });
    const outerFlow = new Workflow({ name: "outer_flow", edges: [["START", new LlmAgent({ name: "helper", model: inner.model, tools: [new NodeTool(ask)] })]], inputSchema: z.object({ request: z.string() }) });
    const outer = callingModel({ name: "outer_flow", args: { request: "go" } });
    const chat = await conversation(new LlmAgent({ name: "clerk", model: outer.model, tools: [new NodeTool(outerFlow)] }));
    // The inner agent's waiting call and its question reach the caller, as every event that waits does.
    expect(await chat.turn(userText("Go"))).toEqual(["clerk calls outer_flow", "helper calls ask", 'ask calls adk_request_input inner "Inner question?"', `helper answers ask ${PAUSED}`, `clerk answers outer_flow ${PAUSED}`]);
    expect(await chat.turn(answer("inner", { result: "deep" }))).toEqual(['clerk answers outer_flow {"result":"Result: {\\"result\\":\\"deep\\"}"}', 'clerk: Result: {"result":"Result: {\\"result\\":\\"deep\\"}"}']);
    // The inner agent got the inner node's answer as its call's result.
    expect(inner.requests.at(-1)!.contents.at(-1)!.parts![0]!.functionResponse!.response).toEqual({ result: "deep" });
  });

  it("pauses for a confirmation a tool inside the node asks, and runs that tool once on the person's yes", async () => {
    let refunds = 0;
    const refundTool = new FunctionTool({ name: "issue_refund", description: "Refunds.", parameters: { type: "object", properties: { cents: { type: "number" } } }, requireConfirmation: true, execute: ({ cents }) => ({ refunded: cents, count: ++refunds }) });
    const refunder = new LlmAgent({ name: "refunder", model: new ScriptedModel([functionCallsResponse({ name: "issue_refund", args: { cents: 500 } }), textResponse("Refunded 500.")]), tools: [refundTool] });
    const flow = new Workflow({ name: "refund_flow", edges: [["START", refunder]], inputSchema: z.object({ request: z.string() }) });
    const { model } = callingModel({ name: "refund_flow", args: { request: "refund order 7" } });
    const chat = await conversation(new LlmAgent({ name: "clerk", model, tools: [new NodeTool(flow)] }));
    await chat.turn(userText("Refund order 7"));
    const [request] = getPendingUserInputRequests((await chat.stored()).events);
    expect([request!.kind, request!.toolName, refunds]).toEqual(["confirmation", "issue_refund", 0]);
    expect(await chat.turn({ role: "user", parts: [{ functionResponse: { id: request!.interruptId, name: "adk_request_confirmation", response: { confirmed: true } } }] })).toEqual([
      'clerk answers refund_flow {"result":"Refunded 500."}',
      'clerk: Result: {"result":"Refunded 500."}',
    ]);
    expect(refunds).toBe(1);
    // A replayed yes is refused: the refund does not run again.
    expect((await chat.turn({ role: "user", parts: [{ functionResponse: { id: request!.interruptId, name: "adk_request_confirmation", response: { confirmed: true } } }] }))[0]).toMatch(/^threw Request ".*" was already answered/);
    expect(refunds).toBe(1);
  });

  it("takes the call up in another process on the same SQLite file", async () => {
    const file = join(tempDir("toolsmith-node-tool-"), "sessions.db");
    const first = startWorker("test/workflow/workers/node-tool-turn.ts", { file });
    const firstExit = await first.exited;
    expect(firstExit, firstExit.stderr).toMatchObject({ code: 0 });
    const paused = first.lines[0] as { sessionId: string; said: string[]; ran: string[] };
    expect(paused.said).toEqual(["clerk calls refund", "approve calls adk_request_input", `clerk answers refund ${PAUSED}`]);
    expect(paused.ran).toEqual(["draft", "approve"]);

    const second = startWorker("test/workflow/workers/node-tool-turn.ts", { file, sessionId: paused.sessionId, answer: "yes" });
    const secondExit = await second.exited;
    expect(secondExit, secondExit.stderr).toMatchObject({ code: 0 });
    const resumed = second.lines[0] as { said: string[]; ran: string[] };
    expect(resumed.said).toEqual(['clerk answers refund {"result":"paid"}', 'Refund: {"result":"paid"}']);
    // The new process ran only what was left.
    expect(resumed.ran).toEqual(["pay"]);
  });
});

describe("an agent run as a tool inside a workflow's agent node", () => {
  it("asks for a confirmation, and on the answer the workflow runs the agent node again and its call goes on", async () => {
    let paid = 0;
    const pay = new FunctionTool({ name: "pay", description: "Pays.", parameters: { type: "object", properties: {} }, requireConfirmation: true, execute: () => ({ paid: ++paid }) });
    const payer = new LlmAgent({ name: "payer", description: "Pays.", model: new ScriptedModel([functionCallsResponse({ name: "pay", args: {} }), textResponse("Paid once.")]), tools: [pay] });
    const { model } = callingModel({ name: "payer", args: { request: "pay" } });
    const chat = await conversation(new Workflow({ name: "flow", edges: [["START", new LlmAgent({ name: "clerk", model, tools: [new AgentTool({ agent: payer })] })]] }));
    await chat.turn(userText("Pay the bill"));
    const [request] = getPendingUserInputRequests((await chat.stored()).events);
    expect(request!.kind).toBe("confirmation");
    expect(await chat.turn({ role: "user", parts: [{ functionResponse: { id: request!.interruptId, name: "adk_request_confirmation", response: { confirmed: true } } }] })).toEqual([
      'clerk answers payer {"result":"Paid once."}',
      'clerk: Result: {"result":"Paid once."}',
    ]);
    expect(paid).toBe(1);
  });
});
