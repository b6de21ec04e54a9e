import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createSessionService,
  FunctionTool,
  isCompactedEvent,
  LlmAgent,
  LlmSummarizer,
  LongRunningFunctionTool,
  Runner,
  TokenBasedContextCompactor,
  type CompactedEvent,
  type Content,
  type Event,
  type LlmRequest,
  type LlmResponse,
} from "toolsmith";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "toolsmith/testing";
import { tempDir } from "../support/temp-dir.js";

const dir = tempDir();

/**
 * The model's own tokenizer in this test: JSON characters over three. It counts more than toolsmith's
 * estimate (texts and call JSON over four), as real tokenizers do for JSON, so the compactor must rely on
 * the counts the model reports, not on its estimate alone.
 */
function modelTokens(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 3);
}

function requestTokens(request: LlmRequest): number {
  return modelTokens({ system: request.systemInstruction, contents: request.contents, tools: request.functionDeclarations });
}

/** A scripted answer that reports its usage as a real model does. */
function answer(response: LlmResponse) {
  return (request: LlmRequest): LlmResponse => ({ ...response, usageMetadata: { promptTokenCount: requestTokens(request), candidatesTokenCount: modelTokens(response.content) } });
}

const BUDGET = 4_000;
const filler = (turn: number, what: string) => `${what} for step ${turn}: ${"the measurements were recorded and checked twice ".repeat(3)}`;

function makeAgent(model: ScriptedModel, summarizerModel: ScriptedModel) {
  return new LlmAgent({
    name: "worker",
    model,
    instruction: "Work through the user's steps one at a time, using the tools.",
    tools: [
      new FunctionTool({ name: "note", description: "Saves a note.", parameters: { type: "object", properties: { text: { type: "string" } } }, execute: ({ text }) => ({ saved: text }) }),
      new FunctionTool({ name: "lookup", description: "Looks a city up.", parameters: { type: "object", properties: { city: { type: "string" } } }, execute: ({ city }) => ({ city, population: String(city).length * 100_000, note: filler(0, "lookup") }) }),
      new LongRunningFunctionTool({ name: "start_job", description: "Starts a batch job.", execute: () => ({ status: "pending", job: "batch" }) }),
      new LongRunningFunctionTool({ name: "ask_manager", description: "Asks the manager; the answer comes later.", execute: () => undefined }),
    ],
    contextCompactors: [new TokenBasedContextCompactor({ tokenThreshold: BUDGET, eventRetentionSize: 6, summarizer: new LlmSummarizer({ llm: summarizerModel }) })],
  });
}

/** Every function call in a request is answered in the content right after it, and every answer follows its call. */
function brokenPairs(request: LlmRequest): string[] {
  const problems: string[] = [];
  request.contents.forEach((content: Content, index) => {
    const calls = (content.parts ?? []).flatMap((part) => (part.functionCall ? [part.functionCall.id!] : []));
    const responses = new Set((request.contents[index + 1]?.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse.id!] : [])));
    for (const id of calls) if (!responses.has(id)) problems.push(`call ${id} without its answer next`);
    const answered = (content.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse.id!] : []));
    const previousCalls = new Set((request.contents[index - 1]?.parts ?? []).flatMap((part) => (part.functionCall ? [part.functionCall.id!] : [])));
    for (const id of answered) if (!previousCalls.has(id)) problems.push(`answer ${id} without its call before`);
  });
  return problems;
}

describe("a 500-turn session with a TokenBasedContextCompactor, over a SQLite file", () => {
  it("keeps every request under the budget with every call and its answer together, stores every event, and resumes from the compacted view", async () => {
    const file = join(dir, "long.db");
    const sessionService = await createSessionService(`sqlite://${file}`);
    const model = new ScriptedModel([]);
    const summarizerModel = new ScriptedModel([]);
    const runner = new Runner({ appName: "app", agent: makeAgent(model, summarizerModel), sessionService });
    const session = await sessionService.createSession({ appName: "app", userId: "u" });
    const yielded: Event[] = [];
    const waiting = new Map<number, { id: string; name: string; response: Record<string, unknown> }>();
    const answeredLongRunning: string[] = [];
    let userMessages = 0;
    const summaries = () => summarizerModel.push((request) => {
      const text = request.contents[0]!.parts![0]!.text!;
      return textResponse(`Summary ${summarizerModel.requests.length}: ${text.length} characters of history; open jobs are tracked. ${"Key facts kept. ".repeat(10)}`);
    });

    for (let turn = 1; turn <= 500; turn++) {
      const due = waiting.get(turn);
      let message: Content;
      if (due) {
        // The client's answer to a long-running call made six turns ago.
        message = { role: "user", parts: [{ functionResponse: { id: due.id, name: due.name, response: due.response } }] };
        model.push(answer(textResponse(`The ${due.name} result is in.`)));
        answeredLongRunning.push(due.id);
      } else {
        message = userMessage(filler(turn, "Please do the work"));
        if (turn % 25 === 5) model.push(answer(functionCallsResponse({ name: "start_job", args: {} })), answer(textResponse("The job is under way.")));
        else if (turn % 25 === 15) model.push(answer(functionCallsResponse({ name: "ask_manager", args: {} })));
        else if (turn % 3 === 0) model.push(answer(functionCallsResponse({ name: "lookup", args: { city: "Paris" } }, { name: "lookup", args: { city: "Lyon" } }, { name: "lookup", args: { city: "Nice" } })), answer(textResponse(filler(turn, "Looked up three cities"))));
        else model.push(answer(functionCallsResponse({ name: "note", args: { text: filler(turn, "Note") } })), answer(textResponse(`Noted step ${turn}.`)));
      }
      summaries();
      const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: message }));
      userMessages++;
      expect(events.filter((event) => event.errorCode)).toEqual([]);
      yielded.push(...events);
      model.assertComplete();
      for (const event of events) {
        const call = event.content?.parts?.[0]?.functionCall;
        if (call?.name === "start_job") waiting.set(turn + 6, { id: call.id!, name: call.name, response: { status: "done", rows: 1200 } });
        if (call?.name === "ask_manager") waiting.set(turn + 6, { id: call.id!, name: call.name, response: { approved: true } });
      }
    }

    // What the model received: every request within the budget, by the model's own count, and no call parted from its answer.
    const sizes = model.requests.map(requestTokens);
    const records = yielded.filter(isCompactedEvent);
    console.log(
      `500 turns: ${model.requests.length} model requests, largest ${Math.max(...sizes)} tokens (model's count) against a budget of ${BUDGET}; ` +
        `without compaction the last would have been ${requestTokens({ ...model.requests.at(-1)!, contents: [] }) + modelTokens(yielded.filter((event) => !isCompactedEvent(event)).map((event) => event.content))} tokens; ` +
        `${records.length} compactions, ${summarizerModel.requests.length} summariser calls; ${yielded.length} events yielded`,
    );
    const over = sizes.flatMap((size, index) => (size > BUDGET ? [`request ${index}: ${size} tokens in ${model.requests[index]!.contents.length} contents`] : []));
    expect(over).toEqual([]);
    expect(model.requests.flatMap(brokenPairs)).toEqual([]);
    expect(records.length).toBeGreaterThan(10);
    // Each compaction is one event, made by one summariser call.
    expect(records.length).toBe(summarizerModel.requests.length);
    // A long-running or paused call is never summarised before its answer: the request after each answer shows the call itself.
    for (const id of answeredLongRunning) {
      const request = model.requests.find((candidate) => candidate.contents.some((content) => content.parts?.some((part) => part.functionResponse?.id === id && (part.functionResponse.response as { status?: string }).status !== "pending" && (part.functionResponse.response as { status?: string }).status !== "paused")));
      expect(request, `the request answering ${id}`).toBeDefined();
      expect(request!.contents.some((content) => content.parts?.some((part) => part.functionCall?.id === id))).toBe(true);
    }
    expect(model.requests.some((request) => JSON.stringify(request.contents).includes("which the summary covers"))).toBe(false);

    // The stored session keeps every event: every one the run yielded, in order, and every user message.
    await sessionService.close();
    const reopened = await createSessionService(`sqlite://${file}`);
    const stored = (await reopened.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
    expect(stored.events.filter((event) => event.author !== "user").map((event) => event.id)).toEqual(yielded.map((event) => event.id));
    expect(stored.events.filter((event) => event.author === "user")).toHaveLength(userMessages);
    expect(stored.events.filter(isCompactedEvent).map((event) => event.id)).toEqual(records.map((event) => event.id));
    const storedIds = new Set(stored.events.map((event) => event.id));
    for (const record of records) expect(storedIds.has(record.compactedThroughEventId)).toBe(true);
    console.log(`stored: ${stored.events.length} events (${userMessages} user messages, ${records.length} compaction records); the last summary covers ${records.at(-1)!.compactedEventCount} events`);

    // A new Runner over the same file continues from the compacted view: the latest summary, then what followed it.
    const resumedModel = new ScriptedModel([answer(textResponse("Continuing from the summary."))]);
    const resumedRunner = new Runner({ appName: "app", agent: makeAgent(resumedModel, new ScriptedModel([])), sessionService: reopened });
    await collect(resumedRunner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Where were we?") }));
    const latest = stored.events.filter(isCompactedEvent).at(-1) as CompactedEvent;
    const sent = resumedModel.requests[0]!;
    expect(sent.contents[0]!.parts![0]!.text).toBe(`[Previous Context Summary]:\n${latest.compactedContent}`);
    const afterBoundary = stored.events.slice(stored.events.findIndex((event) => event.id === latest.compactedThroughEventId) + 1).filter((event) => !isCompactedEvent(event));
    expect(sent.contents.length).toBe(1 + afterBoundary.length + 1);
    expect(requestTokens(sent)).toBeLessThanOrEqual(BUDGET);
    expect(brokenPairs(sent)).toEqual([]);
    await reopened.close();
  }, 300_000);
});
