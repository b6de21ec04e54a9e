/**
 * The clients of `bench/server-load.ts`, run in a worker thread: `concurrency` conversations at a time for
 * `rounds` rounds, each creating a session, running one `/run_sse` turn, reading every event and reading the
 * session back. Posts each run's latency (request to last event) and any problem found: events out of order,
 * streamed chunks that do not add up to the reply, or complete events not stored exactly once.
 *
 * Plain `node:http` with keep-alive, not `fetch`: the clients share two cores with the server, and fetch's
 * streams cost several times what the requests themselves do, so the figures would measure the clients.
 */
import { Agent, request as httpRequest } from "node:http";
import { parentPort, workerData } from "node:worker_threads";

const { url, concurrency, rounds, warmupRounds = 0 } = workerData;
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const latencies = [];
const problems = [];
let eventsPerRun = 0;
const toCheck = [];

/** One request; resolves with the response's body as text. */
function send(method, path, body) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(`${url}${path}`, { method, agent, headers: payload === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => (res.statusCode && res.statusCode < 400 ? resolve(text) : reject(new Error(`${method} ${path}: HTTP ${res.statusCode} ${text}`))));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

let measuredFrom = performance.now();
for (let round = -warmupRounds; round < rounds; round++) {
  if (round === 0) measuredFrom = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, index) => {
      const userId = `user-${round}-${index}`;
      const session = JSON.parse(await send("POST", `/apps/echo/users/${userId}/sessions`, {}));
      const begin = performance.now();
      const text = await send("POST", "/run_sse", { appName: "echo", userId, sessionId: session.id, newMessage: { role: "user", parts: [{ text: `word${index}` }] }, streaming: true });
      // Warm-up rounds (negative numbers) let V8 compile the server's paths; their latencies are not kept.
      if (round >= 0) latencies.push(performance.now() - begin);
      const storedText = await send("GET", `/apps/echo/users/${userId}/sessions/${session.id}`);
      // Checked after the round: the clients share the machine with the server, and parsing while other
      // conversations wait for their events would count the checks in their latency.
      toCheck.push({ userId, word: `word${index}`, text, storedText });
    }),
  );
  for (const { userId, word, text, storedText } of toCheck.splice(0)) {
    const events = text.split("\n\n").filter((block) => block.startsWith("data: ")).map((block) => JSON.parse(block.slice(6)));
    eventsPerRun = events.length;
    const problem = checkConversation(events, word);
    if (problem) problems.push(`${userId}: ${problem}`);
    const complete = events.filter((event) => !event.partial).map((event) => event.id);
    const storedIds = JSON.parse(storedText).events.slice(1).map((event) => event.id);
    if (JSON.stringify(storedIds) !== JSON.stringify(complete)) problems.push(`${userId}: stored ${storedIds.length} events, delivered ${complete.length} complete ones`);
  }
}
agent.destroy();
parentPort.postMessage({ latencies, problems, eventsPerRun, seconds: (performance.now() - measuredFrom) / 1000 });

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
