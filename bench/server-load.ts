/**
 * The HTTP server under load: N concurrent `/run_sse` conversations over
 * loopback against a real server, each one tool call and a streamed reply
 * from a scripted model. Checks that every client got its events in order and
 * that each complete event was stored exactly once (`bench/server-load-clients.mjs`).
 */
import { Worker } from "node:worker_threads";
import { AgentLoader } from "../src/server/agent-loader.js";
import { AppRegistry } from "../src/server/app-registry.js";
import { createApiApp } from "../src/server/create-api-app.js";
import { openServices } from "../src/server/open-services.js";
import { startServer } from "../src/server/start-server.js";
import { settledMemory } from "./workloads.js";
import { startedAs } from "./started-as.js";

/** What a load round measured. */
export interface ServerLoadResult {
  conversations: number;
  runsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  eventsPerRun: number;
  /** Conversations whose events came out of order or were not stored exactly once; 0 is the only good answer. */
  problems: string[];
}


/**
 * Runs the load: the server in this process, the clients in a worker thread (their own event loop, free to use
 * the other core), as real clients run apart from the server. Until 2026-11-27 the clients ran in the server's
 * own event loop, so their fetch, SSE parsing and checks were counted in each run's latency. `warmupRounds` run
 * first and are not counted: the first round also measures V8 compiling the server's code paths.
 */
export async function serverLoad(options: { concurrency: number; rounds: number; warmupRounds?: number }): Promise<ServerLoadResult> {
  const outcome = await withEchoServer(async (url) => {
    const worker = new Worker(new URL("./server-load-clients.mjs", import.meta.url), { workerData: { url, ...options } });
    const reported = await new Promise<{ latencies: number[]; problems: string[]; eventsPerRun: number; seconds: number }>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`the load clients exited with code ${code} before reporting`)));
    });
    await worker.terminate();
    return reported;
  });
  const latencies = outcome.latencies.sort((left, right) => left - right);
  const at = (fraction: number) => latencies[Math.min(latencies.length - 1, Math.floor(fraction * latencies.length))]!;
  return { conversations: latencies.length, runsPerSecond: latencies.length / outcome.seconds, p50Ms: at(0.5), p95Ms: at(0.95), eventsPerRun: outcome.eventsPerRun, problems: outcome.problems };
}

/**
 * Heap bytes per idle session on a server: `count` sessions created over HTTP (`POST /apps/echo/users/…/sessions`)
 * on an in-process server with in-memory sessions, memory growth after garbage collection ({@link settledMemory})
 * divided by `count`. Needs `--expose-gc`.
 */
export async function idleSessionBytes(count: number): Promise<number> {
  return withEchoServer(async (url) => {
    const create = (userId: string) => fetch(`${url}/apps/echo/users/${userId}/sessions`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }).then((response) => response.json());
    for (let index = 0; index < 20; index++) await create(`warm-${index}`);
    const before = await settledMemory();
    for (let index = 0; index < count; index += 50) await Promise.all(Array.from({ length: Math.min(50, count - index) }, (_, offset) => create(`idle-${index + offset}`)));
    return ((await settledMemory()) - before) / count;
  });
}

/** Runs `work` against an in-process API server for `bench/agents/` (the echo app) over in-memory stores, closed after. */
async function withEchoServer<T>(work: (url: string) => Promise<T>): Promise<T> {
  const services = await openServices({ sessionServiceUri: "memory://", artifactServiceUri: "memory://" });
  const registry = new AppRegistry({ loader: new AgentLoader({ agentsDir: new URL("./agents/", import.meta.url).pathname }), services });
  const server = await startServer({ app: createApiApp({ registry }), port: 0 });
  try {
    return await work(server.url);
  } finally {
    await server.close();
    await registry.close();
  }
}

// `npm run bench:server`
if (startedAs("server-load")) {
  const result = await serverLoad({ concurrency: 200, rounds: process.argv.includes("--quick") ? 1 : 5, warmupRounds: 1 });
  console.log(JSON.stringify(result, null, 2));
  if (result.problems.length) process.exitCode = 1;
}
