/**
 * A2A: one conversational turn through a RemoteA2AAgent to an agent served with toA2a on a loopback port, on
 * toolsmith and on @google/adk 2.0 (each framework as client and server of its own, and across), with scripted
 * models. Wall time per turn: the client's run, the JSON-RPC stream, the served run and its session, the events
 * back; median and p95 over `turns` turns in one session after 20 warm-up turns. Every turn's answer is checked,
 * so that an error never counts as a fast turn. `npm run bench:a2a` (`-- --quick` for fewer turns).
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import * as adk from "@google/adk";
import * as adkA2a from "@google/adk/a2a";
import * as toolsmith from "../src/index.js";
import * as toolsmithA2a from "../src/a2a/index.js";
import { FunctionModel, textResponse } from "../src/testing/index.js";
import { printTable } from "./print-table.js";
import { percentile } from "./workloads.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const quick = process.argv.includes("--quick");
const turns = quick ? 100 : 400;
const warmup = 20;
adk.setLogLevel?.(adk.LogLevel?.ERROR);
toolsmith.setLogLevel(toolsmith.LogLevel.ERROR);

/** An answer per message, echoing its number, from each framework's model. */
class AdkEcho extends adk.BaseLlm {
  constructor() {
    super({ model: "bench-echo" });
  }
  override async *generateContentAsync(request: Any): AsyncGenerator<Any, void> {
    const text = request.contents.at(-1)?.parts?.[0]?.text ?? "";
    yield { content: { role: "model", parts: [{ text: `echo ${text}` }] } };
  }
  override async connect(): Promise<never> {
    throw new Error("not live");
  }
}
const model = (framework: "adk" | "toolsmith") => (framework === "adk" ? new AdkEcho() : new FunctionModel((request) => textResponse(`echo ${request.contents.at(-1)?.parts?.[0]?.text ?? ""}`)));

async function serve(framework: "adk" | "toolsmith") {
  const f: Any = framework === "adk" ? adk : toolsmith;
  const a2a: Any = framework === "adk" ? adkA2a : toolsmithA2a;
  const agent = new f.LlmAgent({ name: "echo_agent", description: "Echoes.", model: model(framework), instruction: "Echo." });
  const app = await a2a.toA2a(agent, { allowUnauthenticated: true, host: "127.0.0.1", port: 1 });
  const server: Server = await new Promise((resolve) => {
    const listening: Server = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card = { ...((await (await fetch(`${base}/.well-known/agent-card.json`)).json()) as object), url: `${base}/jsonrpc`, additionalInterfaces: [] };
  return { card, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

async function turnTimes(client: "adk" | "toolsmith", server: "adk" | "toolsmith") {
  const served = await serve(server);
  const f: Any = client === "adk" ? adk : toolsmith;
  const a2a: Any = client === "adk" ? adkA2a : toolsmithA2a;
  const remote = new a2a.RemoteA2AAgent({ name: "echo_agent", agentCard: served.card });
  const runner = new f.Runner({ appName: "bench", agent: remote, sessionService: new f.InMemorySessionService() });
  const session = await runner.sessionService.createSession({ appName: "bench", userId: "u" });
  const times: number[] = [];
  for (let turn = 0; turn < warmup + turns; turn++) {
    const started = performance.now();
    let answer = "";
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: `m${turn}` }] } })) {
      if (event.errorMessage) throw new Error(`${client} → ${server}, turn ${turn}: ${event.errorMessage}`);
      if (!event.partial) answer += event.content?.parts?.map((part: Any) => part.text ?? "").join("") ?? "";
    }
    if (answer !== `echo m${turn}`) throw new Error(`${client} → ${server}, turn ${turn}: answered ${JSON.stringify(answer)}`);
    if (turn >= warmup) times.push(performance.now() - started);
  }
  await served.close();
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

console.log(`node ${process.version}, ${process.platform}/${process.arch}; ${turns} turns in one session after ${warmup} warm-up turns, each pairing in turn\n`);
const rows = [["client → server", "median ms per turn", "p95 ms"]];
for (const [client, server] of [["toolsmith", "toolsmith"], ["adk", "adk"], ["toolsmith", "adk"], ["adk", "toolsmith"]] as const) {
  const { median, p95 } = await turnTimes(client, server);
  rows.push([`${client} → ${server}`, median.toFixed(2), p95.toFixed(2)]);
}
printTable(rows);
