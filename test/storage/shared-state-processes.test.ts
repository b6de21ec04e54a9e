import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSessionService } from "../../src/index.js";
import { startWorker } from "../support/child-process.js";
import { freshDatabase, postgresMissing, postgresUrl } from "../support/postgres.js";
import { tempDir } from "../support/temp-dir.js";

const WORKER = "test/storage/workers/shared-counter-worker.ts";
const INCREMENTS = 100;
const dir = tempDir();

/**
 * Two processes, each with its own session of one user, increment `user:counter` 100 times (read it, append
 * +1, reload and retry on SharedStateConflictError). Before the check, each append overwrote the counter
 * with a value computed from a stale read, and the counter ended near 100.
 */
async function raceTwoCounters(uri: string, label: string): Promise<void> {
  const appName = "counters";
  const setup = await createSessionService(uri);
  await setup.createSession({ appName, userId: "u", sessionId: "a", state: { "user:counter": 0 } });
  await setup.createSession({ appName, userId: "u", sessionId: "b" });
  await setup.close();

  const workers = ["a", "b"].map((sessionId) => startWorker(WORKER, { uri, appName, userId: "u", sessionId, count: INCREMENTS }));
  await Promise.all(workers.map((worker) => worker.waitFor((line) => line.ready === true)));
  for (const worker of workers) worker.child.stdin!.end("go\n");
  const results = await Promise.all(workers.map((worker) => worker.exited));
  for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });
  const conflicts = workers.map((worker) => worker.lines.find((line) => line.done !== undefined)!.conflicts as number);

  const service = await createSessionService(uri);
  const [a, b] = await Promise.all(["a", "b"].map(async (sessionId) => (await service.getSession({ appName, userId: "u", sessionId }))!));
  await service.close();
  console.log(`${label}: user:counter ended at ${a!.state["user:counter"]}; conflicts detected: ${conflicts[0]} in process a, ${conflicts[1]} in process b`);
  expect(a!.state["user:counter"]).toBe(2 * INCREMENTS);
  expect(b!.state["user:counter"]).toBe(2 * INCREMENTS);
  // Every refused append stored nothing: each session holds exactly its 100 increments, and together they count 1 to 200.
  expect([a!.events.length, b!.events.length]).toEqual([INCREMENTS, INCREMENTS]);
  const values = [...a!.events, ...b!.events].map((event) => event.actions.stateDelta["user:counter"] as number).sort((x, y) => x - y);
  expect(values).toEqual(Array.from({ length: 2 * INCREMENTS }, (_, index) => index + 1));
  expect(conflicts[0]! + conflicts[1]!).toBeGreaterThan(0);
}

describe("two processes incrementing one user: counter through two sessions of the user", () => {
  it("on SQLite, ends at exactly 200: each stale increment is refused with SharedStateConflictError and retried", () =>
    raceTwoCounters(`sqlite://${join(dir, "counter.db")}`, "SQLite"), 120_000);

  it.skipIf(!postgresUrl)(`on PostgreSQL, ends at exactly 200: each stale increment is refused with SharedStateConflictError and retried ${postgresMissing}`, async () =>
    raceTwoCounters(await freshDatabase(), "PostgreSQL"), 120_000);
});
