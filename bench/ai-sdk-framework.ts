/**
 * The same workloads on the Vercel AI SDK (`ai` 6): `generateText` with a tool and a
 * `MockLanguageModelV3` that answers from a queue, so the figures are the SDK's own
 * time. The AI SDK keeps no session: a conversation is the message list the
 * caller carries from turn to turn, which is what W3 keeps per "session".
 */
import { generateText, jsonSchema, stepCountIs, tool, type ModelMessage } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import type { Framework } from "./workloads.js";

type Step = { kind: "calls"; calls: Array<{ name: string; args: Record<string, unknown> }> } | { kind: "text"; text: string };

let callId = 0;
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };

/** A mock model answering each call with the next scripted step. */
function scriptedModel(steps: Step[]) {
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const step = steps.shift();
      if (!step) throw new Error("script exhausted");
      if (step.kind === "text") return { content: [{ type: "text", text: step.text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
      return {
        content: step.calls.map((call) => ({ type: "tool-call" as const, toolCallId: `c${callId++}`, toolName: call.name, input: JSON.stringify(call.args) })),
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      };
    },
  });
}

const inputSchema = jsonSchema<{ i: number }>({ type: "object", properties: { i: { type: "number" } }, required: ["i"], additionalProperties: false });
const echo = tool({ description: "Echoes its input.", inputSchema, execute: async ({ i }) => ({ i }) });
const wait = (ms: number) =>
  tool({
    description: "Waits.",
    inputSchema,
    execute: async ({ i }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { i };
    },
  });

function conversationSteps(turns: number): Step[] {
  return Array.from({ length: turns }, (_, turn): Step[] => [{ kind: "calls", calls: [{ name: "echo", args: { i: turn } }] }, { kind: "text", text: `answer ${turn}` }]).flat();
}

/** Runs `turns` user turns, carrying the messages as an application would; returns them. */
async function runTurns(steps: Step[], tools: Record<string, ReturnType<typeof tool<{ i: number }, { i: number }>>>, turns: number): Promise<ModelMessage[]> {
  const model = scriptedModel(steps);
  const messages: ModelMessage[] = [];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ role: "user", content: `turn ${turn}` });
    const result = await generateText({ model, system: "Use the tool.", messages, tools, stopWhen: stepCountIs(10) });
    messages.push(...result.response.messages);
  }
  return messages;
}

export const aiSdk: Framework = {
  name: "ai (Vercel AI SDK)",
  async conversation(turns) {
    await runTurns(conversationSteps(turns), { echo }, turns);
    return { modelCalls: turns * 2 };
  },
  async parallelCalls(count, waitMs) {
    const steps: Step[] = [{ kind: "calls", calls: Array.from({ length: count }, (_, i) => ({ name: "wait", args: { i } })) }, { kind: "text", text: "done" }];
    await runTurns(steps, { wait: wait(waitMs) }, 1);
  },
  async sessions(count) {
    const kept = new Map<string, ModelMessage[]>();
    for (let index = 0; index < count; index++) kept.set(`s${index}`, await runTurns(conversationSteps(1), { echo }, 1));
    return kept;
  },
};
