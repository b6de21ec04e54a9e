/**
 * The floor: plain JavaScript doing the least any tool loop must, with no framework.
 * Each model turn hands the model (an async function answering from a script) a
 * request with the instruction, the tool's declaration and a copy of the history,
 * and for a tool call checks the arguments, calls the function and appends the
 * call and its result as events; for text it appends the answer. Arguments are checked with the same zod schema the
 * frameworks' tools have, and events get ids unique in the process. A
 * session is the array of its events. Issue 21's
 * targets are ratios to these figures.
 */
import { z } from "zod";
import type { Framework } from "./workloads.js";

interface FloorEvent {
  id: string;
  author: string;
  timestamp: number;
  parts: unknown[];
}
type Step = { calls: Array<{ id: string; name: string; args: Record<string, unknown> }> } | { text: string };
type ToolFunction = (args: { i: number }) => unknown;

let eventCount = 0;
const event = (author: string, parts: unknown[]): FloorEvent => ({ id: `e${eventCount++}`, author, timestamp: Date.now(), parts });

const echo: ToolFunction = ({ i }) => ({ i });
const wait =
  (ms: number): ToolFunction =>
  async ({ i }) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { i };
  };

const parameters = z.object({ i: z.number() });
function checkArguments(args: Record<string, unknown>): { i: number } {
  const parsed = parameters.safeParse(args);
  if (!parsed.success) throw new Error(parsed.error.message);
  return parsed.data;
}

const declarations = [{ name: "echo", description: "Echoes its input.", parameters: { type: "object", properties: { i: { type: "number" } }, required: ["i"] } }];
interface FloorRequest {
  instruction: string;
  tools: typeof declarations;
  history: FloorEvent[];
}

/** The model: answers each request with the next step of its script. */
function scriptedModel(steps: Step[]): (request: FloorRequest) => Promise<Step> {
  return async (request) => {
    const step = steps.shift();
    if (!step || request.history.length === 0) throw new Error("script exhausted");
    return step;
  };
}

/** One user turn: model steps until a text answer, tool calls run concurrently. */
async function userTurn(session: FloorEvent[], model: (request: FloorRequest) => Promise<Step>, tools: Record<string, ToolFunction>, text: string) {
  session.push(event("user", [{ text }]));
  for (;;) {
    const step = await model({ instruction: "Use the tool.", tools: declarations, history: session.slice() });
    if ("text" in step) {
      session.push(event("agent", [{ text: step.text }]));
      return;
    }
    session.push(event("agent", step.calls.map((call) => ({ functionCall: call }))));
    const results = await Promise.all(step.calls.map(async (call) => ({ functionResponse: { id: call.id, name: call.name, response: await tools[call.name]!(checkArguments(call.args)) } })));
    session.push(event("agent", results));
  }
}

let callId = 0;
function conversationSteps(turns: number): Step[] {
  return Array.from({ length: turns }, (_, turn): Step[] => [{ calls: [{ id: `c${callId++}`, name: "echo", args: { i: turn } }] }, { text: `answer ${turn}` }]).flat();
}

export const floor: Framework = {
  name: "floor (plain JavaScript)",
  async conversation(turns) {
    const model = scriptedModel(conversationSteps(turns));
    const session: FloorEvent[] = [];
    for (let turn = 0; turn < turns; turn++) await userTurn(session, model, { echo }, `turn ${turn}`);
    return { modelCalls: turns * 2 };
  },
  async parallelCalls(count, waitMs) {
    const steps: Step[] = [{ calls: Array.from({ length: count }, (_, i) => ({ id: `c${callId++}`, name: "wait", args: { i } })) }, { text: "done" }];
    await userTurn([], scriptedModel(steps), { wait: wait(waitMs) }, "go");
  },
  async sessions(count) {
    const kept = new Map<string, FloorEvent[]>();
    for (let index = 0; index < count; index++) {
      const session: FloorEvent[] = [];
      await userTurn(session, scriptedModel(conversationSteps(1)), { echo }, `turn ${index}`);
      kept.set(`s${index}`, session);
    }
    return kept;
  },
};
