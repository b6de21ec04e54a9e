/**
 * `npm run bench:compaction`: what building a model request costs over a long
 * session, with and without context compaction, toolsmith and @google/adk side
 * by side in one process. The session: 1,000 turns (a user message, a tool
 * call, its result, an answer), 4,000 events. With compaction, a record
 * covers all but the last 24 events, as after a run that stayed within its
 * budget. Measured per model call: the compaction check (`shouldCompact`) and
 * building the request's contents (toolsmith: the whole request with
 * `buildLlmRequest`; ADK: its content request processor).
 * `-- --quick` measures fewer calls.
 */
import * as adk from "@google/adk";
import { LlmAgent, TokenBasedContextCompactor, createCompactedEvent, type Event } from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { createInvocationContext } from "../src/agents/invocation-context.js";
import { buildLlmRequest } from "../src/llm-agent/build-llm-request.js";
import { InMemorySessionService } from "../src/sessions/in-memory-session-service.js";
import { printTable } from "./print-table.js";

const calls = process.argv.includes("--quick") ? 200 : 2_000;
console.info = () => undefined;
console.debug = () => undefined;

/** 1,000 turns of a working session, each event a millisecond after the last (ADK orders compaction by time). */
function longHistory(turns: number): Event[] {
  const events: Event[] = [];
  let time = 1_700_000_000_000;
  const add = (author: string, content: Event["content"]) => events.push({ id: `e${events.length}`, invocationId: `i${Math.floor(events.length / 4)}`, author, content, actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} }, timestamp: time++ });
  for (let turn = 0; turn < turns; turn++) {
    add("user", { role: "user", parts: [{ text: `Step ${turn}: check the figures for region ${turn % 12} and note anything odd.` }] });
    add("worker", { role: "model", parts: [{ functionCall: { id: `call-${turn}`, name: "lookup", args: { region: turn % 12 } } }] });
    add("worker", { role: "user", parts: [{ functionResponse: { id: `call-${turn}`, name: "lookup", response: { region: turn % 12, total: turn * 37, flagged: turn % 5 === 0 } } }] });
    add("worker", { role: "model", parts: [{ text: `Region ${turn % 12} totals ${turn * 37}; ${turn % 5 === 0 ? "flagged for review" : "nothing odd"}.` }] });
  }
  return events;
}

const history = longHistory(1_000);
const kept = history.length - 24;
const record = createCompactedEvent({
  invocationId: "i-compaction",
  author: "worker",
  startTime: history[0]!.timestamp,
  endTime: history[kept - 1]!.timestamp,
  compactedContent: "Steps 0 to 993 checked; regions flagged every fifth step were noted for review.",
  compactedThroughEventId: history[kept - 1]!.id,
  compactedEventCount: kept,
  timestamp: history.at(-1)!.timestamp + 1,
});
// The record is stored when the compaction was made: after the 24 events it kept (ADK's and toolsmith's order).
const compactedHistory = [...history, record];

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function measure(run: () => Promise<unknown>): Promise<number> {
  for (let warm = 0; warm < 50; warm++) await run();
  const samples: number[] = [];
  for (let index = 0; index < calls; index++) {
    const started = performance.now();
    await run();
    samples.push((performance.now() - started) * 1000);
  }
  return median(samples);
}

// toolsmith: the request its loop builds, with the compaction check before it when the agent compacts.
const sessionService = new InMemorySessionService();
const model = new ScriptedModel([]);
const plain = new LlmAgent({ name: "worker", model, instruction: "Check the figures." });
const compactor = new TokenBasedContextCompactor({ tokenThreshold: 8_000, eventRetentionSize: 20 });
const compacting = new LlmAgent({ name: "worker", model, instruction: "Check the figures.", contextCompactors: [compactor] });
const toolsmithContext = (agent: LlmAgent, events: Event[]) =>
  createInvocationContext({ agent, sessionService, session: { id: "s", appName: "app", userId: "u", state: {}, events, lastUpdateTime: 0 } });
const toolsmithPlain = toolsmithContext(plain, history);
const toolsmithCompacted = toolsmithContext(compacting, compactedHistory);
const toolsmithRow = {
  whole: await measure(async () => buildLlmRequest(plain, toolsmithPlain, model)),
  check: await measure(async () => compactor.shouldCompact(toolsmithCompacted)),
  compacted: await measure(async () => {
    compactor.shouldCompact(toolsmithCompacted);
    return buildLlmRequest(compacting, toolsmithCompacted, model);
  }),
  contents: (await buildLlmRequest(compacting, toolsmithCompacted, model)).request.contents.length,
  wholeContents: (await buildLlmRequest(plain, toolsmithPlain, model)).request.contents.length,
};

// ADK: its content processor (which reads the latest CompactedEvent whenever there is one) and its compactor's check.
const adkCompactor = new adk.TokenBasedContextCompactor({ tokenThreshold: 8_000, eventRetentionSize: 20, summarizer: { summarize: async () => { throw new Error("not called"); } } as never });
const adkAgent = new adk.LlmAgent({ name: "worker", model: "gemini-2.5-flash", instruction: "Check the figures." });
const adkContext = (events: Event[]) => ({ agent: adkAgent, session: { id: "s", appName: "app", userId: "u", state: {}, events, lastUpdateTime: 0 }, branch: undefined }) as never;
const adkContents = async (context: never) => {
  const request = { contents: [], toolsDict: {}, config: {}, liveConnectConfig: {} } as { contents: unknown[] };
  for await (const _ of adk.CONTENT_REQUEST_PROCESSOR.runAsync(context, request as never)) void _;
  return request.contents.length;
};
const adkPlain = adkContext(history);
const adkCompacted = adkContext(compactedHistory);
const adkRow = {
  whole: await measure(() => adkContents(adkPlain)),
  check: await measure(async () => adkCompactor.shouldCompact(adkCompacted)),
  compacted: await measure(async () => {
    await adkCompactor.shouldCompact(adkCompacted);
    return adkContents(adkCompacted);
  }),
  contents: await adkContents(adkCompacted),
  wholeContents: await adkContents(adkPlain),
};

const fmt = (value: number) => value.toFixed(1);
console.log(`\nRequest building over a ${history.length.toLocaleString("en-US")}-event session, median µs per model call over ${calls} calls\n`);
printTable([
  ["", "toolsmith (whole request)", "@google/adk (contents only)"],
  ["no compaction: the whole history", `${fmt(toolsmithRow.whole)} (${toolsmithRow.wholeContents} contents)`, `${fmt(adkRow.whole)} (${adkRow.wholeContents} contents)`],
  ["compaction check alone (shouldCompact)", fmt(toolsmithRow.check), fmt(adkRow.check)],
  ["compacted: check + request from the summary on", `${fmt(toolsmithRow.compacted)} (${toolsmithRow.contents} contents)`, `${fmt(adkRow.compacted)} (${adkRow.contents} contents)`],
  ["whole / compacted (times less)", fmt(toolsmithRow.whole / toolsmithRow.compacted), fmt(adkRow.whole / adkRow.compacted)],
]);
