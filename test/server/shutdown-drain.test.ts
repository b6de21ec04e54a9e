import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SqliteSessionService } from "../../src/sqlite/index.js";
import { startChildServer, type ChildServer } from "../support/child-server.js";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";

const BIN = join(process.cwd(), "bin/toolsmith.mjs");
const APP = join(process.cwd(), "test/fixtures/drain");
const RUNS = 50;

function apiServer(database: string, options: { stepMs: number; graceSeconds: number }): Promise<ChildServer> {
  return startChildServer({
    args: [...SOURCE_NODE_FLAGS, BIN, "api-server", APP, "--port", "0", "--session-service-uri", `sqlite://${database}`, "--artifact-service-uri", "memory://", "--shutdown-grace", String(options.graceSeconds), "--log-level", "info"],
    ready: /API server at http:\/\/127\.0\.0\.1:\d+/,
    env: { STEP_MS: String(options.stepMs) },
    timeoutMs: 60_000,
  });
}

const urlOf = (server: ChildServer) => /API server at (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output())![1]!;

/** One SSE run: every `data:` line parsed, and a promise of the first one. */
function startRun(base: string, sessionId: string, text: string) {
  const lines: Record<string, any>[] = [];
  let firstSeen!: () => void;
  const first = new Promise<void>((resolve) => (firstSeen = resolve));
  const done = (async () => {
    const response = await fetch(`${base}/run_sse`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ appName: "drain", userId: "u", sessionId, newMessage: { role: "user", parts: [{ text }] } }) });
    const decoder = new TextDecoder();
    let buffered = "";
    for await (const chunk of response.body!) {
      buffered += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffered.indexOf("\n\n")) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (line.startsWith("data: ")) {
          lines.push(JSON.parse(line.slice(6)));
          firstSeen();
        }
      }
    }
  })();
  return { lines, first, done };
}

describe("SIGTERM while runs are under way", () => {
  it(`drains ${RUNS} SSE runs: new runs refused, running ones finish or stop with every event they sent stored, exit 0, every session resumable`, async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolsmith-drain-"));
    const database = join(dir, "sessions.db");
    const server = await apiServer(database, { stepMs: 1500, graceSeconds: 1.5 });
    const base = urlOf(server);
    let exitCode: number | null = null;
    const exited = new Promise<void>((resolve) => server.process.once("exit", (code) => ((exitCode = code), resolve())));
    try {
      const sessionIds: string[] = [];
      for (let index = 0; index < RUNS; index++) {
        const created = await fetch(`${base}/apps/drain/users/u/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
        sessionIds.push(((await created.json()) as { id: string }).id);
      }
      // Every fifth run is quick (one step): it can finish within the grace period; the others cannot.
      const runs = sessionIds.map((id, index) => startRun(base, id, index % 5 === 0 ? "quick" : "work"));
      await Promise.all(runs.map((run) => run.first));

      server.process.kill("SIGTERM");
      let readiness: { status: number; body: any } | undefined;
      for (let attempt = 0; attempt < 50; attempt++) {
        const response = await fetch(`${base}/readyz`);
        readiness = { status: response.status, body: await response.json() };
        if (readiness.status === 503) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(readiness).toMatchObject({ status: 503, body: { status: "draining" } });
      const refused = await fetch(`${base}/run_sse`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ appName: "drain", userId: "u", sessionId: sessionIds[0], newMessage: { role: "user", parts: [{ text: "more" }] } }) });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(await refused.json()).toMatchObject({ code: "SERVER_DRAINING" });

      await Promise.all(runs.map((run) => run.done));
      await exited;
      expect(exitCode).toBe(0);

      const finished = runs.filter((run) => run.lines.at(-1)?.content?.parts?.[0]?.text === "done").length;
      const interrupted = runs.filter((run) => run.lines.at(-1)?.code === "SERVER_SHUTTING_DOWN").length;
      console.log(`SIGTERM during ${RUNS} SSE runs: ${finished} finished within the grace period, ${interrupted} stopped at its end`);
      expect(finished + interrupted).toBe(RUNS);
      const log = server.output();
      expect(log).toMatch(/"msg":"shutting down","runs":\d+/);
      expect(log).toMatch(new RegExp(`"msg":"runs drained","finished":\\d+,"interrupted":${interrupted}}`));

      // Nothing a client saw is missing from the store, in the order it was sent.
      const sessions = new SqliteSessionService({ path: database });
      try {
        for (const [index, run] of runs.entries()) {
          const stored = (await sessions.getSession({ appName: "drain", userId: "u", sessionId: sessionIds[index]! }))!.events.map((event) => event.id);
          const seen = run.lines.filter((line) => line.id).map((line) => line.id as string);
          expect(seen.length).toBeGreaterThan(0);
          expect(stored.filter((id) => seen.includes(id))).toEqual(seen);
        }
      } finally {
        await sessions.close?.();
      }
    } finally {
      await server.stop();
    }

    // A new server on the same store takes every session on: interrupted calls are answered as such first.
    const restarted = await apiServer(database, { stepMs: 5, graceSeconds: 1 });
    try {
      const again = urlOf(restarted);
      const sessionsAfter = (await (await fetch(`${again}/apps/drain/users/u/sessions`)).json()) as Array<{ id: string }>;
      expect(sessionsAfter).toHaveLength(RUNS);
      const answers = await Promise.all(
        sessionsAfter.map(async ({ id }) => {
          const response = await fetch(`${again}/run`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ appName: "drain", userId: "u", sessionId: id, newMessage: { role: "user", parts: [{ text: "quick" }] } }) });
          expect(response.status).toBe(200);
          const events = (await response.json()) as any[];
          expect(events.filter((event) => event.errorCode)).toEqual([]);
          return events.at(-1)?.content?.parts?.[0]?.text as string;
        }),
      );
      expect(answers.every((answer) => answer === "done" || answer === "resumed")).toBe(true);
    } finally {
      await restarted.stop();
    }
  }, 180_000);
});
