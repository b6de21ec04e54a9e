import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as toolsmith from "../../src/index.js";
import { SqliteSessionService } from "../../src/sqlite/index.js";
import { functionCallsResponse, ScriptedModel, textResponse } from "../../src/testing/index.js";
import { tempDir } from "../support/temp-dir.js";

// Both modules export the names these programs use; each is written once against either.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Framework = any;
type Message = { role: string; parts: Array<Record<string, unknown>> };

const text = (value: string): Message => ({ role: "user", parts: [{ text: value }] });
const answer = (id: string, response: Record<string, unknown>): Message => ({ role: "user", parts: [{ functionResponse: { id, name: "adk_request_input", response } }] });

/**
 * `draft -> ask (a question to the person) -> publish`, counting how often each node runs. Sends each message as
 * a run of its own on one session and records, per run, each event's author, path, output and what it asks, and
 * what a run threw.
 */
async function conversation(framework: Framework, messages: Message[], options: { responseSchema?: unknown; sessionService?: unknown } = {}) {
  const ran: string[] = [];
  const draft = framework.node((_ctx: unknown, input: string) => (ran.push("draft"), `draft of ${input}`), { name: "draft" });
  const ask = framework.node(
    async function* ask(_ctx: unknown, text: string) {
      ran.push("ask");
      yield new framework.RequestInput({ message: `Publish ${text}?`, interruptId: "publish", payload: { text }, responseSchema: options.responseSchema });
    },
    { name: "ask" },
  );
  const publish = framework.node((_ctx: unknown, reply: unknown) => (ran.push("publish"), `published after ${JSON.stringify(reply)}`), { name: "publish" });
  const workflow = new framework.Workflow({ name: "wf", edges: [["START", draft, ask, publish]] });
  const runner = options.sessionService ? new framework.Runner({ agent: workflow, appName: "app", sessionService: options.sessionService }) : new framework.InMemoryRunner({ agent: workflow, appName: "app" });
  const service = options.sessionService ?? runner.sessionService;
  const session = await service.createSession({ appName: "app", userId: "u" });
  const runs: string[][] = [];
  for (const message of messages) {
    const seen: string[] = [];
    try {
      for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: message })) seen.push(said(event));
    } catch (error) {
      seen.push(`threw: ${(error as Error).message.slice(0, 60)}`);
    }
    runs.push(seen);
  }
  return { runs, ran, service, session };
}

/** An event as one line: who, where, its output, what it asks; toolsmith's paused placeholder and ADK's own bookkeeping event are marked. */
function said(event: Record<string, any>): string {
  const call = event.content?.parts?.find((part: Record<string, any>) => part.functionCall)?.functionCall;
  const response = event.content?.parts?.find((part: Record<string, any>) => part.functionResponse)?.functionResponse;
  if (response?.response?.status === "paused") return `${event.author}: (placeholder while ${response.id} waits)`;
  if (!event.content && event.output === undefined && !event.errorCode) return `${event.author}: (bookkeeping)`;
  if (event.errorCode) return `${event.author}: error ${event.errorCode}`;
  if (call) return `${event.author} [${event.nodeInfo?.path}]: asks ${call.name} ${call.id} ${JSON.stringify(call.args.message)}`;
  return `${event.author} [${event.nodeInfo?.path}]: ${JSON.stringify(event.output)}`;
}

/** The runs without the events only one of the frameworks makes (see docs/adk-compat.md, Graph workflows). */
const shared = (runs: string[][]) => runs.map((run) => run.filter((line) => !line.includes("(placeholder") && !line.includes("(bookkeeping)")));

describe("a workflow that asks the person (RequestInput) and resumes, side by side with @google/adk", () => {
  it("pauses at the question, and on the answer (a function response) goes on from there: the nodes before it do not run again, the answer is the asking node's output", async () => {
    const messages = [text("hello"), answer("publish", { result: "yes" })];
    const [ours, theirs] = [await conversation(toolsmith, messages), await conversation(adk, messages)];
    console.log(JSON.stringify(ours.runs, null, 1));
    expect(shared(ours.runs)).toEqual(shared(theirs.runs));
    expect(ours.runs).toEqual([
      ['draft [wf.draft]: "draft of hello"', 'ask [wf.ask]: asks adk_request_input publish "Publish draft of hello?"', "ask: (placeholder while publish waits)"],
      ['publish [wf.publish]: "published after \\"yes\\""'],
    ]);
    expect([ours.ran, theirs.ran]).toEqual([["draft", "ask", "publish"], ["draft", "ask", "publish"]]);
  });

  it("takes plain text as the answer when one question is waiting, and an object answer as it is", async () => {
    for (const messages of [[text("hello"), text("go ahead")], [text("hello"), answer("publish", { approved: true, note: "ok" })]]) {
      const [ours, theirs] = [await conversation(toolsmith, messages), await conversation(adk, messages)];
      expect(shared(ours.runs)).toEqual(shared(theirs.runs));
    }
    expect((await conversation(toolsmith, [text("hello"), text("go ahead")])).runs[1]).toEqual(['publish [wf.publish]: "published after \\"go ahead\\""']);
  });

  it("refuses a structured answer that misses the question's responseSchema, keeping the question open to be answered again", async () => {
    const responseSchema = z.object({ approved: z.boolean() });
    const ours = await conversation(toolsmith, [text("hello"), answer("publish", { approved: "maybe" }), answer("publish", { approved: true })], { responseSchema });
    expect(ours.runs[1]).toEqual(["wf: error INTERRUPT_ANSWER_MISMATCH"]);
    expect(ours.runs[2]).toEqual(['publish [wf.publish]: "published after {\\"approved\\":true}"']);
    const stored = await ours.service.getSession({ appName: "app", userId: "u", sessionId: ours.session.id });
    const refusal = stored.events.find((event: toolsmith.Event) => event.errorCode === "INTERRUPT_ANSWER_MISMATCH");
    expect(refusal.errorMessage).toBe('The answer to "publish" does not match the responseSchema its question gave: approved: must be boolean. The question is still waiting: answer in that shape, or wrap a bare value as {"result": …}.');
  });

  it("refuses an answer to a question that is no longer waiting before storing it, and a new message after the answer runs the workflow afresh", async () => {
    const ours = await conversation(toolsmith, [text("hello"), answer("publish", { result: "yes" }), answer("publish", { result: "again" }), text("second")]);
    expect(ours.runs[2]).toEqual(['threw: Question "publish" was already answered; each question takes']);
    const stored = await ours.service.getSession({ appName: "app", userId: "u", sessionId: ours.session.id });
    expect(stored.events.some((event: toolsmith.Event) => JSON.stringify(event.content ?? {}).includes("again"))).toBe(false);
    expect(ours.runs[3]).toEqual(['draft [wf.draft]: "draft of second"', 'ask [wf.ask]: asks adk_request_input publish "Publish draft of second?"', "ask: (placeholder while publish waits)"]);
  });

  it("resumes in another runner on a real SQLite file, as another process would", async () => {
    const path = `${tempDir("toolsmith-workflow-resume-")}/sessions.db`;
    const first = new SqliteSessionService({ path });
    const paused = await conversation(toolsmith, [text("hello")], { sessionService: first });
    await first.close();
    const second = new SqliteSessionService({ path });
    // The same workflow, built again by a new process, on the same session.
    const draft = toolsmith.node(() => "never again", { name: "draft" });
    const ask = toolsmith.node(async function* ask() {
      yield new toolsmith.RequestInput({ interruptId: "publish" });
    });
    const publish = toolsmith.node((_ctx, reply) => `published after ${JSON.stringify(reply)}`, { name: "publish" });
    const runner = new toolsmith.Runner({ appName: "app", agent: new toolsmith.Workflow({ name: "wf", edges: [["START", draft, ask, publish]] }), sessionService: second });
    const events: string[] = [];
    for await (const event of runner.runAsync({ userId: "u", sessionId: paused.session.id, newMessage: answer("publish", { result: "yes" }) as toolsmith.Content })) events.push(said(event));
    await second.close();
    expect(events).toEqual(['publish [wf.publish]: "published after \\"yes\\""']);
  });
});

describe("a workflow that waits on several questions, and on an agent", () => {
  it("stays waiting until every question running at once is answered, then goes on", async () => {
    const askA = toolsmith.node(async function* ask_a() {
      yield new toolsmith.RequestInput({ interruptId: "a", message: "A?" });
    });
    const askB = toolsmith.node(async function* ask_b() {
      yield new toolsmith.RequestInput({ interruptId: "b", message: "B?" });
    });
    const both = new toolsmith.JoinNode({ name: "both" });
    const runner = new toolsmith.InMemoryRunner({ agent: new toolsmith.Workflow({ name: "wf", edges: [["START", [askA, askB], both]] }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const send = async (message: Message) => {
      const events: string[] = [];
      for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: message as toolsmith.Content })) events.push(said(event));
      return events;
    };
    expect((await send(text("start"))).filter((line) => line.includes("asks"))).toHaveLength(2);
    expect(await send(answer("a", { result: 1 }))).toEqual([]);
    expect(await send(answer("b", { result: 2 }))).toEqual(['both [wf.both]: {"ask_a":1,"ask_b":2}']);
  });

  it("runs an LLM agent node again after the question it asked (adk_request_input) is answered: its model reads the answer, and the next node gets its reply", async () => {
    const requests: toolsmith.LlmRequest[] = [];
    const model = new ScriptedModel([
      functionCallsResponse({ name: "adk_request_input", args: { message: "Which tone?" } }),
      (request: toolsmith.LlmRequest) => (requests.push(request), textResponse(`A ${JSON.stringify(request.contents.at(-1)!.parts![0]!.functionResponse!.response)} poem.`)),
    ] as never);
    const writer = new toolsmith.LlmAgent({ name: "writer", model, tools: [toolsmith.requestInputTool] });
    const after = toolsmith.node((_ctx, reply) => `after: ${String(reply)}`, { name: "after" });
    const runner = new toolsmith.InMemoryRunner({ agent: new toolsmith.Workflow({ name: "wf", edges: [["START", writer, after]] }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    let callId = "";
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: text("write a poem") as toolsmith.Content })) callId ||= event.content?.parts?.find((part) => part.functionCall)?.functionCall?.id ?? "";
    const resumed: string[] = [];
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: answer(callId, { result: "cheerful" }) as toolsmith.Content })) resumed.push(said(event));
    expect(resumed).toEqual(['writer [wf.writer]: "A {\\"result\\":\\"cheerful\\"} poem."', 'after [wf.after]: "after: A {\\"result\\":\\"cheerful\\"} poem."']);
    // Its input was given once: the resumed agent adds no second user turn.
    const stored = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
    expect(stored.events.filter((event) => event.author === "user" && event.content?.parts?.[0]?.text === "write a poem")).toHaveLength(2);
  });
});
