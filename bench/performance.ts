/**
 * `npm run bench:performance`: issue 21's targets, each figure printed next to
 * its target and beside the peers measured in the same run: the floor (plain
 * JavaScript doing the least a tool loop must, `bench/floor-framework.ts`), the least
 * ADK-shaped loop (`bench/least-adk-framework.ts`, a reference: what ADK's event-stream shape
 * costs with nothing else), `@google/adk` and the Vercel AI SDK. `-- --quick` runs fewer iterations;
 * `-- --skip-server` and `-- --skip-storage` leave those parts out.
 *
 * No figure fails the run: a slow machine prints slow figures.
 */
import BetterSqlite3 from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEvent, InMemorySessionService, LlmAgent, Runner, FunctionTool, type Event, type Session, type SessionService } from "../src/index.js";
import { PostgresSessionService } from "../src/postgres/index.js";
import { SqliteSessionService } from "../src/sqlite/index.js";
import { functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../src/testing/index.js";
import { findPostgresBinaries, startPostgresCluster } from "../test/support/postgres-cluster.js";
import { z } from "zod";
import { adk } from "./adk-framework.js";
import { aiSdk } from "./ai-sdk-framework.js";
import { floor } from "./floor-framework.js";
import { leastAdk } from "./least-adk-framework.js";
import { printTable } from "./print-table.js";
import { appendsPerSecond } from "./storage-workloads.js";
import { idleSessionBytes, serverLoad } from "./server-load.js";
import { toolsmith, toolsmithKeepingLive } from "./toolsmith-framework.js";
import { w1InFreshProcesses } from "./w1-in-fresh-processes.js";
import { heapPerSession, parallelWallTime, type Framework } from "./workloads.js";

const quick = process.argv.includes("--quick");
const runs = quick ? 60 : 300;
const sessionCount = quick ? 1_000 : 5_000;
const log = console.log;
console.info = () => undefined;
console.debug = () => undefined;
const fmt = (value: number, digits = 1) => value.toFixed(digits);
const mark = (met: boolean) => (met ? "met" : "not met");
const frameworks: Framework[] = [floor, leastAdk, toolsmith, adk, aiSdk];
/** A row with a figure in toolsmith's column only. */
const toolsmithOnly = (figure: string) => frameworks.map((framework) => (framework === toolsmith ? figure : ""));

log(`node ${process.version}, ${process.platform}/${process.arch}; ${quick ? "quick run" : "full run"}\n`);

// 1-3: the core workloads.
// W1 in fresh processes, each framework alone in each, the frameworks taking turns (see w1-in-fresh-processes.ts):
// as the target measures it (after 30 warm-up conversations), then the steady state after many more.
const steadyWarmups = quick ? 200 : 1_000;
const peers = new Set<Framework>([adk, aiSdk]);
// The peers take 10–40 times as long a turn, so they get fewer processes.
const roundsOf = (framework: Framework) => (peers.has(framework) ? (quick ? 1 : 3) : quick ? 3 : 7);
const w1 = w1InFreshProcesses(frameworks, { roundsOf, runs, steadyWarmups });
const w2 = new Map<Framework, { at100: number; at200: number }>();
const w3 = new Map<Framework, number>();
// ADK runs the calls one after another (a second per response), so it gets the fewest runs.
for (const framework of frameworks) {
  const parallelRuns = framework === adk ? 3 : quick ? 7 : 21;
  w2.set(framework, { at100: await parallelWallTime(framework, 100, 10, parallelRuns), at200: await parallelWallTime(framework, 200, 10, parallelRuns) });
}
for (const framework of frameworks) w3.set(framework, await heapPerSession(framework, sessionCount));
// toolsmith's store packs the sessions beyond its 1,000 most recently used: the figure above mixes both kinds.
const idleBytes = await heapPerSession(toolsmithKeepingLive(1), sessionCount);
const liveBytes = await heapPerSession(toolsmithKeepingLive(sessionCount * 2), sessionCount);

const w1Row = (phase: "target" | "steady") => frameworks.map((framework) => fmt(w1.get(framework)![phase].median, 2));
const w1Range = (phase: "target" | "steady") => frameworks.map((framework) => `${fmt(w1.get(framework)![phase].least, 2)}–${fmt(w1.get(framework)![phase].most, 2)}`);
const w1Ratio = (phase: "target" | "steady") => frameworks.map((framework) => fmt(w1.get(framework)![phase].median / w1.get(floor)![phase].median));
const w1Met = (phase: "target" | "steady") => mark(w1.get(toolsmith)![phase].median <= 5 * w1.get(floor)![phase].median);
const processCounts = [...new Set(frameworks.map((framework) => w1.get(framework)!.target.processes))].join(" or ");
const overhead = (wall: number) => Math.max(wall - 10, 0.001); // the tools wait 10 ms each, concurrently
const scaling = (framework: Framework) => overhead(w2.get(framework)!.at200) / overhead(w2.get(framework)!.at100);
printTable(
  [
    ["target", "figure", ...frameworks.map((framework) => framework.name), "toolsmith vs target"],
    [`1. overhead per model turn (W1: median of ${runs} 10-turn conversations after 30 warm-up ones; the median over ${processCounts} fresh processes)`, "µs", ...w1Row("target"), ""],
    ["   the processes' range", "µs", ...w1Range("target"), ""],
    ["   at most 5x the floor", "x floor", ...w1Ratio("target"), w1Met("target")],
    [`   steady state: the same after ${steadyWarmups.toLocaleString("en-US")} more conversations`, "µs", ...w1Row("steady"), ""],
    ["   the processes' range", "µs", ...w1Range("steady"), ""],
    ["   steady state, at most 5x the floor", "x floor", ...w1Ratio("steady"), w1Met("steady")],
    ["2. one response with 100 calls of a 10 ms tool", "ms wall", ...frameworks.map((framework) => fmt(w2.get(framework)!.at100, 2)), ""],
    ["   the same with 200 calls", "ms wall", ...frameworks.map((framework) => fmt(w2.get(framework)!.at200, 2)), ""],
    ["   overhead of 200 at most 2x that of 100", "ratio", ...frameworks.map((framework) => fmt(scaling(framework), 2)), mark(scaling(toolsmith) <= 2)],
    [`3. heap per small session (4 events, ${sessionCount} sessions, 1,000 kept live)`, "bytes", ...frameworks.map((framework) => fmt(w3.get(framework)!, 0)), mark(w3.get(toolsmith)! <= 1_200)],
    ["   toolsmith: an idle (packed) session", "bytes", ...toolsmithOnly(fmt(idleBytes, 0)), mark(idleBytes <= 1_200)],
    ["   toolsmith: a live session (all kept live)", "bytes", ...toolsmithOnly(fmt(liveBytes, 0)), mark(liveBytes <= 1_200)],
    ["   at most 1,200 bytes", "", ...toolsmithOnly(""), ""],
  ],
  log,
);

// 4: resume and long sessions.
log("");
const sizes = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
const dir = mkdtempSync(join(tmpdir(), "toolsmith-perf-"));
try {
  const rows: string[][] = [["4. long sessions", ...sizes.map((size) => `${size.toLocaleString("en-US")} events`), "per event (µs), smallest → largest"]];
  const resume: number[] = [];
  const load: number[] = [];
  const floorLoad: number[] = [];
  for (const size of sizes) {
    resume.push(await resumeTurnMs(size));
    const path = join(dir, `long-${size}.db`);
    load.push(await sqliteLoadMs(path, size));
    floorLoad.push(driverLoadMs(path, size));
  }
  const perEvent = (values: number[]) => values.map((value, index) => fmt((value * 1000) / sizes[index]!, 2)).join(" → ");
  rows.push(["one more turn on the session (in memory), ms", ...resume.map((value) => fmt(value, 2)), perEvent(resume)]);
  rows.push(["getSession from SQLite, ms", ...load.map((value) => fmt(value, 2)), perEvent(load)]);
  rows.push(["   floor: the same rows read by better-sqlite3 and JSON.parse alone, ms", ...floorLoad.map((value) => fmt(value, 2)), perEvent(floorLoad)]);
  printTable(rows, log);
  log("   linear: the time per event stays flat as the session grows (or grows as the floor's does: V8 collecting a larger heap)");
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// 5: storage, concurrent appends grouped into one transaction.
if (!process.argv.includes("--skip-storage")) {
  log("");
  const storageDir = mkdtempSync(join(tmpdir(), "toolsmith-perf-storage-"));
  const binaries = findPostgresBinaries();
  const cluster = binaries ? await startPostgresCluster(binaries) : undefined;
  try {
    const perSession = quick ? 10 : 50;
    const sqlite = await closing(new SqliteSessionService({ path: join(storageDir, "full.db"), synchronous: "full" }), (service) => appendsPerSecond(service, "storage", 200, perSession, conversationEvent));
    const postgres = cluster ? await closing(await PostgresSessionService.open({ connectionString: cluster.url, maxConnections: 10 }), (service) => appendsPerSecond(service, "storage", 200, perSession, conversationEvent)) : undefined;
    printTable(
      [
        ["5. storage: 200 sessions appending at once", "SQLite (WAL, synchronous=FULL, group commit)", "PostgreSQL (fsync, synchronous_commit on, 10 connections)", "target"],
        ["appends per second", fmt(sqlite, 0), postgres === undefined ? "n/a (no PostgreSQL binaries)" : fmt(postgres, 0), `SQLite ≥ 10,000: ${mark(sqlite >= 10_000)}`],
      ],
      log,
    );
  } finally {
    cluster?.stop();
    rmSync(storageDir, { recursive: true, force: true });
  }
}

// 6: the server.
if (!process.argv.includes("--skip-server")) {
  log("");
  const load = await serverLoad({ concurrency: 200, rounds: quick ? 1 : 5, warmupRounds: 1 });
  if (load.problems.length) throw new Error(`server load found problems: ${load.problems.slice(0, 3).join("; ")}`);
  const idle = await idleSessionBytes(quick ? 500 : 2_000);
  printTable(
    [
      ["6. server (toolsmith api-server in this process; the clients in a worker thread)", "figure", "target"],
      [`200 concurrent /run_sse runs, p95 latency (${load.conversations} runs)`, `${fmt(load.p95Ms)} ms`, `≤ 250 ms: ${mark(load.p95Ms <= 250)}`],
      ["   runs per second", fmt(load.runsPerSecond), ""],
      ["heap per idle session (created over HTTP, in memory)", `${fmt(idle, 0)} bytes`, "measured"],
    ],
    log,
  );
}

/** Milliseconds of one more user turn (a tool call and an answer) on an in-memory session already holding `size` events. */
async function resumeTurnMs(size: number): Promise<number> {
  const echo = new FunctionTool({ name: "echo", description: "Echoes.", parameters: z.object({ i: z.number() }), execute: ({ i }) => ({ i }) });
  const sessionService = new InMemorySessionService();
  const session = await sessionService.createSession({ appName: "long", userId: "u" });
  await fillSession(sessionService, session, size);
  const samples: number[] = [];
  for (let round = 0; round < 7; round++) {
    const model = new ScriptedModel([functionCallsResponse({ name: "echo", args: { i: round } }), textResponse("done")]);
    const runner = new Runner({ appName: "long", agent: new LlmAgent({ name: "agent", model, instruction: "Use the tool.", tools: [echo] }), sessionService });
    const started = performance.now();
    for await (const _event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage(`more ${round}`) }));
    samples.push(performance.now() - started);
  }
  return samples.sort((left, right) => left - right)[3]!;
}

/** Milliseconds of `getSession` of a SQLite session of `size` events (median of 5 reads). */
async function sqliteLoadMs(path: string, size: number): Promise<number> {
  const service = new SqliteSessionService({ path, synchronous: "normal" });
  try {
    const session = await service.createSession({ appName: "long", userId: "u" });
    await fillSession(service, session, size);
    const samples: number[] = [];
    for (let read = 0; read < 5; read++) {
      const started = performance.now();
      const loaded = await service.getSession({ appName: "long", userId: "u", sessionId: session.id });
      samples.push(performance.now() - started);
      if (loaded?.events.length !== size) throw new Error("wrong number of events read");
    }
    return samples.sort((left, right) => left - right)[2]!;
  } finally {
    await service.close();
  }
}

/**
 * The floor of a SQLite `getSession`: milliseconds (median of 5 reads) of the same query on the same file with
 * better-sqlite3 alone, each row's event parsed with `JSON.parse` and nothing else.
 */
function driverLoadMs(path: string, size: number): number {
  const database = new BetterSqlite3(path, { readonly: true });
  try {
    // The service's own query (sqlite-session-service.ts), on the file's one session.
    const sessionId = database.prepare("SELECT id FROM toolsmith_sessions").pluck().get() as string;
    const events = database.prepare("SELECT event FROM toolsmith_events WHERE app_name = ? AND user_id = ? AND session_id = ? AND timestamp >= ? ORDER BY seq").pluck();
    const samples: number[] = [];
    for (let read = 0; read < 5; read++) {
      const started = performance.now();
      const parsed = (events.all("long", "u", sessionId, -Infinity) as string[]).map((text) => JSON.parse(text) as unknown);
      samples.push(performance.now() - started);
      if (parsed.length !== size) throw new Error("wrong number of events read");
    }
    return samples.sort((left, right) => left - right)[2]!;
  } finally {
    database.close();
  }
}

/** Appends `size` events shaped like a conversation: user message, tool call, tool response, answer. */
async function fillSession(service: SessionService, session: Session, size: number): Promise<void> {
  for (let index = 0; index < size; index++) await service.appendEvent({ session, event: conversationEvent(index) });
}

function conversationEvent(index: number): Event {
  const id = `call-${Math.floor(index / 4)}`;
  switch (index % 4) {
    case 0:
      return createEvent({ invocationId: `i${index}`, author: "user", content: { role: "user", parts: [{ text: `question ${index}` }] } });
    case 1:
      return createEvent({ invocationId: `i${index}`, author: "agent", content: { role: "model", parts: [{ functionCall: { id, name: "echo", args: { i: index } } }] } });
    case 2:
      return createEvent({ invocationId: `i${index}`, author: "agent", content: { role: "user", parts: [{ functionResponse: { id, name: "echo", response: { i: index } } }] } });
    default:
      return createEvent({ invocationId: `i${index}`, author: "agent", content: { role: "model", parts: [{ text: `answer ${index}` }] } });
  }
}

/** Runs `work` on a service and closes it after. */
async function closing<S extends { close(): Promise<void> }>(service: S, work: (service: S) => Promise<number>): Promise<number> {
  try {
    return await work(service);
  } finally {
    await service.close();
  }
}
