import { BaseLlm, FunctionTool, InMemorySessionService, LlmAgent, Runner, type LlmRequest, type LlmResponse } from "@google/adk";
import { z } from "zod";
import type { Framework } from "./workloads.js";

/** The same scripted turns as toolsmith's, as an ADK model: a queue of responses. */
class AdkScriptedModel extends BaseLlm {
  readonly #steps: LlmResponse[];
  constructor(steps: LlmResponse[]) {
    super({ model: "scripted-model" });
    this.#steps = steps;
  }
  async *generateContentAsync(_request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    const step = this.#steps.shift();
    if (!step) throw new Error("script exhausted");
    yield structuredClone(step);
  }
  async connect(): Promise<never> {
    throw new Error("live connections are not scripted");
  }
}

let callId = 0;
const calls = (...list: Array<{ name: string; args: Record<string, unknown> }>): LlmResponse => ({
  content: { role: "model", parts: list.map((call) => ({ functionCall: { id: `c${callId++}`, ...call } })) },
});
const text = (value: string): LlmResponse => ({ content: { role: "model", parts: [{ text: value }] } });
const user = (value: string) => ({ role: "user", parts: [{ text: value }] });

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

function conversationSteps(turns: number): LlmResponse[] {
  return Array.from({ length: turns }, (_, turn) => [calls({ name: "echo", args: { i: turn } }), text(`answer ${turn}`)]).flat();
}

async function runTurns(model: BaseLlm, tools: FunctionTool<any>[], turns: number) {
  const agent = new LlmAgent({ name: "bench_agent", model, instruction: "Use the tool.", tools });
  const runner = new Runner({ appName: "bench", agent, sessionService: new InMemorySessionService() });
  const session = await runner.sessionService.createSession({ appName: "bench", userId: "u" });
  for (let turn = 0; turn < turns; turn++) {
    for await (const _event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: user(`turn ${turn}`) }));
  }
}

export const adk: Framework = {
  name: "@google/adk",
  async conversation(turns) {
    await runTurns(new AdkScriptedModel(conversationSteps(turns)), [echo], turns);
    return { modelCalls: turns * 2 };
  },
  async parallelCalls(count, waitMs) {
    const model = new AdkScriptedModel([calls(...Array.from({ length: count }, (_, i) => ({ name: "wait", args: { i } }))), text("done")]);
    await runTurns(model, [wait(waitMs)], 1);
  },
  async sessions(count) {
    const model = new AdkScriptedModel(conversationSteps(count));
    const agent = new LlmAgent({ name: "bench_agent", model, instruction: "Use the tool.", tools: [echo] });
    const runner = new Runner({ appName: "bench", agent, sessionService: new InMemorySessionService() });
    for (let index = 0; index < count; index++) {
      const session = await runner.sessionService.createSession({ appName: "bench", userId: `u${index % 50}` });
      for await (const _event of runner.runAsync({ userId: session.userId, sessionId: session.id, newMessage: user(`turn ${index}`) }));
    }
    // Only the stored sessions stay reachable; the runner and the scripted model go.
    return runner.sessionService;
  },
};
