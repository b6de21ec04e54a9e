import { z } from "zod";
import { FunctionTool, InMemorySessionService, LlmAgent, Runner, type LlmResponse } from "../src/index.js";
import { ScriptedModel, functionCallsResponse, textResponse, userMessage } from "../src/testing/index.js";
import type { Framework } from "./workloads.js";

const echo = new FunctionTool({ name: "echo", description: "Echoes its input.", parameters: z.object({ i: z.number() }), execute: ({ i }) => ({ i }) });
const wait = (ms: number) =>
  new FunctionTool({
    name: "wait",
    description: "Waits.",
    parameters: z.object({ i: z.number() }),
    execute: async ({ i }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { i };
    },
  });

async function runTurns(model: ScriptedModel, tools: FunctionTool<any>[], turns: number, runner?: Runner) {
  const agent = new LlmAgent({ name: "bench_agent", model, instruction: "Use the tool.", tools });
  const activeRunner = runner ?? new Runner({ appName: "bench", agent });
  const session = await activeRunner.sessionService.createSession({ appName: "bench", userId: "u" });
  for (let turn = 0; turn < turns; turn++) {
    for await (const _event of activeRunner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage(`turn ${turn}`) }));
  }
  return activeRunner;
}

function conversationSteps(turns: number): LlmResponse[] {
  return Array.from({ length: turns }, (_, turn) => [functionCallsResponse({ name: "echo", args: { i: turn } }), textResponse(`answer ${turn}`)]).flat();
}

export const toolsmith: Framework = {
  name: "toolsmith",
  async conversation(turns) {
    await runTurns(new ScriptedModel(conversationSteps(turns)), [echo], turns);
    return { modelCalls: turns * 2 };
  },
  async parallelCalls(calls, waitMs) {
    const model = new ScriptedModel([functionCallsResponse(...Array.from({ length: calls }, (_, i) => ({ name: "wait", args: { i } }))), textResponse("done")]);
    await runTurns(model, [wait(waitMs)], 1);
  },
  sessions: (count) => storeSessions(count, new InMemorySessionService()),
};

/**
 * toolsmith with an in-memory store keeping `liveSessions` sessions as objects (the default keeps 1,000): with 1,
 * W3 measures idle sessions, all packed; with more than the sessions made, sessions all live.
 */
export function toolsmithKeepingLive(liveSessions: number): Framework {
  return { ...toolsmith, name: `toolsmith, ${liveSessions} live`, sessions: (count) => storeSessions(count, new InMemorySessionService({ liveSessions })) };
}

/** W3's sessions: `count` sessions of one turn each (4 events), kept in `sessionService`, which is returned. */
async function storeSessions(count: number, sessionService: InMemorySessionService) {
  const model = new ScriptedModel(conversationSteps(count));
  const agent = new LlmAgent({ name: "bench_agent", model, instruction: "Use the tool.", tools: [echo] });
  const runner = new Runner({ appName: "bench", agent, sessionService });
  for (let index = 0; index < count; index++) {
    const session = await runner.sessionService.createSession({ appName: "bench", userId: `u${index % 50}` });
    for await (const _event of runner.runAsync({ userId: session.userId, sessionId: session.id, newMessage: userMessage(`turn ${index}`) }));
  }
  // Only the stored sessions stay reachable; the runner and the scripted model go.
  return runner.sessionService;
}
