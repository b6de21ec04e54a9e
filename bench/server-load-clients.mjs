/**
 * The clients of `bench/server-load.ts`, run in a worker thread: `concurrency` conversations at a time for
 * `rounds` rounds, each creating a session, running one `/run_sse` turn, reading every event and reading the
 * session back. Posts each run's latency (request to last event) and any problem found: events out of order,
 * streamed chunks that do not add up to the reply, or complete events not stored exactly once.
 */
import { parentPort, workerData } from "node:worker_threads";

const { url, concurrency, rounds } = workerData;
const latencies = [];
const problems = [];
let eventsPerRun = 0;

for (let round = 0; round < rounds; round++) {
  await Promise.all(
    Array.from({ length: concurrency }, async (_, index) => {
      const userId = `user-${round}-${index}`;
      const session = await (await fetch(`${url}/apps/echo/users/${userId}/sessions`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } })).json();
      const begin = performance.now();
      const response = await fetch(`${url}/run_sse`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ appName: "echo", userId, sessionId: session.id, newMessage: { role: "user", parts: [{ text: `word${index}` }] }, streaming: true }),
      });
      const events = (await response.text()).split("\n\n").filter((block) => block.startsWith("data: ")).map((block) => JSON.parse(block.slice(6)));
      latencies.push(performance.now() - begin);
      eventsPerRun = events.length;
      const problem = checkConversation(events, `word${index}`);
      if (problem) problems.push(`${userId}: ${problem}`);
      const stored = await (await fetch(`${url}/apps/echo/users/${userId}/sessions/${session.id}`)).json();
      const complete = events.filter((event) => !event.partial).map((event) => event.id);
      const storedIds = stored.events.slice(1).map((event) => event.id);
      if (JSON.stringify(storedIds) !== JSON.stringify(complete)) problems.push(`${userId}: stored ${storedIds.length} events, delivered ${complete.length} complete ones`);
    }),
  );
}
parentPort.postMessage({ latencies, problems, eventsPerRun });

/** The expected order: the call, its response, the streamed chunks, then the whole reply; undefined when it holds. */
function checkConversation(events, word) {
  const kinds = events.map((event) => (event.partial ? "partial" : event.content?.parts?.[0]?.functionCall ? "call" : event.content?.parts?.[0]?.functionResponse ? "response" : "text"));
  const expected = ["call", "response", ...kinds.slice(2, -1).map(() => "partial"), "text"];
  if (kinds.length < 4 || JSON.stringify(kinds) !== JSON.stringify(expected)) return `events out of order: ${kinds.join(", ")}`;
  const streamed = events.slice(2, -1).map((event) => event.content?.parts?.[0]?.text ?? "").join("");
  const reply = events.at(-1)?.content?.parts?.[0]?.text;
  if (streamed !== reply || !reply?.includes(word)) return "the streamed chunks do not add up to the reply";
  return undefined;
}
