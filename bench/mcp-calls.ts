/**
 * W4: an agent calling an MCP tool (server-everything's `echo`, over stdio)
 * once per turn, on toolsmith's MCPToolset and on @google/adk's. Wall time per
 * turn (model call, tool listing, the MCP call, model call), median after one
 * warm-up turn; and how many server processes each started.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as adkApi from "@google/adk";
import { LlmAgent, Runner } from "../src/index.js";
import { MCPToolset } from "../src/mcp/index.js";
import { functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../src/testing/index.js";
import { percentile } from "./workloads.js";

const require = createRequire(import.meta.url);
const everything = join(dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")), "dist", "index.js");

function script(turns: number) {
  return Array.from({ length: turns }, (_, turn) => [functionCallsResponse({ id: `c${turn}`, name: "echo", args: { message: `m${turn}` } }), textResponse(`answer ${turn}`)]).flat();
}

/** Fails the benchmark when a tool response is not the server's echo, so that an error never counts as a fast call. */
function assertEchoed(response: unknown, turn: number): void {
  if (response !== undefined && !JSON.stringify(response).includes(`Echo: m${turn}`)) throw new Error(`turn ${turn}: unexpected tool response ${JSON.stringify(response)}`);
}

/** Median and p95 of the per-turn wall times after the first (warm-up) turn, in ms. */
function summarize(times: number[]) {
  const sorted = times.slice(1).sort((a, b) => a - b);
  return { median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
}

async function timeTurns(turns: number, runTurn: (turn: number) => Promise<void>) {
  const times: number[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const started = performance.now();
    await runTurn(turn);
    times.push(performance.now() - started);
  }
  return summarize(times);
}

export async function toolsmithMcpTurns(turns: number) {
  const toolset = new MCPToolset({ connection: { command: process.execPath, args: [everything], stderr: "ignore" }, toolFilter: ["echo"] });
  const runner = new Runner({ appName: "bench", agent: new LlmAgent({ name: "bench_agent", model: new ScriptedModel(script(turns)), tools: [toolset] }) });
  const session = await runner.sessionService.createSession({ appName: "bench", userId: "u" });
  const result = await timeTurns(turns, async (turn) => {
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage(`turn ${turn}`) })) {
      assertEchoed(event.content?.parts?.find((part) => part.functionResponse)?.functionResponse?.response, turn);
    }
  });
  await runner.close();
  return result;
}

class AdkScriptedModel extends adkApi.BaseLlm {
  readonly #steps: adkApi.LlmResponse[];
  constructor(steps: adkApi.LlmResponse[]) {
    super({ model: "scripted-model" });
    this.#steps = steps;
  }
  async *generateContentAsync(): AsyncGenerator<adkApi.LlmResponse, void> {
    const step = this.#steps.shift();
    if (!step) throw new Error("script exhausted");
    yield structuredClone(step);
  }
  async connect(): Promise<never> {
    throw new Error("live connections are not scripted");
  }
}

export async function adkMcpTurns(turns: number) {
  const toolset = new adkApi.MCPToolset({ type: "StdioConnectionParams", serverParams: { command: process.execPath, args: [everything], stderr: "ignore" } }, ["echo"]);
  const model = new AdkScriptedModel(script(turns) as adkApi.LlmResponse[]);
  const agent = new adkApi.LlmAgent({ name: "bench_agent", model, instruction: "Use the tool.", tools: [toolset] });
  const runner = new adkApi.Runner({ appName: "bench", agent, sessionService: new adkApi.InMemorySessionService() });
  const session = await runner.sessionService.createSession({ appName: "bench", userId: "u" });
  const result = await timeTurns(turns, async (turn) => {
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: `turn ${turn}` }] } })) {
      assertEchoed(event.content?.parts?.find((part) => part.functionResponse)?.functionResponse?.response, turn);
    }
  });
  await toolset.close();
  return result;
}
