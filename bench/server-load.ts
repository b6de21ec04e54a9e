/**
 * The HTTP server under load: N concurrent `/run_sse` conversations over
 * loopback against a real server, each one tool call and a streamed reply
 * from a scripted model. Checks that every client got its events in order and
 * that each complete event was stored exactly once.
 */
import { AgentLoader } from "../src/server/agent-loader.js";
import { AppRegistry } from "../src/server/app-registry.js";
import { createApiApp } from "../src/server/create-api-app.js";
import { openServices } from "../src/server/open-services.js";
import { startServer } from "../src/server/start-server.js";

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

interface SseEvent {
  id: string;
  partial?: boolean;
  content?: { parts?: { text?: string; functionCall?: unknown; functionResponse?: unknown }[] };
}

export async function serverLoad(options: { concurrency: number; rounds: number }): Promise<ServerLoadResult> {
  const services = await openServices({ sessionServiceUri: "memory://", artifactServiceUri: "memory://" });
  const registry = new AppRegistry({ loader: new AgentLoader({ agentsDir: new URL("./agents/", import.meta.url).pathname }), services });
  const server = await startServer({ app: createApiApp({ registry }), port: 0 });
  const latencies: number[] = [];
  const problems: string[] = [];
  let eventsPerRun = 0;
  let runs = 0;
  const started = performance.now();
  try {
    for (let round = 0; round < options.rounds; round++) {
      await Promise.all(
        Array.from({ length: options.concurrency }, async (_, index) => {
          const userId = `user-${round}-${index}`;
          const session = (await (await fetch(`${server.url}/apps/echo/users/${userId}/sessions`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } })).json()) as { id: string };
          const begin = performance.now();
          const response = await fetch(`${server.url}/run_sse`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ appName: "echo", userId, sessionId: session.id, newMessage: { role: "user", parts: [{ text: `word${index}` }] }, streaming: true }),
          });
          const events = (await response.text()).split("\n\n").filter((block) => block.startsWith("data: ")).map((block) => JSON.parse(block.slice(6)) as SseEvent);
          latencies.push(performance.now() - begin);
          runs++;
          eventsPerRun = events.length;
          const problem = checkConversation(events, `word${index}`);
          if (problem) problems.push(`${userId}: ${problem}`);
          const stored = (await (await fetch(`${server.url}/apps/echo/users/${userId}/sessions/${session.id}`)).json()) as { events: SseEvent[] };
          const complete = events.filter((event) => !event.partial).map((event) => event.id);
          const storedIds = stored.events.slice(1).map((event) => event.id);
          if (JSON.stringify(storedIds) !== JSON.stringify(complete)) problems.push(`${userId}: stored ${storedIds.length} events, delivered ${complete.length} complete ones`);
        }),
      );
    }
  } finally {
    await server.close();
    await registry.close();
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((left, right) => left - right);
  const at = (fraction: number) => latencies[Math.min(latencies.length - 1, Math.floor(fraction * latencies.length))]!;
  return { conversations: runs, runsPerSecond: runs / seconds, p50Ms: at(0.5), p95Ms: at(0.95), eventsPerRun, problems };
}

/**
 * Heap bytes per idle session on a server: `count` sessions created over HTTP (`POST /apps/echo/users/…/sessions`)
 * on an in-process server with in-memory sessions, heap growth after `gc()` divided by `count`. Needs `--expose-gc`.
 */
export async function idleSessionBytes(count: number): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("Run with node --expose-gc (npm run bench:performance does).");
  const services = await openServices({ sessionServiceUri: "memory://", artifactServiceUri: "memory://" });
  const registry = new AppRegistry({ loader: new AgentLoader({ agentsDir: new URL("./agents/", import.meta.url).pathname }), services });
  const server = await startServer({ app: createApiApp({ registry }), port: 0 });
  const create = (userId: string) => fetch(`${server.url}/apps/echo/users/${userId}/sessions`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }).then((response) => response.json());
  try {
    for (let index = 0; index < 20; index++) await create(`warm-${index}`);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let index = 0; index < count; index += 50) await Promise.all(Array.from({ length: Math.min(50, count - index) }, (_, offset) => create(`idle-${index + offset}`)));
    gc();
    return (process.memoryUsage().heapUsed - before) / count;
  } finally {
    await server.close();
    await registry.close();
  }
}

/** The expected order: the call, its response, the streamed chunks, then the whole reply; undefined when it holds. */
function checkConversation(events: readonly SseEvent[], word: string): string | undefined {
  const kinds = events.map((event) => (event.partial ? "partial" : event.content?.parts?.[0]?.functionCall ? "call" : event.content?.parts?.[0]?.functionResponse ? "response" : "text"));
  const expected = ["call", "response", ...kinds.slice(2, -1).map(() => "partial"), "text"];
  if (kinds.length < 4 || JSON.stringify(kinds) !== JSON.stringify(expected)) return `events out of order: ${kinds.join(", ")}`;
  const streamed = events.slice(2, -1).map((event) => event.content?.parts?.[0]?.text ?? "").join("");
  const reply = events.at(-1)?.content?.parts?.[0]?.text;
  if (streamed !== reply || !reply?.includes(word)) return "the streamed chunks do not add up to the reply";
  return undefined;
}

// `npm run bench:server`
if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await serverLoad({ concurrency: 200, rounds: process.argv.includes("--quick") ? 1 : 5 });
  console.log(JSON.stringify(result, null, 2));
  if (result.problems.length) process.exitCode = 1;
}
