import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as toolsmith from "../../src/index.js";

// Both modules export the names this program uses; it is written once against either.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Framework = any;

/**
 * `parse -> lookup (a FunctionTool) -> report`: the tool node's input is the previous node's output (an object, or
 * JSON text), its result is its output. Returns each event's author, output and the text of its parts.
 */
async function run(framework: Framework, message: string) {
  const lookup = new framework.FunctionTool({
    name: "lookup_order",
    description: "Looks an order up.",
    parameters: z.object({ orderId: z.string() }),
    execute: ({ orderId }: { orderId: string }, context: { state: { set(key: string, value: unknown): void } }) => {
      context.state.set("looked_up", orderId);
      return { orderId, status: "shipped" };
    },
  });
  const parse = framework.node((_ctx: unknown, text: string) => (text === "json" ? JSON.stringify({ orderId: "A-9" }) : text === "bad" ? { id: 1 } : { orderId: "A-17" }), { name: "parse" });
  const report = framework.node((_ctx: unknown, result: Record<string, unknown>) => `order ${String(result?.orderId)} is ${String(result?.status)}`, { name: "report" });
  const workflow = new framework.Workflow({ name: "orders", edges: [["START", parse, lookup, report]] });
  const runner = new framework.InMemoryRunner({ agent: workflow, appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events: unknown[] = [];
  for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: message }] } })) {
    const parts = (event.content?.parts ?? []).map((part: Record<string, any>) => part.functionResponse ? { functionResponse: { name: part.functionResponse.name, response: part.functionResponse.response } } : part);
    events.push({ author: event.author, output: event.output, path: event.nodeInfo?.path, parts, stateDelta: event.actions?.stateDelta });
  }
  return events;
}

describe("a tool as a workflow node (ToolNode), side by side with @google/adk", () => {
  it("runs the tool with the node's input as its arguments (an object or JSON text), and its result is the output", async () => {
    for (const message of ["object", "json"]) {
      const [ours, theirs] = [await run(toolsmith, message), await run(adk, message)];
      console.log(JSON.stringify(ours));
      expect(ours).toEqual(theirs);
    }
    expect((await run(toolsmith, "object")).at(-1)).toMatchObject({ author: "report", output: "order A-17 is shipped" });
  });

  it("answers arguments the tool's parameters refuse with the error result a model would read, which is the output", async () => {
    const ours = (await run(toolsmith, "bad")) as Array<Record<string, any>>;
    const lookup = ours.find((event) => event.author === "lookup_order")!;
    expect(lookup.output).toMatchObject({ error: expect.stringContaining("orderId") });
  });

  it("refuses a long-running tool when the node is made, and input that is not arguments when it runs", async () => {
    const slow = new toolsmith.LongRunningFunctionTool({ name: "approve", description: "Asks.", execute: () => ({ status: "pending" }) });
    expect(() => new toolsmith.Workflow({ name: "w", edges: [["START", slow]] })).toThrow(expect.objectContaining({ code: "INVALID_WORKFLOW", message: expect.stringContaining('Tool "approve" is long-running') }));
    const tool = new toolsmith.FunctionTool({ name: "echo", description: "Echoes.", execute: (args: Record<string, unknown>) => args });
    const runner = new toolsmith.InMemoryRunner({ agent: new toolsmith.Workflow({ name: "w", edges: [["START", node42(), tool]] }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = [];
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "go" }] } })) events.push(event);
    expect(events.at(-1)).toMatchObject({ author: "echo", errorCode: "INVALID_ARGUMENTS", nodeInfo: { path: "w.echo" } });
    expect(events.at(-1)!.errorMessage).toContain('Tool node "echo" got a number as its input');
  });
});

function node42() {
  return toolsmith.node(() => 42, { name: "forty_two" });
}
