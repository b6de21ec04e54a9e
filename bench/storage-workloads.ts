/**
 * Storage workloads: appends per second for one session and for 100 sessions
 * appending at once, and getSession latency for a session of 1,000 events, on
 * the SQLite and PostgreSQL session services with durable settings.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEvent, type Event, type Session, type SessionService } from "../src/index.js";
import { PostgresSessionService } from "../src/postgres/index.js";
import { SqliteSessionService } from "../src/sqlite/index.js";
import { findPostgresBinaries, startPostgresCluster } from "../test/support/postgres-cluster.js";
import { percentile } from "./workloads.js";

type Service = SessionService & { close(): Promise<void> };

/** An event shaped like a short model turn that writes one state key. */
function turn(index: number) {
  return createEvent({
    invocationId: "bench",
    author: "agent",
    content: { role: "model", parts: [{ text: `Answer number ${index}: the weather in Paris is sunny, 21 degrees.` }] },
    actions: { stateDelta: { turn: index, "user:last_city": "Paris" } },
  });
}

/** Appends per second with `sessions` sessions each appending `eventsPerSession` events (default: turns that write state) one after the other, all at once. */
export async function appendsPerSecond(service: SessionService, appName: string, sessions: number, eventsPerSession: number, makeEvent: (index: number) => Event = turn): Promise<number> {
  const created: Session[] = [];
  for (let index = 0; index < sessions; index++) created.push(await service.createSession({ appName, userId: `u${index}` })); // one user each: sessions of one user writing the same `user:` key would conflict, as they should
  const started = performance.now();
  await Promise.all(
    created.map(async (session) => {
      for (let index = 0; index < eventsPerSession; index++) await service.appendEvent({ session, event: makeEvent(index) });
    }),
  );
  return (sessions * eventsPerSession) / ((performance.now() - started) / 1000);
}

async function getSessionLatency(service: Service, appName: string, events: number, reads: number): Promise<{ median: number; p95: number }> {
  const session = await service.createSession({ appName, userId: "reader" });
  for (let index = 0; index < events; index++) await service.appendEvent({ session, event: turn(index) });
  const key = { appName, userId: "reader", sessionId: session.id };
  for (let warmup = 0; warmup < 5; warmup++) await service.getSession(key);
  const samples: number[] = [];
  for (let read = 0; read < reads; read++) {
    const started = performance.now();
    const loaded = await service.getSession(key);
    samples.push(performance.now() - started);
    if (loaded!.events.length !== events) throw new Error("wrong number of events read");
  }
  samples.sort((a, b) => a - b);
  return { median: percentile(samples, 0.5), p95: percentile(samples, 0.95) };
}

/** Runs every storage workload and returns table rows: workload, SQLite (FULL), SQLite (NORMAL), PostgreSQL. */
export async function storageBenchmarks(options: { quick: boolean }): Promise<string[][]> {
  const singleEvents = options.quick ? 200 : 1_000;
  const parallelEvents = options.quick ? 5 : 20;
  const reads = options.quick ? 20 : 100;
  const dir = mkdtempSync(join(tmpdir(), "toolsmith-bench-"));
  const binaries = findPostgresBinaries();
  const cluster = binaries ? await startPostgresCluster(binaries) : undefined;
  const services: Array<{ name: string; open: () => Promise<Service> }> = [
    { name: "SQLite FULL", open: async () => new SqliteSessionService({ path: join(dir, "full.db"), synchronous: "full" }) },
    { name: "SQLite NORMAL", open: async () => new SqliteSessionService({ path: join(dir, "normal.db"), synchronous: "normal" }) },
  ];
  if (cluster) services.push({ name: "PostgreSQL", open: () => PostgresSessionService.open({ connectionString: cluster.url, maxConnections: 10 }) });
  const columns: Array<{ single: number; parallel: number; read: { median: number; p95: number } } | undefined> = [];
  try {
    for (const { open } of services) {
      const service = await open();
      try {
        columns.push({
          single: await appendsPerSecond(service, "single", 1, singleEvents),
          parallel: await appendsPerSecond(service, "parallel", 100, parallelEvents),
          read: await getSessionLatency(service, "read", 1_000, reads),
        });
      } finally {
        await service.close();
      }
    }
  } finally {
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  while (columns.length < 3) columns.push(undefined);
  const cell = (value: number | undefined, digits = 0) => (value === undefined ? "n/a (no PostgreSQL)" : value.toFixed(digits));
  return [
    ["storage workload", "SQLite (WAL, synchronous=FULL)", "SQLite (WAL, synchronous=NORMAL)", "PostgreSQL (fsync, synchronous_commit on)"],
    [`S1 appends/s, one session (${singleEvents} appends)`, ...columns.map((column) => cell(column?.single))],
    [`S2 appends/s, 100 sessions at once (${parallelEvents} each)`, ...columns.map((column) => cell(column?.parallel))],
    [`S3 getSession of 1,000 events, median (ms, ${reads} reads)`, ...columns.map((column) => cell(column?.read.median, 2))],
    [`S3 getSession of 1,000 events, p95 (ms)`, ...columns.map((column) => cell(column?.read.p95, 2))],
  ];
}
