import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createSessionService, type Event, type SessionService } from "../../src/index.js";
import { startWorker } from "../support/child-process.js";
import { freshDatabase, postgresMissing, postgresUrl } from "../support/postgres.js";
import { tempDir } from "../support/temp-dir.js";

const WORKER = "test/storage/workers/append-worker.ts";
const dir = tempDir();
const key = { appName: "race", userId: "u", sessionId: "shared" };

/** Every stored event whole and unique, and the state exactly the fold of the stored deltas. */
function expectConsistent(events: Event[], state: Record<string, unknown>): void {
  expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
  for (const event of events) expect(event.content!.parts![0]!.text).toMatch(new RegExp(`^(message ${event.id} )+$`));
  expect(state).toEqual(Object.assign({}, ...events.map((event) => event.actions.stateDelta)));
}

async function raceTwoWriters(uri: string): Promise<void> {
  const setup = await createSessionService(uri);
  await setup.createSession(key);
  await setup.close();
  const workers = ["a", "b"].map((writer) => startWorker(WORKER, { uri, ...key, writer, mode: "race", count: 60, waitForGo: true }));
  await Promise.all(workers.map((worker) => worker.waitFor((line) => line.ready === true)));
  for (const worker of workers) worker.child.stdin!.end("go\n");
  const results = await Promise.all(workers.map((worker) => worker.exited));
  for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });

  const stored = workers.flatMap((worker) => worker.lines.filter((line) => line.stored).map((line) => line.stored as string));
  const rejected = workers.flatMap((worker) => worker.lines.filter((line) => line.rejected).map((line) => line.rejected as string));
  expect(stored.length + rejected.length).toBe(120);
  expect(rejected.length).toBeGreaterThan(0);

  const service = await createSessionService(uri);
  const session = (await service.getSession(key))!;
  await service.close();
  expect(session.events.map((event) => event.id).sort()).toEqual(stored.sort());
  expectConsistent(session.events, session.state);
  for (const writer of ["a", "b"]) {
    const own = session.events.filter((event) => event.invocationId === writer).map((event) => Number(event.id.split("-")[1]));
    expect(own).toEqual([...own].sort((x, y) => x - y));
  }
}

describe("two processes appending to one session", () => {
  it("on SQLite, stores or rejects every event with StaleSessionError, losing and duplicating none", () => raceTwoWriters(`sqlite://${join(dir, "race.db")}`));

  it.skipIf(!postgresUrl)(`on PostgreSQL, stores or rejects every event with StaleSessionError, losing and duplicating none ${postgresMissing}`, async () =>
    raceTwoWriters(await freshDatabase()),
  );
});

/** Kills an appending worker `rounds` times; after each kill the store must hold every acknowledged event, whole, and the fold of their deltas. */
async function killWritersRepeatedly(uri: string, options: { rounds: number; sessionId: string; checkFile?: string }): Promise<void> {
  const { rounds, checkFile } = options;
  const key = { appName: `crash-${options.sessionId}`, userId: "u", sessionId: options.sessionId };
  const setup = await createSessionService(uri);
  await setup.createSession(key);
  await setup.close();
  let acknowledged = new Set<string>();
  for (let round = 0; round < rounds; round++) {
    const storedBefore = acknowledged.size;
    const worker = startWorker(WORKER, { uri, ...key, writer: `${options.sessionId}w${round}`, mode: "crash" });
    await worker.waitFor((line) => line.stored !== undefined);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 40));
    worker.child.kill("SIGKILL");
    const exit = await worker.exited;
    expect(exit.signal, exit.stderr).toBe("SIGKILL");
    for (const line of worker.lines) if (line.stored) acknowledged.add(line.stored as string);

    if (checkFile) {
      const database = new Database(checkFile);
      expect(database.pragma("integrity_check", { simple: true })).toBe("ok");
      database.close();
    }
    const service: SessionService & { close(): Promise<void> } = await createSessionService(uri);
    const session = (await service.getSession(key))!;
    await service.close();
    const storedIds = new Set(session.events.map((event) => event.id));
    for (const id of acknowledged) expect(storedIds.has(id), `acknowledged event ${id}`).toBe(true);
    expectConsistent(session.events, session.state);
    expect(storedIds.size).toBeGreaterThan(storedBefore);
    acknowledged = storedIds;
  }
}

describe("a writer killed with SIGKILL at a random moment, again and again", () => {
  it("leaves a SQLite file that opens, with every acknowledged event whole and state equal to the fold of the deltas", async () => {
    const path = join(dir, "crash.db");
    // Two lanes of 10 kills each, on two sessions of one file: 20 kills in the time of 10, with writers side by side.
    await Promise.all(["lane1", "lane2"].map((sessionId) => killWritersRepeatedly(`sqlite://${path}`, { rounds: 10, sessionId, checkFile: path })));
  }, 240_000);

  it.skipIf(!postgresUrl)(`leaves PostgreSQL with every acknowledged event whole and state equal to the fold of the deltas ${postgresMissing}`, async () => {
    await killWritersRepeatedly(await freshDatabase(), { rounds: 5, sessionId: "pg" });
  }, 120_000);
});
